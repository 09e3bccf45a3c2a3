#include "sim/runner/latency-metrics.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace incsim
{

void
AddLatencyMetrics(nlohmann::json& metrics, std::vector<int64_t> latenciesPs,
                  const std::vector<int>& percents)
{
    // No sample, no latency: null rather than a 0 that reads as "instant".
    if (latenciesPs.empty())
    {
        metrics["latency_mean_us"] = nullptr;
        for (int percent : percents)
        {
            metrics["latency_p" + std::to_string(percent) + "_us"] = nullptr;
        }
        metrics["latency_max_us"] = nullptr;
        return;
    }
    std::sort(latenciesPs.begin(), latenciesPs.end());
    auto percentileUs = [&](double p) {
        const size_t index = static_cast<size_t>(p * (latenciesPs.size() - 1) + 0.5);
        return latenciesPs[index] / 1e6;
    };
    metrics["latency_mean_us"] =
        std::accumulate(latenciesPs.begin(), latenciesPs.end(), 0.0) / latenciesPs.size() / 1e6;
    for (int percent : percents)
    {
        metrics["latency_p" + std::to_string(percent) + "_us"] = percentileUs(percent / 100.0);
    }
    metrics["latency_max_us"] = percentileUs(1.0);
}

} // namespace incsim
