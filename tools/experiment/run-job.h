#ifndef INCSIM_EXPERIMENT_RUN_JOB_H
#define INCSIM_EXPERIMENT_RUN_JOB_H

#include "tools/experiment/results-db.h"
#include "tools/experiment/sweep-spec.h"

#include <optional>
#include <string>
#include <vector>

namespace incsim::experiment
{

/// One run of a sweep, ready to execute: the `incsim run` arguments and where it writes.
struct RunJob
{
    PlannedRun planned;
    std::string runId;  // scenario identity + code version
    std::string scenarioHash;  // Scenario::Identity()
    std::string runDir;
    /// Arguments after the incsim binary: run SCENARIO --out DIR --progress never --set ...
    std::vector<std::string> args;
};

/// A short stable hash of a text (hex of FNV-1a).
std::string TextHash(const std::string& text);

/// "workload.load=0.5, repetition 1": which run of the sweep, for messages.
std::string PointText(const PlannedRun& planned);

/// How a run ended, as a backend saw it.
enum class RunEnd
{
    Exited,  // the process exited with status 0 (check the run directory)
    Failed,  // it exited with another status, or was killed
    TimedOut,
    Interrupted,  // the sweep was stopped: the run is neither done nor failed
};

/// The record of a run from its directory: status ok if the run wrote run.json and
/// metrics.json, else failed (or timeout) with its point and the tail of its stderr.
RunRecord CollectRun(const SweepSpec& sweep, const std::string& codeVersion, const RunJob& job,
                     RunEnd end);

/// Whether the run directory holds a finished run of exactly this scenario (its identity) and
/// code version.
bool RunDirectoryFinished(const RunJob& job, const std::string& codeVersion);

/// A JSON file's contents, or nullopt if it is missing or not (yet) valid JSON.
std::optional<nlohmann::json> TryReadJson(const std::string& path);

/// The last `lines` lines of a text file ("" if it cannot be read).
std::string FileTail(const std::string& path, size_t lines);

} // namespace incsim::experiment

#endif
