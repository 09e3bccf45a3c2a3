#include "sim/core/diagnostics.h"
#include "sim/topology/routing.h"
#include "sim/topology/topology-file.h"
#include "sim/topology/topology.h"
#include "topologies/register.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace incsim;
using nlohmann::json;

namespace
{

LinkParams
TestLink()
{
    LinkParams link;
    link.rateBps = 10'000'000'000;
    link.delayNs = 1'000;
    link.bufferBytes = 64 * 1024;
    return link;
}

Topology
Generate(const std::string& name, const json& params = json::object(), LinkParams link = TestLink())
{
    RegisterTopologyGenerators();
    const TopologyGenerator& generator = TopologyGenerators().Get(name);
    const json resolved = generator.params().Resolve(params, "scenario.json", "/topology/params");
    return generator.build(ParamView(&resolved, "scenario.json", "/topology/params"), link);
}

/// The message of the InputError `build` throws, or "" if it throws none.
template <typename F>
std::string
ErrorOf(F build)
{
    try
    {
        build();
    }
    catch (const InputError& error)
    {
        return error.what();
    }
    return "";
}

std::string
ErrorOf(const std::string& generator, const json& params)
{
    return ErrorOf([&] { Generate(generator, params); });
}

uint32_t
NodeId(const Topology& topology, const std::string& name)
{
    auto id = topology.FindNode(name);
    REQUIRE(id);
    return *id;
}

/// Number of ports of every node, keyed by the node's name prefix up to the first digit.
std::map<std::string, std::set<uint32_t>>
PortCountsByRole(const Topology& topology)
{
    std::map<std::string, std::set<uint32_t>> counts;
    for (uint32_t n = 0; n < topology.NumNodes(); ++n)
    {
        const std::string& name = topology.Node(n).name;
        counts[name.substr(0, name.find_first_of("0123456789"))].insert(topology.NumPorts(n));
    }
    return counts;
}

/// Lengths (in links) of all ECMP paths from node `from` to host index `dst`.
std::set<int>
PathLengths(const Topology& topology, const EcmpRoutes& routes, uint32_t from, uint32_t dst)
{
    if (from == topology.Hosts()[dst])
    {
        return {0};
    }
    std::set<int> lengths;
    for (uint32_t port : routes.NextHops(from, dst))
    {
        for (int length : PathLengths(topology, routes, topology.Peer(from, port).peerNode, dst))
        {
            lengths.insert(length + 1);
        }
    }
    return lengths;
}

/// Histogram of host-to-host path lengths over all ordered pairs of distinct hosts; fails the
/// test if two ECMP paths of one pair differ in length.
std::map<int, size_t>
PathLengthHistogram(const Topology& topology)
{
    const EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    std::map<int, size_t> histogram;
    const auto& hosts = topology.Hosts();
    for (uint32_t s = 0; s < hosts.size(); ++s)
    {
        for (uint32_t d = 0; d < hosts.size(); ++d)
        {
            if (s == d)
            {
                continue;
            }
            std::set<int> lengths = PathLengths(topology, routes, hosts[s], d);
            REQUIRE(lengths.size() == 1);
            ++histogram[*lengths.begin()];
        }
    }
    return histogram;
}

/// A temporary file removed at scope exit.
class TempFile
{
  public:
    explicit TempFile(const std::string& text)
    {
        static int counter = 0;
        m_path =
            (std::filesystem::temp_directory_path() / ("incsim-topo-" + std::to_string(::getpid()) +
                                                       "-" + std::to_string(counter++) + ".json"))
                .string();
        std::ofstream(m_path) << text;
    }
    ~TempFile() { std::filesystem::remove(m_path); }
    const std::string& Path() const { return m_path; }

  private:
    std::string m_path;
};

std::string
FileError(const std::string& text)
{
    TempFile file(text);
    std::string error = ErrorOf([&] { LoadTopologyFile(file.Path(), TestLink()); });
    // Strip the temporary path, so expectations read like the documented messages.
    if (error.rfind(file.Path(), 0) == 0)
    {
        error = "topo.json" + error.substr(file.Path().size());
    }
    return error;
}

} // namespace

