#ifndef INCSIM_EXPERIMENT_SWEEP_RUNNER_H
#define INCSIM_EXPERIMENT_SWEEP_RUNNER_H

#include "tools/experiment/sweep-spec.h"

#include <cstddef>
#include <string>
#include <vector>

namespace incsim::experiment
{

struct SweepOptions
{
    std::string backend = "local";  // local | slurm
    unsigned jobs = 0;  // 0: one per core
    std::string database = "results.sqlite";
    std::string outDir = "runs/sweeps";  // run directories go to OUT/<sweep>/<run id>/
    std::string incsimBinary;  // the binary that runs each run (this one)
    bool progress = false;  // a live progress line on stderr
    bool dryRun = false;  // expand and check every run's scenario; run nothing
    /// The source tree incsim was built from: a sweep refuses to start when a P4 program there
    /// changed after the build (empty: not checked).
    std::string sourceDir;
};

struct SweepReport
{
    size_t total = 0;
    size_t skipped = 0;  // already in the database
    size_t recovered = 0;  // finished on disk before an interruption, recorded now
    size_t ok = 0;
    size_t failed = 0;  // failed or timed out
    bool interrupted = false;
    /// Declared metrics that no successful run of the sweep reported.
    std::vector<std::string> missingMetrics;
};

/// Expands the sweep, skips runs the database has (same resolved scenario and code version),
/// records runs that finished before an interruption, runs the rest on the backend, and
/// records each as it ends. An append-only log of starts and ends goes to
/// OUT/<sweep>/sweep.log. Throws InputError for a bad sweep or scenario.
SweepReport RunSweep(const SweepSpec& sweep, const SweepOptions& options);

/// The code version recorded with every run: incsim's version and git sha ("0.1.0+3cc2788cd615",
/// "-dirty" with uncommitted changes). Results of another version are not reused.
std::string CodeVersion();

} // namespace incsim::experiment

#endif
