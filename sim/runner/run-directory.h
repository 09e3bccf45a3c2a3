#ifndef INCSIM_RUNNER_RUN_DIRECTORY_H
#define INCSIM_RUNNER_RUN_DIRECTORY_H

#include <string>

namespace incsim
{

/// Makes `dir` ready for a new run: creates it, or empties one that holds an earlier run, so
/// that no trace of that run is taken for this one's. What a sweep captured of the process
/// running now (stdout.txt, stderr.txt) is kept. A non-empty directory that is not a run
/// directory (it has no scenario.resolved.json) is refused with OutputError, rather than
/// delete files incsim did not write.
void PrepareRunDirectory(const std::string& dir);

} // namespace incsim

#endif
