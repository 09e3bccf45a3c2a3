#ifndef INCSIM_RUNNER_VERSION_H
#define INCSIM_RUNNER_VERSION_H

#include <string>

namespace incsim
{

/// The source tree's git sha at build time, with "-dirty" for uncommitted changes.
std::string IncsimGitSha();
/// "<project version>+<git sha>", recorded in run.json; sweeps compare it to skip finished runs.
std::string IncsimVersion();

} // namespace incsim

#endif
