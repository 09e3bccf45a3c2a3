#include "commands.h"

#include "sim/core/output-file.h"
#include "sim/core/units.h"
#include "sim/runner/build-topology.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

#include <sstream>
#include <iostream>

namespace incsim::cli
{

void
AddTopoCommand(CLI::App& app)
{
    struct Args
    {
        std::string scenario;
        std::vector<std::string> overrides;
        bool dot = false;
        std::string out;
    };
    auto args = std::make_shared<Args>();
    CLI::App* topo = app.add_subcommand("topo", "Show a scenario's topology");
    topo->add_option("scenario", args->scenario, "Scenario JSON file")->required();
    topo->add_option("--set", args->overrides, "Override a scenario value: path=value");
    topo->add_flag("--dot", args->dot, "Write Graphviz (switches, hosts, link rates and delays)");
    topo->add_option("-o,--output", args->out, "Write to this file instead of stdout");
    topo->callback([args] {
        Scenario scenario = LoadScenario(args->scenario, args->overrides);
        Topology topology = BuildTopology(scenario);
        std::ostringstream out;
        if (args->dot)
        {
            topology.WriteGraphviz(out);
        }
        else
        {
            out << fmt::format("{} hosts, {} switches, {} links\n",
                               topology.Hosts().size(),
                               topology.Switches().size(),
                               topology.NumLinks());
            for (uint32_t id = 0; id < topology.NumLinks(); ++id)
            {
                const LinkInfo& link = topology.Link(id);
                out << fmt::format("  {}:{} -- {}:{}  {}  {}\n",
                                   topology.Node(link.a).name,
                                   link.portA,
                                   topology.Node(link.b).name,
                                   link.portB,
                                   FormatRate(link.params.rateBps),
                                   FormatDuration(link.params.delayNs));
            }
        }
        if (args->out.empty())
        {
            std::cout << out.str();
        }
        else
        {
            WriteTextFile(args->out, out.str());
        }
    });
}

} // namespace incsim::cli
