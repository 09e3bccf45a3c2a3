#include "protocols/onepipe/apps/txn-initiator.h"

#include "sim/runner/latency-metrics.h"

#include <algorithm>

namespace incsim::onepipe::apps
{

nlohmann::json
TxnMetrics(const TxnResults& results, const std::vector<std::string>& kindNames,
           int64_t measuredPs)
{
    const double seconds = measuredPs / 1e12;
    uint64_t commits = 0;
    uint64_t aborts = 0;
    std::vector<int64_t> all;
    nlohmann::json kinds = nlohmann::json::object();
    for (size_t k = 0; k < kindNames.size(); ++k)
    {
        commits += results.commits[k];
        aborts += results.aborts[k];
        all.insert(all.end(), results.latencyPs[k].begin(), results.latencyPs[k].end());
        nlohmann::json kind = {{"commits", results.commits[k]}, {"aborts", results.aborts[k]}};
        AddLatencyMetrics(kind, results.latencyPs[k], {50, 95});
        kinds[kindNames[k]] = kind;
    }
    nlohmann::json metrics = {
        {"commits", commits},
        {"aborts", aborts},
        {"abort_rate", commits + aborts ? double(aborts) / double(commits + aborts) : 0.0},
        {"throughput_txns_per_s", seconds > 0 ? commits / seconds : 0.0},
        {"kinds", kinds}};
    AddLatencyMetrics(metrics, all, {50, 95, 99});
    return metrics;
}

int64_t
RetryBackoffPs(int64_t basePs, uint32_t retries, Rng& rng)
{
    constexpr uint32_t kMaxDoublings = 6;
    const uint32_t doublings = std::min(retries - 1, kMaxDoublings);
    return static_cast<int64_t>(static_cast<double>(basePs << doublings) * rng.Uniform());
}

} // namespace incsim::onepipe::apps
