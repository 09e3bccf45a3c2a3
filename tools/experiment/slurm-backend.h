#ifndef INCSIM_EXPERIMENT_SLURM_BACKEND_H
#define INCSIM_EXPERIMENT_SLURM_BACKEND_H

#include "tools/experiment/local-backend.h"

#include <optional>
#include <string>
#include <vector>

namespace incsim::experiment
{

/// Runs jobs as one Slurm job array. The pending runs are split into array tasks (one run per
/// task, or several when there are more than kMaxTasks); each task runs
/// `incsim sweep-task TASKS.json INDEX`, which executes its runs one after another into their
/// run directories under the sweep's output directory. That directory must be shared with
/// the compute nodes: results come back through it, never through node-local storage.
///
/// The sweep polls `squeue` and the run directories, reports each run as it finishes, and
/// when the array has left the queue reports every run that did not finish as failed (or
/// timed out, when Slurm's time limit or the run's own timeout stopped it). SIGINT and SIGTERM
/// cancel the array (`scancel`), and so does an error. The array's id is kept in the batch
/// directory: a later sweep cancels arrays an earlier, killed, sweep left running before it
/// submits its own.
class SlurmBackend
{
  public:
    static constexpr size_t kMaxTasks = 1000;

    SlurmBackend(std::string incsimBinary, std::string batchDir,
                 std::optional<int64_t> timeoutNs);

    /// Returns false if the sweep was interrupted. Throws std::runtime_error when sbatch fails.
    bool Run(const std::vector<RunJob>& jobs, const LocalBackend::Started& started,
             const LocalBackend::Done& done);

  private:
    std::string m_binary;
    std::string m_batchDir;
    std::optional<int64_t> m_timeoutNs;
};

/// The worker side, run by each array task: the runs of task `index` in `tasksFile`, one at a
/// time, each leaving an end.json ({"end": "exited"|"failed"|"timeout"}) in its run
/// directory.
int RunSweepTask(const std::string& incsimBinary, const std::string& tasksFile, size_t index);

} // namespace incsim::experiment

#endif
