// ECMP: per-flow hashing spreads flows evenly over equal-cost uplinks and keeps each flow on
// one path; per-packet spraying spreads even a single flow.

#include "test-support.h"

#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"
#include "sim/net/headers.h"
#include "sim/runner/world.h"
#include "sim/switch/switch-device.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

using Flow = std::pair<uint32_t, uint32_t>; // (src host, dst host)

/// Which flows each switch port transmitted, from the egress ports' Transmit traces.
class FlowMap
{
  public:
    explicit FlowMap(const TestWorld& world)
    {
        const Topology& topology = world->GetTopology();
        for (uint32_t node : topology.Switches())
        {
            for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
            {
                OnFrame(world->PortOf(node, port), "Transmit",
                        [this](const Frame& frame, uint32_t n, uint32_t p) {
                            UdpView udp = ParseUdp(frame);
                            Flow flow{udp.srcHost, udp.dstHost};
                            m_flows[{n, p}].insert(flow);
                            m_ports[{n, flow}].insert(p);
                            ++m_frames[{n, p}];
                        });
            }
        }
    }

    const std::set<Flow>& FlowsOn(uint32_t node, uint32_t port) { return m_flows[{node, port}]; }
    uint64_t FramesOn(uint32_t node, uint32_t port) { return m_frames[{node, port}]; }
    /// (node, flow) -> ports the flow left that node by.
    const std::map<std::pair<uint32_t, Flow>, std::set<uint32_t>>& PortsPerFlow() const
    {
        return m_ports;
    }

  private:
    std::map<std::pair<uint32_t, uint32_t>, std::set<Flow>> m_flows;
    std::map<std::pair<uint32_t, Flow>, std::set<uint32_t>> m_ports;
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m_frames;
};

/// Ports of `node` that lead one layer up (edge -> aggregation, aggregation -> core).
std::vector<uint32_t>
Uplinks(const Topology& topology, uint32_t node)
{
    std::vector<uint32_t> ports;
    for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
    {
        if (topology.Node(topology.Peer(node, port).peerNode).layer > topology.Node(node).layer)
        {
            ports.push_back(port);
        }
    }
    return ports;
}

//   k = 8 fat-tree: 128 hosts, 32 edge switches with 4 uplinks each, 32 aggregation switches
//   with 4 uplinks each, 16 cores. Every host sends one small message to every other host
//   (all-to-all), so 128 * 127 flows of equal weight.
const char* kFatTree8 = R"({
    "duration": "80us",
    "seed": 11,
    "topology": {"generator": "fat-tree", "params": {"k": 8}},
    "links": {"rate": "10Gbps", "delay": "500ns"},
    "protocol": {"name": "udp"},
    "workload": {"pattern": "all-to-all", "message_size": "100B", "load": 0.5,
                 "arrivals": "constant", "stop": "40us"},
    "outputs": {"traces": []}
})";

//   k = 4 fat-tree; one flow from h0 (pod 0, under e0_0) to h15 (pod 3):
//
//            c0   c1   c2   c3
//           a0_0 a0_1  ..  a3_0 a3_1
//           e0_0 e0_1  ..  e3_0 e3_1
//           h0                    h15
const char* kFatTree4 = R"({
    "duration": "1ms",
    "topology": {"generator": "fat-tree", "params": {"k": 4}},
    "links": {"rate": "10Gbps", "delay": "1us"},
    "protocol": {"name": "udp"},
    "outputs": {"traces": []}
})";

struct Spread
{
    double chiSquare = 0;
    int dof = 0;
    double minShare = 1;
    double maxShare = 0;
};

/// Spread of distinct flows over the uplinks of the switches of `layer`.
Spread
UplinkSpread(const TestWorld& world, FlowMap& flows, int layer)
{
    Spread spread;
    const Topology& topology = world->GetTopology();
    for (uint32_t node : topology.Switches())
    {
        if (topology.Node(node).layer != layer)
        {
            continue;
        }
        std::vector<uint32_t> up = Uplinks(topology, node);
        std::vector<double> counts;
        double total = 0;
        for (uint32_t port : up)
        {
            counts.push_back(static_cast<double>(flows.FlowsOn(node, port).size()));
            total += counts.back();
        }
        REQUIRE(total > 0);
        double expected = total / up.size();
        for (double c : counts)
        {
            spread.chiSquare += (c - expected) * (c - expected) / expected;
            spread.minShare = std::min(spread.minShare, c / total);
            spread.maxShare = std::max(spread.maxShare, c / total);
        }
        spread.dof += static_cast<int>(up.size()) - 1;
    }
    return spread;
}

} // namespace

