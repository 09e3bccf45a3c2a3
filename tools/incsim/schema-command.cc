#include "commands.h"

#include "sim/scenario/scenario.h"

#include <fmt/format.h>

namespace incsim::cli
{

void
AddSchemaCommand(CLI::App& app)
{
    CLI::App* schema = app.add_subcommand(
        "schema", "Print the scenario reference (the generated part of docs/scenario.md)");
    schema->callback([] { fmt::print("{}", ScenarioReferenceMarkdown()); });
}

} // namespace incsim::cli
