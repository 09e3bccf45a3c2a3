#ifndef INCSIM_EXPERIMENT_LOCAL_BACKEND_H
#define INCSIM_EXPERIMENT_LOCAL_BACKEND_H

#include "tools/experiment/run-job.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace incsim::experiment
{

/// Runs jobs as child processes of the incsim binary, `jobs` at a time. Each child writes
/// stdout.txt and stderr.txt into its run directory, and dies with this process. A child that
/// outlives `timeoutNs` is killed. SIGINT and SIGTERM stop the sweep: running children are
/// killed and reported as Interrupted, and no further job starts.
class LocalBackend
{
  public:
    using Started = std::function<void(const RunJob& job)>;
    using Done = std::function<void(const RunJob& job, RunEnd end)>;

    LocalBackend(std::string incsimBinary, unsigned jobs, std::optional<int64_t> timeoutNs);

    /// Returns false if the sweep was interrupted.
    bool Run(const std::vector<RunJob>& jobs, const Started& started, const Done& done);

  private:
    std::string m_binary;
    unsigned m_jobs;
    std::optional<int64_t> m_timeoutNs;
};

} // namespace incsim::experiment

#endif
