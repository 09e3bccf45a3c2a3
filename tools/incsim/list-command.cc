#include "commands.h"

#include "sim/scenario/protocol.h"
#include "sim/topology/topology-registry.h"

#include <SwitchPrograms.h>
#include <TestPrograms.h>
#include <fmt/format.h>

namespace incsim::cli
{

void
AddListCommand(CLI::App& app)
{
    CLI::App* list =
        app.add_subcommand("list", "List the protocols, topology generators and P4 programs");
    list->callback([] {
        fmt::print("protocols:\n");
        for (const auto& name : Protocols().Names())
        {
            fmt::print("  {:<18} {}\n", name, Protocols().Get(name).description);
        }
        fmt::print("topology generators:\n");
        for (const auto& name : TopologyGenerators().Names())
        {
            fmt::print("  {:<18} {}\n", name, TopologyGenerators().Get(name).description);
        }
        fmt::print("P4 switch programs (/switch/program):\n");
        for (const auto& program : p4gen::SwitchPrograms())
        {
            fmt::print("  {:<18} {}\n", program.info.name, program.info.source);
        }
        fmt::print("P4 test programs (incsim p4 test):\n");
        for (const auto& program : p4gen::TestPrograms())
        {
            fmt::print("  {:<18} {}\n", program.info.name, program.info.source);
        }
    });
}

} // namespace incsim::cli
