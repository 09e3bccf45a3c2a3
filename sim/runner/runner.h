#ifndef INCSIM_RUNNER_RUNNER_H
#define INCSIM_RUNNER_RUNNER_H

#include "sim/runner/progress.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace incsim
{

class Scenario;

struct RunOptions
{
    /// Run directory; created if missing.
    std::string outDir;
    /// Overrides /outputs/progress when set.
    std::optional<ProgressMode> progress;
};

struct RunSummary
{
    std::string runDir;
    uint64_t events = 0;
    int64_t simulatedNs = 0;
    double wallSeconds = 0;
    long peakRssKb = 0;
    nlohmann::json metrics;
};

/// scenario -> topology -> world -> protocol -> Simulator::Run -> run directory:
/// scenario.resolved.json, run.json, metrics.json and the enabled traces.
RunSummary RunScenario(const Scenario& scenario, const RunOptions& options);

} // namespace incsim

#endif
