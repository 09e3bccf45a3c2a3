#ifndef INCSIM_EXPERIMENT_PROCESS_H
#define INCSIM_EXPERIMENT_PROCESS_H

// Running other programs without a shell (posix_spawnp): sbatch and squeue for the Slurm
// backend, Python for figure scripts, and this incsim binary for sweep workers.

#include <string>
#include <utility>
#include <vector>

namespace incsim::experiment
{

/// Runs `argv` with the caller's stdin, stdout and stderr and returns its exit status
/// (128 + signal if it was killed). Throws std::runtime_error if it cannot start.
int RunProcess(const std::vector<std::string>& argv);

/// Runs `argv` and returns its exit status and what it wrote on stdout.
std::pair<int, std::string> CaptureProcess(const std::vector<std::string>& argv);

/// The path of the running executable (/proc/self/exe).
std::string SelfExecutable();

} // namespace incsim::experiment

#endif
