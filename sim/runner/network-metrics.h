#ifndef INCSIM_RUNNER_NETWORK_METRICS_H
#define INCSIM_RUNNER_NETWORK_METRICS_H

#include <nlohmann/json.hpp>

namespace incsim
{

class World;

/// metrics.json's "network" section after a run: frames delivered, wire bytes, drops by
/// reason (links, egress buffers, nodes) and link utilisation over the run's duration.
nlohmann::json NetworkMetrics(const World& world);

/// Writes the links trace (per-direction counters of every link) if it is enabled.
void WriteLinkTrace(const World& world);

} // namespace incsim

#endif
