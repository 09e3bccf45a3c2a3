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
    /// Run directory; created if missing, emptied if it holds an earlier run.
    std::string outDir;
    /// Overrides /outputs/progress when set.
    std::optional<ProgressMode> progress;
    /// The source tree incsim was built from; when set, a run whose P4 programs' sources there
    /// differ from what was compiled in is refused (StaleBuildError).
    std::string sourceDir;
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
/// scenario.resolved.json, run.json, metrics.json and the enabled traces. Every write is
/// checked (OutputError); run.json, written last, marks a finished run.
RunSummary RunScenario(const Scenario& scenario, const RunOptions& options);

} // namespace incsim

#endif
