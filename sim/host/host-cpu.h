#ifndef INCSIM_HOST_HOST_CPU_H
#define INCSIM_HOST_HOST_CPU_H

#include "sim/net/ring-buffer.h"

#include <ns3/event-id.h>
#include <ns3/object.h>
#include <ns3/traced-value.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace incsim
{

/// A host CPU: N identical cores serving jobs in FIFO order. Endpoints charge each message's
/// service time here, so CPU-bound protocols (where SwitchTx's gains come from) queue.
class HostCpu : public ns3::Object
{
  public:
    static ns3::TypeId GetTypeId();

    HostCpu();
    ~HostCpu() override;

    void SetCores(uint32_t cores);
    uint32_t Cores() const { return m_cores; }

    /// Runs `done` once a core has spent `servicePs` on the job. Zero-cost jobs still wait
    /// their turn behind queued jobs.
    void Execute(int64_t servicePs, std::function<void()> done);
    /// Discards queued and running jobs (host crash).
    void Reset();

    uint64_t QueuedJobs() const { return m_queue.Size(); }
    uint32_t BusyCores() const { return m_busy; }
    /// Total core-time spent (ps), for utilisation metrics.
    int64_t BusyPs() const { return m_busyPs; }
    uint64_t CompletedJobs() const { return m_completed; }

  private:
    struct Job
    {
        int64_t servicePs = 0;
        std::function<void()> done;
    };

    void DoDispose() override;
    void Start(Job job);
    void Finish(uint64_t slot);

    uint32_t m_cores = 1;
    uint32_t m_busy = 0;
    RingBuffer<Job> m_queue;
    // Running jobs by slot, with their completion events, so Reset() can cancel them.
    std::vector<Job> m_running;
    std::vector<uint64_t> m_freeSlots;
    std::vector<ns3::EventId> m_events;
    int64_t m_busyPs = 0;
    uint64_t m_completed = 0;
    ns3::TracedValue<uint32_t> m_queueLength;
};

} // namespace incsim

#endif