TEST_CASE("Topology numbers ports in link order and finds nodes and links", "[topology]")
{
    Topology topology;
    uint32_t h0 = topology.AddNode("h0", NodeKind::Host, 0);
    uint32_t s0 = topology.AddNode("s0", NodeKind::Switch, 1);
    uint32_t h1 = topology.AddNode("h1", NodeKind::Host, 0);
    uint32_t l0 = topology.AddLink(h0, s0, TestLink());
    uint32_t l1 = topology.AddLink(s0, h1, TestLink());
    uint32_t l2 = topology.AddLink(h1, s0, TestLink()); // parallel link

    CHECK(topology.NumNodes() == 3);
    CHECK(topology.NumLinks() == 3);
    CHECK(topology.Hosts() == std::vector<uint32_t>{h0, h1});
    CHECK(topology.Switches() == std::vector<uint32_t>{s0});
    CHECK(topology.HostIndex(h1) == 1);
    CHECK_THROWS_AS(topology.HostIndex(s0), std::out_of_range);
    CHECK(topology.NumPorts(s0) == 3);
    CHECK(topology.Link(l1).portA == 1);
    CHECK(topology.Link(l1).portB == 0);
    CHECK(topology.Link(l2).portA == 1);
    CHECK(topology.Link(l2).portB == 2);
    CHECK(topology.Peer(s0, 2).peerNode == h1);
    CHECK(topology.Peer(s0, 2).peerPort == 1);
    CHECK(topology.Peer(s0, 2).link == l2);
    CHECK(topology.FindNode("s0") == s0);
    CHECK_FALSE(topology.FindNode("nope"));
    CHECK(topology.FindLink(s0, h0) == l0);
    CHECK(topology.FindLink(h1, s0) == l1);
    CHECK_FALSE(topology.FindLink(h0, h1));
    CHECK(boost::num_vertices(topology.GetGraph()) == 3);
    CHECK(boost::num_edges(topology.GetGraph()) == 3);
    CHECK_THROWS_AS(topology.AddNode("h0", NodeKind::Host, 0), std::invalid_argument);
    CHECK_THROWS_AS(topology.AddLink(s0, s0, TestLink()), std::invalid_argument);
}

TEST_CASE("Fat-tree k=4 and k=8 have the Al-Fares shape", "[topology]")
{
    for (int k : {4, 8})
    {
        INFO("k = " << k);
        Topology topology = Generate("fat-tree", {{"k", k}});
        const size_t hosts = k * k * k / 4;
        CHECK(topology.Hosts().size() == hosts);
        CHECK(topology.Switches().size() == size_t(5 * k * k / 4));
        CHECK(topology.NumNodes() == hosts + 5 * k * k / 4);
        CHECK(topology.NumLinks() == 3 * hosts);
        auto ports = PortCountsByRole(topology);
        CHECK(ports["h"] == std::set<uint32_t>{1});
        CHECK(ports["e"] == std::set<uint32_t>{uint32_t(k)});
        CHECK(ports["a"] == std::set<uint32_t>{uint32_t(k)});
        CHECK(ports["c"] == std::set<uint32_t>{uint32_t(k)});

        // Layers and pods.
        CHECK(topology.Node(NodeId(topology, "e1_0")).layer == 1);
        CHECK(topology.Node(NodeId(topology, "e1_0")).group == 1);
        CHECK(topology.Node(NodeId(topology, "a0_1")).layer == 2);
        CHECK(topology.Node(NodeId(topology, "c0")).layer == 3);
        CHECK(topology.Node(NodeId(topology, "h" + std::to_string(hosts - 1))).group == k - 1);

        // Per ordered pair: same edge 2 links, same pod 4, other pod 6.
        const size_t perEdge = k / 2;
        const size_t perPod = perEdge * k / 2;
        auto histogram = PathLengthHistogram(topology);
        CHECK(histogram.size() == 3);
        CHECK(histogram[2] == hosts * (perEdge - 1));
        CHECK(histogram[4] == hosts * (perPod - perEdge));
        CHECK(histogram[6] == hosts * (hosts - perPod));
    }
}

