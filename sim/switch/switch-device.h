#ifndef INCSIM_SWITCH_SWITCH_DEVICE_H
#define INCSIM_SWITCH_SWITCH_DEVICE_H

#include "sim/net/drop-reason.h"
#include "sim/net/frame-sink.h"
#include "sim/net/frame.h"
#include "sim/net/network-node.h"
#include "sim/net/ring-buffer.h"
#include "sim/switch/pipeline.h"

#include <ns3/event-id.h>
#include <ns3/nstime.h>
#include <ns3/object.h>
#include <ns3/ptr.h>
#include <ns3/traced-callback.h>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace incsim
{

class EgressPort;

/// A switching chip with N front-panel ports on point-to-point links: ingress pipeline,
/// traffic manager (per-egress-port strict-priority FIFO queues, multicast replication),
/// egress pipeline, and a CPU port served by the switch CPU with a per-packet service time.
///
/// Frame path: link -> ReceiveFrame -> pipeline Ingress -> EgressPort queue(s) -> pipeline
/// Egress at dequeue -> link. The ingress-to-queue latency (PipelineDelay) is folded into the
/// incoming links' latency, so it costs no event.
class SwitchDevice : public NetworkNode, public TransmitHook
{
  public:
    static ns3::TypeId GetTypeId();

    struct Counters
    {
        uint64_t received = 0;
        uint64_t forwarded = 0;
        uint64_t toCpu = 0;
    };

    /// Called with each frame the CPU has finished processing.
    using CpuHandler = std::function<void(FramePtr frame)>;

    SwitchDevice();
    ~SwitchDevice() override;

    void Configure(uint32_t nodeId, std::string name, uint32_t numPorts);
    void SetPipeline(std::unique_ptr<SwitchPipeline> pipeline);
    SwitchPipeline* GetPipeline() const { return m_pipeline.get(); }

    uint32_t CpuPort() const { return m_cpuPort; }
    /// Frames waiting at the CPU port behind the one being handled.
    size_t CpuBacklog() const { return m_cpuQueue.Size(); }
    uint32_t Priorities() const { return m_priorities; }
    ns3::Time PipelineDelay() const { return m_pipelineDelay; }

    void SetCpuHandler(CpuHandler handler) { m_cpuHandler = std::move(handler); }
    /// Packet-in from the CPU: the frame runs through the ingress pipeline as if it had
    /// arrived on the CPU port.
    void InjectFromCpu(FramePtr frame);
    /// Packet-out from the CPU straight to an egress queue, bypassing ingress.
    void SendFromCpu(FramePtr frame, uint32_t port);
    /// Sends a frame from the end of egress back to ingress after the pipeline delay, with its
    /// metadata as the pipeline set it (v1model recirculation).
    void Recirculate(FramePtr frame);
    /// Enqueues a frame made during egress (an egress-to-egress clone) once the egress port
    /// that is transmitting has finished with the current frame.
    void EnqueueAfterEgress(FramePtr frame, uint32_t port);

    /// Crash (false) or recover (true). A crash drops everything queued and the pipeline's
    /// soft state; the caller takes the attached links down.
    void SetUp(bool up);
    void SetPortUp(uint32_t port, bool up);

    void ReceiveFrame(FramePtr frame, uint32_t port) override;
    bool PrepareTransmit(Frame& frame, uint32_t port) override;

    const Counters& GetCounters() const { return m_counters; }

  private:
    void DoDispose() override;
    /// Fresh metadata for a frame entering on `port`, then ingress and the traffic manager.
    void StartIngress(FramePtr frame, uint32_t port);
    void Dispatch(FramePtr frame);
    void CpuServiceDone();
    void RecirculationDone(uint64_t generation);
    void AfterEgressDone(uint64_t generation);

    uint32_t m_priorities = 8;
    uint32_t m_cpuPort = 255;
    ns3::Time m_cpuServiceTime;
    uint32_t m_cpuQueueLimit = 1024;
    ns3::Time m_pipelineDelay;

    std::unique_ptr<SwitchPipeline> m_pipeline;

    CpuHandler m_cpuHandler;
    RingBuffer<FramePtr> m_cpuQueue;
    RingBuffer<FramePtr> m_recirculating;
    RingBuffer<std::pair<FramePtr, uint32_t>> m_afterEgress;
    /// Bumped by a crash, so that events scheduled before it find nothing of theirs.
    uint64_t m_generation = 0;
    ns3::EventId m_cpuEvent;

    Counters m_counters;
    ns3::TracedCallback<bool> m_stateTrace;
};

} // namespace incsim

#endif
