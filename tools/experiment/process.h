#ifndef INCSIM_EXPERIMENT_PROCESS_H
#define INCSIM_EXPERIMENT_PROCESS_H

// Running other programs without a shell (posix_spawnp): sbatch and squeue for the Slurm
// backend, Python for figure scripts, and this incsim binary for sweep workers.

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace incsim::experiment
{

/// Runs `argv` with the caller's stdin, stdout and stderr and returns its exit status
/// (128 + signal if it was killed). Throws std::runtime_error if it cannot start.
int RunProcess(const std::vector<std::string>& argv);

/// Runs `argv` and returns its exit status and what it wrote on stdout and stderr.
std::pair<int, std::string> CaptureProcess(const std::vector<std::string>& argv);

/// Waits for a child, retrying when a signal interrupts the wait; returns its exit status
/// (128 + signal if it was killed).
int WaitForChild(pid_t pid);

/// While alive, SIGINT and SIGTERM only set a flag (Requested()); the previous handlers come
/// back on destruction. Long-running loops poll it and stop cleanly.
class StopRequests
{
  public:
    StopRequests();
    ~StopRequests();
    StopRequests(const StopRequests&) = delete;
    StopRequests& operator=(const StopRequests&) = delete;

    static bool Requested();

  private:
    struct Saved;
    Saved* m_saved;
};

/// The path of the running executable (/proc/self/exe).
std::string SelfExecutable();

} // namespace incsim::experiment

#endif