TEST_CASE("Per-flow ECMP spreads many flows evenly and keeps each on one path", "[ecmp]")
{
    InitIncsim();
    TestWorld world(kFatTree8, {}, true);
    FlowMap flows(world);
    RunUntilPs(Us(80));

    // Every ordered pair of hosts formed a flow.
    const auto& perFlow = flows.PortsPerFlow();
    std::set<Flow> seen;
    for (const auto& [key, ports] : perFlow)
    {
        seen.insert(key.second);
    }
    CHECK(seen.size() == 128u * 127u);

    // Per-flow: at every switch, every flow leaves by exactly one port.
    uint64_t split = 0;
    for (const auto& [key, ports] : perFlow)
    {
        split += ports.size() != 1;
    }
    CHECK(split == 0);

    // Each edge has 4 * 124 upward flows over 4 uplinks, each aggregation switch ~448 over 4.
    // Chi-square over all switches of a layer (96 degrees of freedom each) stays well below
    // 96 + 5 * sqrt(2 * 96) ~ 165 for a good hash; shares stay within 25% +- 10%.
    for (int layer : {1, 2})
    {
        Spread spread = UplinkSpread(world, flows, layer);
        INFO("layer " << layer << ": chi2 " << spread.chiSquare << " on " << spread.dof
                      << " dof, shares " << spread.minShare << " .. " << spread.maxShare);
        CHECK(spread.dof == 96);
        CHECK(spread.chiSquare < 165);
        CHECK(spread.minShare > 0.15);
        CHECK(spread.maxShare < 0.35);
    }
}

TEST_CASE("Per-flow ECMP keeps a single flow on one path and per-packet spreads it", "[ecmp]")
{
    InitIncsim();
    const uint32_t kFrames = 2000;

    SECTION("per-flow")
    {
        TestWorld world(kFatTree4);
        FlowMap flows(world);
        auto tx = BindRecorder(world.Host("h0"), 1000);
        auto rx = BindRecorder(world.Host("h15"), 2000);
        for (uint32_t i = 0; i < kFrames; ++i)
        {
            tx->SendTagged(15, 2000, i, 200);
        }
        RunUntilPs(Us(1000));

        // Delivered in full and in order.
        std::vector<uint32_t> tags = rx->Tags();
        REQUIRE(tags.size() == kFrames);
        CHECK(std::is_sorted(tags.begin(), tags.end()));

        // One uplink of e0_0 carries all of it; the other carries nothing.
        const uint32_t e00 = world.Node("e0_0");
        std::vector<uint64_t> up;
        for (uint32_t port : Uplinks(world->GetTopology(), e00))
        {
            up.push_back(flows.FramesOn(e00, port));
        }
        std::sort(up.begin(), up.end());
        CHECK(up == std::vector<uint64_t>{0, kFrames});

        // One path: edge, aggregation, core, aggregation, edge; one port at each.
        std::set<uint32_t> switches;
        for (const auto& [key, ports] : flows.PortsPerFlow())
        {
            switches.insert(key.first);
            CHECK(ports.size() == 1);
        }
        CHECK(switches.size() == 5);
        for (uint32_t node : switches)
        {
            for (uint32_t port = 0; port < world->GetTopology().NumPorts(node); ++port)
            {
                uint64_t n = flows.FramesOn(node, port);
                CHECK((n == 0 || n == kFrames));
            }
        }
    }

    SECTION("per-packet")
    {
        TestWorld world(kFatTree4, {"routing.ecmp=per-packet"});
        FlowMap flows(world);
        auto tx = BindRecorder(world.Host("h0"), 1000);
        auto rx = BindRecorder(world.Host("h15"), 2000);
        for (uint32_t i = 0; i < kFrames; ++i)
        {
            tx->SendTagged(15, 2000, i, 200);
        }
        RunUntilPs(Us(1000));
        CHECK(rx->Received().size() == kFrames);

        // Both uplinks of e0_0 share the flow about evenly (binomial sd ~1.1%).
        const uint32_t e00 = world.Node("e0_0");
        for (uint32_t port : Uplinks(world->GetTopology(), e00))
        {
            double share = static_cast<double>(flows.FramesOn(e00, port)) / kFrames;
            INFO("e0_0 port " << port << " share " << share);
            CHECK(share > 0.4);
            CHECK(share < 0.6);
        }
        // And every core switch carries part of it.
        for (const char* core : {"c0", "c1", "c2", "c3"})
        {
            uint64_t n = 0;
            const uint32_t node = world.Node(core);
            for (uint32_t port = 0; port < world->GetTopology().NumPorts(node); ++port)
            {
                n += flows.FramesOn(node, port);
            }
            INFO(core);
            CHECK(n > kFrames / 8);
        }
    }
}
