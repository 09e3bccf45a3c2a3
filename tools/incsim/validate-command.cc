#include "commands.h"

#include "sim/runner/build-topology.h"
#include "sim/runner/faults.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

namespace incsim::cli
{

void
AddValidateCommand(CLI::App& app)
{
    auto file = std::make_shared<std::string>();
    auto overrides = std::make_shared<std::vector<std::string>>();
    CLI::App* validate =
        app.add_subcommand("validate", "Check a scenario (schema, topology, faults) without running it");
    validate->add_option("scenario", *file, "Scenario JSON file")->required();
    validate->add_option("--set", *overrides, "Override a scenario value: path=value");
    validate->callback([file, overrides] {
        Scenario scenario = LoadScenario(*file, *overrides);
        Topology topology = BuildTopology(scenario);
        ResolveFaults(scenario, topology);
        fmt::print("{}: ok ({} hosts, {} switches, {} links)\n",
                   scenario.File(),
                   topology.Hosts().size(),
                   topology.Switches().size(),
                   topology.NumLinks());
    });
}

} // namespace incsim::cli
