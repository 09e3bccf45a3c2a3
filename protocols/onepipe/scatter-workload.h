#ifndef INCSIM_ONEPIPE_SCATTER_WORKLOAD_H
#define INCSIM_ONEPIPE_SCATTER_WORKLOAD_H

#include "protocols/onepipe/onepipe-endpoint.h"
#include "sim/core/rng.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace incsim::onepipe
{

/// The traffic of the paper's microbenchmarks, for one process: scatterings at Poisson (or
/// constant) intervals, each to every other process (broadcast, Fig. 8), one random process
/// (unicast), or `fanout` distinct random processes (scatter). Filled from /workload, whose
/// spec holds the defaults. With `maxUnsent` the application blocks on its sends, as the
/// paper's send threads do at saturation: a scattering due while `maxUnsent` of its own wait to
/// leave the host (CPU cost unpaid, no token yet, packets still in the NIC) is sent when one
/// has left, so the offered load adapts to what the process and its NIC can send instead of
/// queueing without bound.
struct ScatterWorkload
{
    enum class Pattern
    {
        Broadcast,
        Unicast,
        Scatter
    };
    Pattern pattern{};
    uint32_t fanout = 0;
    uint32_t messageBytes = 0;
    double meanIntervalPs = 0;
    bool poisson = false;
    int64_t startPs = 0;
    int64_t stopPs = 0;
    uint32_t maxUnsent = 0; ///< 0: open loop
};

/// Drives one process: `send` is its scattering call (OnePipeEndpoint::UnreliableSend, or a
/// baseline's broadcast).
class ScatterApp
{
  public:
    using Send = std::function<void(const std::vector<Outgoing>& scattering)>;

    ScatterApp(uint32_t self, Send send, const ScatterWorkload& workload, uint32_t processes,
               Rng rng);
    ~ScatterApp();
    ScatterApp(const ScatterApp&) = delete;
    ScatterApp& operator=(const ScatterApp&) = delete;

    void Start();
    /// One of the process's scatterings left it (the endpoint's transmitted callback).
    void Transmitted();

  private:
    void SendNext();
    void ScheduleNext();

    uint32_t m_self;
    Send m_send;
    ScatterWorkload m_workload;
    uint32_t m_processes;
    Rng m_rng;
    ns3::EventId m_event;
    uint32_t m_unsent = 0;  ///< scatterings handed to the process that have not left the host
    bool m_blocked = false; ///< a scattering is due and waits for one to leave
};

} // namespace incsim::onepipe

#endif
