#include "sim/runner/version.h"

#include "sim/core/diagnostics.h"
#include "sim/core/rng.h"

#include <SwitchPrograms.h>
#include <fmt/format.h>

// Generated at every build by cmake/git-version.cmake; only this file depends on it.
#include "incsim-git-sha.h"

namespace incsim
{

namespace
{
std::string
P4Digest()
{
    std::string hashes;
    for (const p4rt::GeneratedProgram& program : p4gen::SwitchPrograms())
    {
        hashes += fmt::format("{}:{:016x};", program.info.name, program.info.codeHash);
    }
    return fmt::format("{:08x}", Fnv1a(hashes) & 0xffffffffu);
}
} // namespace

std::string
IncsimGitSha()
{
    return INCSIM_GIT_SHA;
}

std::string
IncsimVersion()
{
    static const std::string version =
        std::string(INCSIM_VERSION) + "+" + INCSIM_GIT_SHA + "+p4." + P4Digest();
    return version;
}

void
RequireFreshP4Build(const std::vector<const p4rt::ProgramInfo*>& programs,
                    const std::string& sourceDir)
{
    if (sourceDir.empty())
    {
        return;
    }
    for (const p4rt::ProgramInfo* info : programs)
    {
        const std::vector<std::string> changed = p4rt::ChangedSources(*info, sourceDir);
        if (!changed.empty())
        {
            throw StaleBuildError(fmt::format(
                "P4 program '{}': {} changed after incsim was built, so the switches would run "
                "the old program; rebuild (cmake --build build) and run again",
                info->name, fmt::join(changed, ", ")));
        }
    }
}

std::vector<const p4rt::ProgramInfo*>
CompiledSwitchPrograms()
{
    static const std::vector<p4rt::GeneratedProgram> programs = p4gen::SwitchPrograms();
    std::vector<const p4rt::ProgramInfo*> infos;
    for (const p4rt::GeneratedProgram& program : programs)
    {
        infos.push_back(&program.info);
    }
    return infos;
}

} // namespace incsim
