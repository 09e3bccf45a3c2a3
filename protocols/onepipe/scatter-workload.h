#ifndef INCSIM_ONEPIPE_SCATTER_WORKLOAD_H
#define INCSIM_ONEPIPE_SCATTER_WORKLOAD_H

#include "sim/core/rng.h"

#include <ns3/event-id.h>

#include <cstdint>

namespace incsim::onepipe
{

class OnePipeEndpoint;

/// The traffic of the paper's microbenchmarks, for one process: scatterings at Poisson (or
/// constant) intervals, each to every other process (broadcast, Fig. 8), one random process
/// (unicast), or `fanout` distinct random processes (scatter).
struct ScatterWorkload
{
    enum class Pattern
    {
        Broadcast,
        Unicast,
        Scatter
    };
    Pattern pattern = Pattern::Broadcast;
    uint32_t fanout = 1;
    uint32_t messageBytes = 64;
    double meanIntervalPs = 0;
    bool poisson = true;
    int64_t startPs = 0;
    int64_t stopPs = 0;
};

class ScatterApp
{
  public:
    ScatterApp(OnePipeEndpoint& endpoint, const ScatterWorkload& workload, uint32_t processes,
               Rng rng);
    ~ScatterApp();
    ScatterApp(const ScatterApp&) = delete;
    ScatterApp& operator=(const ScatterApp&) = delete;

    void Start();

  private:
    void SendNext();
    void ScheduleNext();

    OnePipeEndpoint& m_endpoint;
    ScatterWorkload m_workload;
    uint32_t m_processes;
    Rng m_rng;
    ns3::EventId m_event;
};

} // namespace incsim::onepipe

#endif