TEST_CASE("Fat-tree hosts_per_edge oversubscribes edges", "[topology]")
{
    Topology topology = Generate("fat-tree", {{"k", 4}, {"hosts_per_edge", 3}});
    CHECK(topology.Hosts().size() == 24);
    CHECK(topology.NumPorts(NodeId(topology, "e0_0")) == 5);
    CHECK(topology.Peer(NodeId(topology, "h3"), 0).peerNode == NodeId(topology, "e0_1"));
    CHECK(ErrorOf("fat-tree", {{"k", 5}}).rfind("scenario.json: /topology/params/k: ", 0) == 0);
    CHECK(Generate("fat-tree", {{"k", 2}}).Hosts().size() == 2);
}

TEST_CASE("1Pipe testbed: 4 ToR, 4 spine, 2 core switches and 32 hosts", "[topology]")
{
    Topology topology = Generate("onepipe-testbed");
    CHECK(topology.Hosts().size() == 32);
    CHECK(topology.Switches().size() == 10);
    CHECK(topology.NumLinks() == 32 + 8 + 8);
    auto ports = PortCountsByRole(topology);
    CHECK(ports["h"] == std::set<uint32_t>{1});
    CHECK(ports["tor"] == std::set<uint32_t>{10});
    CHECK(ports["spine"] == std::set<uint32_t>{4});
    CHECK(ports["core"] == std::set<uint32_t>{4});
    CHECK(topology.FindLink(NodeId(topology, "tor2"), NodeId(topology, "spine3")));
    CHECK_FALSE(topology.FindLink(NodeId(topology, "tor2"), NodeId(topology, "spine1")));

    // Same ToR: 2 links; same pod: 4; other pod: 6 (1, 3 and 5 switches).
    auto histogram = PathLengthHistogram(topology);
    CHECK(histogram.size() == 3);
    CHECK(histogram[2] == 32 * 7);
    CHECK(histogram[4] == 32 * 8);
    CHECK(histogram[6] == 32 * 16);
    CHECK(ErrorOf("onepipe-testbed", {{"k", 4}}).find("/topology/params/k") != std::string::npos);
}

