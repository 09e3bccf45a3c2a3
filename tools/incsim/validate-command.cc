#include "commands.h"

#include "sim/runner/simulation.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

#include <filesystem>
#include <unistd.h>

namespace incsim::cli
{

namespace
{

/// A scratch run directory for trace files a protocol opens while it is installed.
class ScratchDir
{
  public:
    ScratchDir()
        : m_path(std::filesystem::temp_directory_path() /
                 fmt::format("incsim-validate-{}", ::getpid()))
    {
        std::filesystem::create_directories(m_path);
    }
    ~ScratchDir() { std::filesystem::remove_all(m_path); }
    std::string Path() const { return m_path.string(); }

  private:
    std::filesystem::path m_path;
};

} // namespace

void
AddValidateCommand(CLI::App& app)
{
    auto file = std::make_shared<std::string>();
    auto overrides = std::make_shared<std::vector<std::string>>();
    CLI::App* validate = app.add_subcommand(
        "validate",
        "Check a scenario without running it: the schema, then the topology, fault names, routes "
        "and protocol, by assembling the whole simulation");
    validate->add_option("scenario", *file, "Scenario JSON file")->required();
    validate->add_option("--set", *overrides, "Override a scenario value: path=value");
    validate->callback([file, overrides] {
        Scenario scenario = LoadScenario(*file, *overrides);
        ScratchDir scratch;
        Simulation simulation(scenario, scratch.Path());
        const Topology& topology = simulation.GetWorld().GetTopology();
        fmt::print("{}: ok ({} hosts, {} switches, {} links)\n",
                   scenario.File(),
                   topology.Hosts().size(),
                   topology.Switches().size(),
                   topology.NumLinks());
    });
}

} // namespace incsim::cli
