#include "sim/runner/validation.h"

#include "sim/runner/simulation.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <unistd.h>

namespace incsim
{

namespace
{

/// A scratch run directory for the trace files a protocol opens while it is installed.
class ScratchDir
{
  public:
    ScratchDir()
        : m_path(std::filesystem::temp_directory_path() /
                 fmt::format("incsim-validate-{}-{}", ::getpid(), s_next++))
    {
        std::filesystem::create_directories(m_path);
    }
    ~ScratchDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::string Path() const { return m_path.string(); }

  private:
    static inline std::atomic<unsigned> s_next{0};
    std::filesystem::path m_path;
};

} // namespace

ValidationSummary
ValidateByAssembly(const Scenario& scenario)
{
    scenario.Identity();  // every input file can be read
    ScratchDir scratch;
    Simulation simulation(scenario, scratch.Path());
    const Topology& topology = simulation.GetWorld().GetTopology();
    return {topology.Hosts().size(), topology.Switches().size(), topology.NumLinks()};
}

} // namespace incsim
