#include "sim/runner/version.h"

// Generated at every build by cmake/git-version.cmake; only this file depends on it.
#include "incsim-git-sha.h"

namespace incsim
{

std::string
IncsimGitSha()
{
    return INCSIM_GIT_SHA;
}

std::string
IncsimVersion()
{
    return std::string(INCSIM_VERSION) + "+" + INCSIM_GIT_SHA;
}

} // namespace incsim
