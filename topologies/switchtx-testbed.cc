#include "topologies/register.h"

#include <string>
#include <vector>

namespace incsim
{
namespace
{

/// Fig. 9: the root virtual switch and its three leaves, each leaf a rack.
constexpr uint32_t kRacks = 3;

/// A switch addresses ports 0-254 (World checks it for every switch); in the single layout
/// the one switch has a port per server.
constexpr int64_t kMaxServers = 255;

/// "single": all servers in one rack (Fig. 14 b); "multi": Fig. 9's three racks below a core.
enum class Layout
{
    Single,
    Multi
};

const Choices<Layout>&
LayoutChoices()
{
    static const Choices<Layout> choices{{"single", Layout::Single}, {"multi", Layout::Multi}};
    return choices;
}

Topology
BuildSwitchTxTestbed(const ParamView& params, const LinkParams& link)
{
    const auto servers = static_cast<uint32_t>(params.Int("servers"));
    const bool multi = params.Choice("layout", LayoutChoices()) == Layout::Multi;
    if (multi && servers < kRacks)
    {
        params.Fail("servers",
                    "layout \"multi\" spreads the servers over 3 racks and needs at least one "
                    "in each: give at least 3");
    }
    const uint32_t racks = multi ? kRacks : 1;

    // Round robin: server i sits in rack i mod 3, so any two consecutive servers are in
    // different racks (see docs/switchtx.md, "Topologies").
    Topology topology;
    std::vector<uint32_t> hosts;
    for (uint32_t i = 0; i < servers; ++i)
    {
        hosts.push_back(topology.AddNode("srv" + std::to_string(i),
                                         NodeKind::Host,
                                         0,
                                         static_cast<int>(i % racks)));
    }
    std::vector<uint32_t> rackIds;
    for (uint32_t r = 0; r < racks; ++r)
    {
        rackIds.push_back(
            topology.AddNode("rack" + std::to_string(r), NodeKind::Switch, 1, static_cast<int>(r)));
    }
    for (uint32_t i = 0; i < servers; ++i)
    {
        topology.AddLink(hosts[i], rackIds[i % racks], link);
    }
    if (multi)
    {
        // The rack-core links are the testbed's loop-back cables: one Tofino port to another,
        // a cable like a server's, so they take the /links rate and delay too.
        const uint32_t core = topology.AddNode("core", NodeKind::Switch, 2);
        for (uint32_t rack : rackIds)
        {
            topology.AddLink(rack, core, link);
        }
    }
    return topology;
}

} // namespace

TopologyGenerator
SwitchTxTestbedGenerator()
{
    TopologyGenerator generator;
    generator.description =
        "SwitchTx's testbed (PVLDB 2022, Sec. 5.1, Fig. 9): servers srv{i}. single: every "
        "server on one switch, rack0 (Fig. 14 b). multi: Fig. 9's four virtual switches, the "
        "core (switch_0, the root) linked to three rack switches rack0..rack2, with server i "
        "in rack (i mod 3); the rack-core links are the loop-back cables of the one Tofino. "
        "A switch's first ports lead to its servers in index order, a rack's last port to the "
        "core, and the core's port r to rack{r}. Every link takes the /links rate and delay.";
    generator.params = [] {
        return Spec::Object()
            .Field("layout", Spec::Enum(LayoutChoices()),
                   "single switch (one rack) or three racks below a core (Fig. 9)", "multi")
            .Field("servers", Spec::Integer().Min(2).Max(kMaxServers),
                   "servers; multi needs at least 3 (one per rack); at most 255, since in the "
                   "single layout the switch has a port per server and ports stop at 254",
                   8);
    };
    generator.build = BuildSwitchTxTestbed;
    return generator;
}

} // namespace incsim
