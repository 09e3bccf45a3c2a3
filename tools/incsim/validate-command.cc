#include "commands.h"

#include "sim/runner/validation.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

namespace incsim::cli
{

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
        const ValidationSummary summary = ValidateByAssembly(scenario);
        fmt::print("{}: ok ({} hosts, {} switches, {} links)\n", scenario.File(), summary.hosts,
                   summary.switches, summary.links);
    });
}

} // namespace incsim::cli
