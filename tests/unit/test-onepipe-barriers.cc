// Which inputs feed each output of a 1Pipe switch (protocols/onepipe/barrier-directions.*):
// up ports, and the port groups that keep a barrier from coming back where it came from.

#include "protocols/onepipe/barrier-directions.h"
#include "sim/schema/schema.h"
#include "sim/topology/routing.h"
#include "sim/topology/topology.h"
#include "topologies/register.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::onepipe;

namespace
{

Topology
Build(const std::string& name, const nlohmann::json& params)
{
    RegisterTopologyGenerators();
    const TopologyGenerator& generator = TopologyGenerators().Get(name);
    const nlohmann::json resolved = generator.params().Resolve(params, "test.json", "/topology/params");
    LinkParams link;
    link.rateBps = 100'000'000'000;
    link.delayNs = 1000;
    return generator.build(ParamView(&resolved, "test.json", "/topology/params"), link);
}

uint32_t
Id(const Topology& topology, const std::string& name)
{
    const auto id = topology.FindNode(name);
    REQUIRE(id);
    return *id;
}

/// The port of `node` that leads to `peer`.
uint32_t
PortTo(const Topology& topology, uint32_t node, const std::string& peer)
{
    for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
    {
        if (topology.Peer(node, port).peerNode == Id(topology, peer))
        {
            return port;
        }
    }
    FAIL("no link from " << topology.Node(node).name << " to " << peer);
    return 0;
}

} // namespace

TEST_CASE("Port groups leave out the inputs whose packets never leave by a port",
          "[onepipe][barriers]")
{
    const Topology testbed = Build("onepipe-testbed", nlohmann::json::object());
    const EcmpRoutes routes = ComputeEcmpRoutes(testbed, RouteMetric::Hops);
    const std::vector<uint32_t> up = UpPortMasks(testbed, routes, 32);
    const std::vector<std::vector<uint32_t>> groups = PortGroups(testbed, routes, up);
    auto bit = [&](uint32_t node, const std::string& peer) {
        return 1u << PortTo(testbed, node, peer);
    };

    // A core never sends a pod's packet back into the pod: each pod's two spine ports are
    // one group (excluding only the port itself would let pod 0's barrier come back through
    // the other spine).
    const uint32_t core0 = Id(testbed, "core0");
    const uint32_t pod0 = bit(core0, "spine0") | bit(core0, "spine1");
    const uint32_t pod1 = bit(core0, "spine2") | bit(core0, "spine3");
    CHECK(up[core0] == 0);
    CHECK(groups[core0][PortTo(testbed, core0, "spine0")] == pod0);
    CHECK(groups[core0][PortTo(testbed, core0, "spine1")] == pod0);
    CHECK(groups[core0][PortTo(testbed, core0, "spine3")] == pod1);

    // A spine never sends a ToR's packet back to that ToR; its core ports are up ports.
    const uint32_t spine0 = Id(testbed, "spine0");
    CHECK(up[spine0] == (bit(spine0, "core0") | bit(spine0, "core1")));
    CHECK(groups[spine0][PortTo(testbed, spine0, "tor0")] == bit(spine0, "tor0"));
    CHECK(groups[spine0][PortTo(testbed, spine0, "tor1")] == bit(spine0, "tor1"));

    // A host port feeds every output, itself included (processes of one host talk through
    // their ToR): no group, so a host's barrier always includes its own.
    const uint32_t tor0 = Id(testbed, "tor0");
    CHECK(up[tor0] == (bit(tor0, "spine0") | bit(tor0, "spine1")));
    CHECK(groups[tor0][PortTo(testbed, tor0, "h0")] == 0);
    CHECK(groups[tor0][PortTo(testbed, tor0, "h7")] == 0);
}

TEST_CASE("Port groups on a fat-tree: a core's port per pod, a switch's port to each child",
          "[onepipe][barriers]")
{
    const Topology tree = Build("fat-tree", {{"k", 4}});
    const EcmpRoutes routes = ComputeEcmpRoutes(tree, RouteMetric::Hops);
    const std::vector<uint32_t> up = UpPortMasks(tree, routes, 32);
    const std::vector<std::vector<uint32_t>> groups = PortGroups(tree, routes, up);
    for (uint32_t node : tree.Switches())
    {
        for (uint32_t port = 0; port < tree.NumPorts(node); ++port)
        {
            INFO(tree.Node(node).name << " port " << port);
            const bool toHost = tree.Node(tree.Peer(node, port).peerNode).kind == NodeKind::Host;
            const bool isUp = (up[node] >> port) & 1;
            // k=4: a core reaches each pod through one aggregation switch, and an aggregation
            // switch each edge switch through one port, so every down port towards a switch
            // is its own group; host ports and up ports have none here.
            CHECK(groups[node][port] == (toHost || isUp ? 0u : 1u << port));
        }
    }
}
