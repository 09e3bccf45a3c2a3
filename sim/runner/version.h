#ifndef INCSIM_RUNNER_VERSION_H
#define INCSIM_RUNNER_VERSION_H

#include <string>
#include <vector>

namespace incsim::p4rt
{
struct ProgramInfo;
}

namespace incsim
{

/// The source tree's git sha at build time, with "-dirty.<hash of the changes>" for
/// uncommitted changes (cmake/git-version.cmake).
std::string IncsimGitSha();
/// "<project version>+<git sha>+p4.<digest>", where the digest covers the generated code of
/// every P4 program compiled in (so a changed program is a new version even where git cannot
/// see it). Recorded in run.json; sweeps compare it to skip finished runs.
std::string IncsimVersion();

/// Throws StaleBuildError naming the files when a source of one of `programs` under
/// `sourceDir` (the tree incsim was built from) changed after the build: running it would
/// simulate the old program. An empty `sourceDir` checks nothing.
void RequireFreshP4Build(const std::vector<const p4rt::ProgramInfo*>& programs,
                         const std::string& sourceDir);
/// Every switch program compiled into incsim (what a sweep may run).
std::vector<const p4rt::ProgramInfo*> CompiledSwitchPrograms();

} // namespace incsim

#endif