TEST_CASE("1Pipe testbed: switch links follow oversubscription, every link R by default",
          "[topology]")
{
    const auto rate = [](const Topology& topology, const char* a, const char* b) {
        return topology.Link(*topology.FindLink(NodeId(topology, a), NodeId(topology, b)))
            .params.rateBps;
    };
    // 8 hosts over 2 uplinks per ToR: 4:1 when every link runs at the host rate (10 Gbps).
    Topology standard = Generate("onepipe-testbed");
    CHECK(rate(standard, "h0", "tor0") == 10'000'000'000);
    CHECK(rate(standard, "tor0", "spine0") == 10'000'000'000);
    CHECK(rate(standard, "spine0", "core1") == 10'000'000'000);
    // Non-blocking: 8 * 10 Gbps / 2 = 40 Gbps per ToR uplink; spines pass it on 1:1.
    Topology open = Generate("onepipe-testbed", {{"oversubscription", 1.0}});
    CHECK(rate(open, "h31", "tor3") == 10'000'000'000);
    CHECK(rate(open, "tor3", "spine2") == 40'000'000'000);
    CHECK(rate(open, "spine2", "core0") == 40'000'000'000);
    CHECK(ErrorOf("onepipe-testbed", {{"oversubscription", 1e12}}) ==
          "scenario.json: /topology/params/oversubscription: makes the uplink rate round to 0bps");
}

TEST_CASE("Leaf-spine uplink rate follows oversubscription", "[topology]")
{
    Topology topology =
        Generate("leaf-spine",
                 {{"leaves", 3}, {"spines", 2}, {"hosts_per_leaf", 8}, {"oversubscription", 2.0}});
    CHECK(topology.Hosts().size() == 24);
    CHECK(topology.NumLinks() == 24 + 6);
    const LinkInfo& host =
        topology.Link(*topology.FindLink(NodeId(topology, "h0"), NodeId(topology, "leaf0")));
    const LinkInfo& up =
        topology.Link(*topology.FindLink(NodeId(topology, "leaf2"), NodeId(topology, "spine1")));
    CHECK(host.params.rateBps == 10'000'000'000);
    // 8 * 10Gbps / (2 * 2) = 20Gbps
    CHECK(up.params.rateBps == 20'000'000'000);
    CHECK(up.params.delayNs == 1'000);

    // 3 * 10Gbps / 7 = 4285714285.71... rounds to whole bps.
    Topology odd = Generate("leaf-spine", {{"leaves", 1}, {"spines", 7}, {"hosts_per_leaf", 3}});
    CHECK(odd.Link(odd.NumLinks() - 1).params.rateBps == 4'285'714'286);

    CHECK(ErrorOf("leaf-spine", {{"oversubscription", 1e12}}) ==
          "scenario.json: /topology/params/oversubscription: makes the uplink rate round to 0bps");
    CHECK(ErrorOf("leaf-spine", {{"oversubscription", 0}})
              .rfind("scenario.json: /topology/params/oversubscription: ", 0) == 0);
}

TEST_CASE("Dumbbell and star", "[topology]")
{
    Topology dumbbell = Generate(
        "dumbbell",
        {{"left", 2}, {"right", 3}, {"bottleneck_rate", "1Gbps"}, {"bottleneck_delay", "10us"}});
    CHECK(dumbbell.Hosts().size() == 5);
    CHECK(dumbbell.Node(dumbbell.Hosts()[2]).name == "right-h0");
    const LinkInfo& bottleneck =
        dumbbell.Link(*dumbbell.FindLink(NodeId(dumbbell, "left"), NodeId(dumbbell, "right")));
    CHECK(bottleneck.params.rateBps == 1'000'000'000);
    CHECK(bottleneck.params.delayNs == 10'000);
    CHECK(bottleneck.portA == 2);
    CHECK(bottleneck.portB == 3);

    Topology plain = Generate("dumbbell");
    CHECK(plain.Link(plain.NumLinks() - 1).params.rateBps == TestLink().rateBps);

    Topology star = Generate("star", {{"hosts", 5}});
    CHECK(star.NumNodes() == 6);
    CHECK(star.NumPorts(NodeId(star, "s0")) == 5);
    CHECK(star.Peer(NodeId(star, "s0"), 3).peerNode == NodeId(star, "h3"));
}

TEST_CASE("WAN halves RTTs and validates the delay matrix", "[topology]")
{
    const json rtt = {{"0ns", "10ms", "30ms"}, {"10ms", "0ns", "12ms"}, {"30ms", "12ms", "0ns"}};
    Topology wan = Generate("wan",
                            {{"sites", {"A", "B", "C"}},
                             {"rtt", rtt},
                             {"hosts_per_site", 2},
                             {"site_link_delay", "50us"}});
    CHECK(wan.Hosts().size() == 6);
    CHECK(wan.Switches().size() == 3);
    CHECK(wan.NumLinks() == 6 + 3);
    CHECK(wan.Node(wan.Hosts()[3]).name == "B-h1");
    CHECK(wan.Node(wan.Hosts()[3]).group == 1);
    auto delay = [&](const char* a, const char* b) {
        return wan.Link(*wan.FindLink(NodeId(wan, a), NodeId(wan, b))).params.delayNs;
    };
    CHECK(delay("A", "B") == 5'000'000);
    CHECK(delay("A", "C") == 15'000'000);
    CHECK(delay("C", "B") == 6'000'000);
    CHECK(delay("A-h1", "A") == 50'000);

    // One-way delays, per-site counts and explicit links.
    Topology line = Generate("wan",
                             {{"sites", {"A", "B", "C"}},
                              {"one_way_delay", rtt},
                              {"site_hosts", {1, 0, 3}},
                              {"links", json::parse(R"([["A", "B"], ["C", "B"]])")}});
    CHECK(line.Hosts().size() == 4);
    CHECK(line.NumLinks() == 4 + 2);
    CHECK_FALSE(line.FindLink(NodeId(line, "A"), NodeId(line, "C")));
    CHECK(line.Link(*line.FindLink(NodeId(line, "B"), NodeId(line, "C"))).params.delayNs ==
          12'000'000);
    CHECK(line.Link(*line.FindLink(NodeId(line, "C-h2"), NodeId(line, "C"))).params.delayNs ==
          TestLink().delayNs);

    const std::string at = "scenario.json: /topology/params/";
    json asymmetric = rtt;
    asymmetric[2][1] = "13ms";
    CHECK(ErrorOf("wan", {{"sites", {"A", "B", "C"}}, {"rtt", asymmetric}}) ==
          at + "rtt/1/2: not symmetric: 12ms here but 13ms at /topology/params/rtt/2/1");
    json diagonal = rtt;
    diagonal[1][1] = "1ns";
    CHECK(ErrorOf("wan", {{"sites", {"A", "B", "C"}}, {"rtt", diagonal}}) ==
          at + "rtt/1/1: the diagonal (a site to itself) must be \"0ns\"");
    json shortRow = rtt;
    shortRow[2].erase(2);
    CHECK(ErrorOf("wan", {{"sites", {"A", "B", "C"}}, {"rtt", shortRow}}) ==
          at + "rtt/2: row has 2 entries but there are 3 sites");
    CHECK(ErrorOf("wan", {{"sites", {"A", "B"}}, {"rtt", rtt}}) ==
          at + "rtt: has 3 rows but there are 2 sites");
    const json odd = json::parse(R"([["0ns", "3ns"], ["3ns", "0ns"]])");
    CHECK(ErrorOf("wan", {{"sites", {"A", "B"}}, {"rtt", odd}}) ==
          at + "rtt/0/1: an RTT of 3ns does not halve into whole ns");
    CHECK(ErrorOf("wan", {{"sites", {"A", "B", "C"}}, {"rtt", rtt}, {"one_way_delay", rtt}}) ==
          at + "rtt: give either \"one_way_delay\" or \"rtt\", not both");
    CHECK(ErrorOf("wan", {{"sites", {"A", "B", "C"}}}) ==
          at + "rtt: missing: one of \"rtt\" or \"one_way_delay\" is required");
    CHECK(ErrorOf("wan", {{"rtt", rtt}}) ==
          at + "sites: missing required key \"sites\" (or set \"preset\")");
    CHECK(ErrorOf("wan", {{"sites", {"A", "B", "A"}}, {"rtt", rtt}}) ==
          at + "sites/2: duplicate site \"A\"");
    const json badLink = json::parse(R"([["A", "D"]])");
    CHECK(ErrorOf("wan", {{"sites", {"A", "B", "C"}}, {"rtt", rtt}, {"links", badLink}}) ==
          at + "links/0/1: unknown site \"D\"");
    CHECK(ErrorOf("wan", {{"sites", {"A", "B", "C"}}, {"rtt", rtt}, {"site_hosts", {1, 2}}}) ==
          at + "site_hosts: has 2 entries but there are 3 sites");
    CHECK(ErrorOf("wan", {{"sites", {"A", "B", "C"}}, {"rtt", {{"0ns", "1ms", "x"}}}})
              .rfind(at + "rtt/0/2: ", 0) == 0);
}

TEST_CASE("WAN aws-gotthard preset uses Table 1 midpoints", "[topology]")
{
    Topology aws = Generate("wan", {{"preset", "aws-gotthard"}, {"hosts_per_site", 1}});
    CHECK(aws.Switches().size() == 5);
    CHECK(aws.NumLinks() == 5 + 10);
    auto oneWay = [&](const char* a, const char* b) {
        return aws.Link(*aws.FindLink(NodeId(aws, a), NodeId(aws, b))).params.delayNs;
    };
    CHECK(oneWay("CA", "VA") == 37'250'000);  // RTT 70-79 ms
    CHECK(oneWay("CA", "OR") == 10'500'000);  // RTT 20-22 ms
    CHECK(oneWay("JP", "EU") == 106'750'000); // RTT 209-218 ms
    CHECK(oneWay("OR", "JP") == 47'250'000);  // RTT 89-100 ms
    CHECK(ErrorOf("wan", {{"preset", "aws-gotthard"}, {"sites", {"A", "B"}}})
              .rfind("scenario.json: /topology/params/sites: cannot be combined with preset", 0) ==
          0);
}

TEST_CASE("Gotthard topologies split RTT/2 by delta", "[topology]")
{
    Topology single = Generate("gotthard", {{"rtt", "100ms"}, {"delta", 0.2}, {"clients", 3}});
    CHECK(single.Hosts().size() == 4);
    CHECK(single.Node(single.Hosts()[3]).name == "S-h0");
    auto delay = [](const Topology& t, const char* a, const char* b) {
        return t.Link(*t.FindLink(NodeId(t, a), NodeId(t, b))).params.delayNs;
    };
    CHECK(delay(single, "C", "G") == 10'000'000);
    CHECK(delay(single, "G", "S") == 40'000'000);
    CHECK(delay(single, "C-h2", "C") == 0);
    CHECK_FALSE(single.FindLink(NodeId(single, "C"), NodeId(single, "S")));

    Topology edges = Generate("gotthard", {{"layout", "two-edge"}, {"delta", 1.0}, {"clients", 2}});
    CHECK(edges.Hosts().size() == 5);
    CHECK(edges.Node(NodeId(edges, "C2-h1")).group != edges.Node(NodeId(edges, "C1-h1")).group);
    CHECK(delay(edges, "C1", "G1") == 50'000'000);
    CHECK(delay(edges, "G2", "S") == 0);
    CHECK(delay(edges, "S-h0", "S") == 0);
    CHECK_FALSE(edges.FindLink(NodeId(edges, "G1"), NodeId(edges, "G2")));

    CHECK(ErrorOf("gotthard", {{"delta", 1.5}}).rfind("scenario.json: /topology/params/delta: ", 0) ==
          0);
}

TEST_CASE("SwitchTx testbed single: every server on rack0, 2 links apart", "[topology]")
{
    for (int servers : {2, 8, 255})
    {
        INFO("servers = " << servers);
        Topology topology =
            Generate("switchtx-testbed", {{"layout", "single"}, {"servers", servers}});
        CHECK(topology.Hosts().size() == size_t(servers));
        CHECK(topology.Switches().size() == 1);
        CHECK(topology.NumLinks() == size_t(servers));
        CHECK_FALSE(topology.FindNode("core"));
        const uint32_t rack = NodeId(topology, "rack0");
        CHECK(topology.NumPorts(rack) == uint32_t(servers));
        for (int i = 0; i < servers; ++i)
        {
            const uint32_t server = NodeId(topology, "srv" + std::to_string(i));
            CHECK(topology.Peer(rack, i).peerNode == server);
            CHECK(topology.Node(server).group == 0);
        }
        auto histogram = PathLengthHistogram(topology);
        CHECK(histogram.size() == 1);
        CHECK(histogram[2] == size_t(servers * (servers - 1)));
    }
}

TEST_CASE("SwitchTx testbed multi: Fig. 9's core over three racks, servers round robin",
          "[topology]")
{
    Topology topology = Generate("switchtx-testbed");
    CHECK(topology.Hosts().size() == 8);
    CHECK(topology.Switches().size() == 4);
    CHECK(topology.NumLinks() == 8 + 3);
    const uint32_t core = NodeId(topology, "core");
    CHECK(topology.Node(core).layer == 2);
    CHECK(topology.NumPorts(core) == 3);
    // Server i hangs off rack (i mod 3): racks of 3, 3 and 2, each with its uplink last.
    const std::vector<std::vector<int>> members{{0, 3, 6}, {1, 4, 7}, {2, 5}};
    for (uint32_t r = 0; r < 3; ++r)
    {
        const uint32_t rack = NodeId(topology, "rack" + std::to_string(r));
        CHECK(topology.Node(rack).layer == 1);
        CHECK(topology.Node(rack).group == int(r));
        REQUIRE(topology.NumPorts(rack) == members[r].size() + 1);
        for (uint32_t p = 0; p < members[r].size(); ++p)
        {
            const uint32_t server = NodeId(topology, "srv" + std::to_string(members[r][p]));
            CHECK(topology.Peer(rack, p).peerNode == server);
            CHECK(topology.Node(server).group == int(r));
        }
        CHECK(topology.Peer(rack, members[r].size()).peerNode == core);
        CHECK(topology.Peer(core, r).peerNode == rack);
    }
    // The loop-back cables take the /links rate and delay, as the server cables do.
    const LinkInfo& loopBack = topology.Link(*topology.FindLink(NodeId(topology, "rack2"), core));
    CHECK(loopBack.params.rateBps == TestLink().rateBps);
    CHECK(loopBack.params.delayNs == TestLink().delayNs);

    // Ordered pairs: in one rack 3*2 + 3*2 + 2*1 at 2 links, the other 42 across at 4.
    auto histogram = PathLengthHistogram(topology);
    CHECK(histogram.size() == 2);
    CHECK(histogram[2] == 14);
    CHECK(histogram[4] == 42);

    // Uneven counts: the first racks take the extra server; 3 puts one in each.
    Topology seven = Generate("switchtx-testbed", {{"servers", 7}});
    CHECK(seven.NumPorts(NodeId(seven, "rack0")) == 4);
    CHECK(seven.NumPorts(NodeId(seven, "rack2")) == 3);
    CHECK(PathLengthHistogram(Generate("switchtx-testbed", {{"servers", 3}})) ==
          std::map<int, size_t>{{4, 6}});
}

TEST_CASE("SwitchTx testbed refuses server counts it cannot lay out", "[topology]")
{
    CHECK(ErrorOf("switchtx-testbed", {{"servers", 2}}) ==
          "scenario.json: /topology/params/servers: layout \"multi\" spreads the servers over 3 "
          "racks and needs at least one in each: give at least 3");
    CHECK(ErrorOf("switchtx-testbed", {{"layout", "single"}, {"servers", 256}})
              .rfind("scenario.json: /topology/params/servers: ", 0) == 0);
    CHECK(ErrorOf("switchtx-testbed", {{"servers", 1}})
              .rfind("scenario.json: /topology/params/servers: ", 0) == 0);
    CHECK(ErrorOf("switchtx-testbed", {{"layout", "racks"}})
              .rfind("scenario.json: /topology/params/layout: ", 0) == 0);
}

TEST_CASE("Topology files load with link defaults", "[topology]")
{
    TempFile file(R"({
        "nodes": [{"name": "h0", "kind": "host"},
                  {"name": "h1", "kind": "host", "group": 3},
                  {"name": "s0", "kind": "switch", "layer": 2}],
        "links": [{"a": "h0", "b": "s0"},
                  {"a": "s0", "b": "h1", "rate": "40Gbps", "delay": "2us",
                   "buffer": "1MiB", "loss": 0.01}]
    })");
    Topology topology = LoadTopologyFile(file.Path(), TestLink());
    CHECK(topology.NumNodes() == 3);
    CHECK(topology.Hosts().size() == 2);
    CHECK(topology.Node(0).layer == 0);
    CHECK(topology.Node(1).group == 3);
    CHECK(topology.Node(2).layer == 2);
    CHECK(topology.Node(2).kind == NodeKind::Switch);
    CHECK(topology.Link(0).params.rateBps == TestLink().rateBps);
    CHECK(topology.Link(0).params.bufferBytes == TestLink().bufferBytes);
    CHECK(topology.Link(1).params.rateBps == 40'000'000'000);
    CHECK(topology.Link(1).params.delayNs == 2'000);
    CHECK(topology.Link(1).params.bufferBytes == 1024 * 1024);
    CHECK(topology.Link(1).params.lossRate == 0.01);
}

TEST_CASE("Topology file errors name the file and the JSON path", "[topology]")
{
    const std::string nodes = R"("nodes": [{"name": "h0", "kind": "host"},
                                           {"name": "s0", "kind": "switch"}])";
    CHECK(FileError("{" + nodes + R"(, "links": [{"a": "h0", "b": "s0"}, {"a": "h0", "b": "s0"},
        {"a": "h0", "b": "s0"}, {"a": "s0", "b": "s9"}]})") ==
          "topo.json: /links/3/b: unknown node \"s9\"");
    CHECK(FileError("{" + nodes + R"(, "links": [{"a": "s0", "b": "s0"}]})") ==
          "topo.json: /links/0/b: link joins \"s0\" to itself");
    CHECK(FileError("{" + nodes + R"(, "links": []})") ==
          "topo.json: /nodes/0: host \"h0\" has no link");
    CHECK(FileError(
              R"({"nodes": [{"name": "h0", "kind": "host"}, {"name": "h0", "kind": "switch"}]})") ==
          "topo.json: /nodes/1/name: duplicate node name \"h0\" (first at /nodes/0)");
    CHECK(FileError("{" + nodes + R"(, "links": [{"a": "h0", "b": "s0", "speed": "1Gbps"}]})")
              .rfind("topo.json: /links/0/speed: ", 0) == 0);
    CHECK(FileError("{" + nodes + R"(, "links": [{"a": "h0", "b": "s0", "rate": 10}]})")
              .rfind("topo.json: /links/0/rate: ", 0) == 0);
    // As in a scenario's /links: a buffer of 0 bytes would drop every packet.
    CHECK(FileError("{" + nodes + R"(, "links": [{"a": "h0", "b": "s0", "buffer": "0B"}]})") ==
          "topo.json: /links/0/buffer: expected a size like \"64KiB\" above 0B, got \"0B\"");
    CHECK(FileError(R"({"nodes": [{"name": "h0", "kind": "router"}]})")
              .rfind("topo.json: /nodes/0/kind: ", 0) == 0);
    CHECK(FileError(R"({"links": []})").rfind("topo.json: /nodes: ", 0) == 0);
    CHECK(FileError(R"({"nodes": [)").rfind("topo.json:", 0) == 0);
    CHECK_THROWS_AS(LoadTopologyFile("/nonexistent/topo.json", TestLink()), InputError);
}

TEST_CASE("Graphviz output draws switches as boxes and labels links", "[topology]")
{
    Topology topology;
    uint32_t h0 = topology.AddNode("h0", NodeKind::Host, 0);
    uint32_t s0 = topology.AddNode("s0", NodeKind::Switch, 1);
    uint32_t s1 = topology.AddNode("odd \"name\"", NodeKind::Switch, 2);
    topology.AddLink(h0, s0, TestLink());
    LinkParams fast = TestLink();
    fast.rateBps = 100'000'000'000;
    fast.delayNs = 500;
    topology.AddLink(s0, s1, fast);

    std::ostringstream out;
    topology.WriteGraphviz(out);
    const std::string dot = out.str();
    INFO(dot);
    CHECK(dot.rfind("graph G {", 0) == 0);
    CHECK(dot.find("h0[label=\"h0\", shape=ellipse]") != std::string::npos);
    CHECK(dot.find("s0[label=\"s0\", shape=box]") != std::string::npos);
    CHECK(dot.find("h0--s0 [label=\"10Gbps 1us\", taillabel=\"0\", headlabel=\"0\"]") !=
          std::string::npos);
    CHECK(dot.find("s0--\"odd \\\"name\\\"\" [label=\"100Gbps 500ns\", taillabel=\"1\", "
                   "headlabel=\"0\"]") != std::string::npos);
    CHECK(dot.find("{rank=same; \"h0\";}") != std::string::npos);
}

TEST_CASE("Generators refuse sizes beyond 131072 nodes, counted without wrapping",
          "[topology]")
{
    const std::string prefix = "scenario.json: /topology/params: this topology would have ";
    // k=4000: 16e9 hosts. k = 2^32 + 4 read as uint32 was k=4, a silently different topology.
    CHECK(ErrorOf("fat-tree", {{"k", 4000}}) ==
          prefix + "16000000000 hosts and 20000000 switches; generators build at most 131072 "
                   "nodes");
    CHECK(ErrorOf("fat-tree", {{"k", (int64_t{1} << 32) + 4}}).rfind(prefix, 0) == 0);
    CHECK(ErrorOf("fat-tree", {{"k", 4}, {"hosts_per_edge", int64_t{1} << 40}}).rfind(prefix, 0) ==
          0);
    CHECK(ErrorOf("star", {{"hosts", (int64_t{1} << 32) + 1}}).rfind(prefix, 0) == 0);
    CHECK(ErrorOf("dumbbell", {{"left", 1}, {"right", int64_t{1} << 33}}).rfind(prefix, 0) == 0);
    CHECK(ErrorOf("leaf-spine", {{"leaves", 70000}, {"hosts_per_leaf", 16}}).rfind(prefix, 0) ==
          0);
    CHECK(ErrorOf("wan", {{"sites", json::array({"a", "b"})},
                          {"one_way_delay", json::array({json::array({"0us", "1us"}),
                                                         json::array({"1us", "0us"})})},
                          {"hosts_per_site", int64_t{1} << 32}})
              .rfind(prefix, 0) == 0);
    // Up to the limit is fine: k=16 builds as before.
    CHECK(Generate("fat-tree", {{"k", 16}}).Hosts().size() == 1024);
}
