#ifndef INCSIM_RUNNER_LATENCY_METRICS_H
#define INCSIM_RUNNER_LATENCY_METRICS_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace incsim
{

/// Adds a protocol's latency summary to its metrics, in us: latency_mean_us, latency_pN_us for
/// each N in `percents` (nearest rank), and latency_max_us. Without samples (nothing was
/// delivered) every one of them is null: a latency that was never measured is not 0.
void AddLatencyMetrics(nlohmann::json& metrics, std::vector<int64_t> latenciesPs,
                       const std::vector<int>& percents);

} // namespace incsim

#endif
