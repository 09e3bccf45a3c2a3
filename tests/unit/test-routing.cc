#include "sim/core/diagnostics.h"
#include "sim/topology/routing.h"
#include "sim/topology/topology.h"
#include "topologies/register.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace incsim;
using nlohmann::json;

namespace
{

LinkParams
Link(int64_t delayNs = 1'000)
{
    LinkParams link;
    link.rateBps = 10'000'000'000;
    link.delayNs = delayNs;
    return link;
}

Topology
Build(const std::string& name, const json& params = json::object())
{
    RegisterTopologyGenerators();
    const TopologyGenerator& generator = TopologyGenerators().Get(name);
    const json resolved = generator.params().Resolve(params, "test.json", "/topology/params");
    return generator.build(ParamView(&resolved, "test.json", "/topology/params"), Link());
}

uint32_t
Id(const Topology& topology, const std::string& name)
{
    auto id = topology.FindNode(name);
    REQUIRE(id);
    return *id;
}

uint32_t
HostOf(const Topology& topology, const std::string& name)
{
    return topology.HostIndex(Id(topology, name));
}

std::vector<uint32_t>
Hops(const EcmpRoutes& routes, uint32_t node, uint32_t dst)
{
    auto list = routes.NextHops(node, dst);
    return {list.begin(), list.end()};
}

/// Names of the next-hop peers of `node` towards host `dst`.
std::vector<std::string>
PeerNames(const Topology& topology,
          const EcmpRoutes& routes,
          const std::string& node,
          const std::string& dst)
{
    std::vector<std::string> names;
    for (uint32_t port : routes.NextHops(Id(topology, node), HostOf(topology, dst)))
    {
        names.push_back(topology.Node(topology.Peer(Id(topology, node), port).peerNode).name);
    }
    return names;
}

/// A ring of switches s0..s{n-1}, each with one host h{i}.
Topology
Ring(int n)
{
    Topology topology;
    for (int i = 0; i < n; ++i)
    {
        topology.AddNode("h" + std::to_string(i), NodeKind::Host, 0);
    }
    for (int i = 0; i < n; ++i)
    {
        topology.AddNode("s" + std::to_string(i), NodeKind::Switch, 1);
    }
    for (int i = 0; i < n; ++i)
    {
        topology.AddLink(i, n + i, Link());
    }
    for (int i = 0; i < n; ++i)
    {
        topology.AddLink(n + i, n + (i + 1) % n, Link());
    }
    return topology;
}

/// Straightforward reference for hop routing: BFS from every destination host, hosts other
/// than the destination are never expanded, then the next-hop rule of routing.h.
std::vector<std::vector<std::vector<uint32_t>>>
ReferenceHopRoutes(const Topology& topology,
                   const std::vector<bool>& linkUp,
                   const std::vector<bool>& nodeUp)
{
    const uint32_t n = topology.NumNodes();
    const int inf = std::numeric_limits<int>::max();
    auto usable = [&](uint32_t node, uint32_t port) {
        const auto& peer = topology.Peer(node, port);
        return linkUp[peer.link] && nodeUp[node] && nodeUp[peer.peerNode];
    };
    std::vector<std::vector<std::vector<uint32_t>>> result(
        n,
        std::vector<std::vector<uint32_t>>(topology.Hosts().size()));
    for (uint32_t h = 0; h < topology.Hosts().size(); ++h)
    {
        const uint32_t dst = topology.Hosts()[h];
        if (!nodeUp[dst])
        {
            continue;
        }
        std::vector<int> dist(n, inf);
        std::deque<uint32_t> queue{dst};
        dist[dst] = 0;
        while (!queue.empty())
        {
            uint32_t x = queue.front();
            queue.pop_front();
            if (x != dst && topology.Node(x).kind == NodeKind::Host)
            {
                continue;
            }
            for (uint32_t p = 0; p < topology.NumPorts(x); ++p)
            {
                uint32_t y = topology.Peer(x, p).peerNode;
                if (usable(x, p) && dist[y] == inf)
                {
                    dist[y] = dist[x] + 1;
                    queue.push_back(y);
                }
            }
        }
        for (uint32_t x = 0; x < n; ++x)
        {
            if (x == dst || dist[x] == inf)
            {
                continue;
            }
            for (uint32_t p = 0; p < topology.NumPorts(x); ++p)
            {
                uint32_t y = topology.Peer(x, p).peerNode;
                bool transit = y == dst || topology.Node(y).kind == NodeKind::Switch;
                if (usable(x, p) && transit && dist[y] != inf && dist[y] + 1 == dist[x])
                {
                    result[x][h].push_back(p);
                }
            }
        }
    }
    return result;
}

} // namespace

TEST_CASE("Fat-tree k=4 ECMP next-hop sets", "[routing]")
{
    Topology topology = Build("fat-tree", {{"k", 4}});
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    CHECK(routes.NumNodes() == topology.NumNodes());
    CHECK(routes.NumHosts() == 16);

    // h15 is in pod 3, under e3_1.
    CHECK(PeerNames(topology, routes, "e0_0", "h15") == std::vector<std::string>{"a0_0", "a0_1"});
    CHECK(PeerNames(topology, routes, "a0_1", "h15") == std::vector<std::string>{"c2", "c3"});
    CHECK(PeerNames(topology, routes, "c1", "h15") == std::vector<std::string>{"a3_0"});
    CHECK(PeerNames(topology, routes, "a3_0", "h15") == std::vector<std::string>{"e3_1"});
    CHECK(PeerNames(topology, routes, "e3_1", "h15") == std::vector<std::string>{"h15"});
    // Inside a pod: up to both aggregation switches, then down.
    CHECK(PeerNames(topology, routes, "e0_0", "h2").size() == 2);
    CHECK(PeerNames(topology, routes, "a0_0", "h2") == std::vector<std::string>{"e0_1"});
    CHECK(PeerNames(topology, routes, "h0", "h15") == std::vector<std::string>{"e0_0"});
    // A node is not its own next hop.
    CHECK(routes.NextHops(Id(topology, "h3"), 3).size == 0);

    // Ports come sorted; the edge switch's up ports follow its host ports.
    CHECK(Hops(routes, Id(topology, "e0_0"), 15) == std::vector<uint32_t>{2, 3});
}

TEST_CASE("Fat-tree k=8 ECMP widths", "[routing]")
{
    Topology topology = Build("fat-tree", {{"k", 8}});
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    CHECK(PeerNames(topology, routes, "e0_0", "h127").size() == 4);
    CHECK(PeerNames(topology, routes, "a0_2", "h127").size() == 4);
    CHECK(PeerNames(topology, routes, "c5", "h127").size() == 1);
    CHECK(PeerNames(topology, routes, "e0_0", "h4").size() == 4);
}

TEST_CASE("Hop routes match a reference BFS, with failures", "[routing]")
{
    std::mt19937 random(7);
    std::vector<Topology> topologies;
    topologies.push_back(Build("fat-tree", {{"k", 4}}));
    topologies.push_back(Build("onepipe-testbed"));
    topologies.push_back(
        Build("leaf-spine", {{"leaves", 3}, {"spines", 3}, {"hosts_per_leaf", 2}}));
    topologies.push_back(Ring(5));
    // Random multigraphs with multi-homed hosts and host-to-host links.
    for (int g = 0; g < 20; ++g)
    {
        Topology topology;
        const int hosts = 2 + static_cast<int>(random() % 8);
        const int switches = 1 + static_cast<int>(random() % 8);
        for (int i = 0; i < hosts; ++i)
        {
            topology.AddNode("h" + std::to_string(i), NodeKind::Host, 0);
        }
        for (int i = 0; i < switches; ++i)
        {
            topology.AddNode("s" + std::to_string(i), NodeKind::Switch, 1);
        }
        const int links = hosts + switches + static_cast<int>(random() % 12);
        for (int l = 0; l < links; ++l)
        {
            // Every host gets one link to a switch, then links join random nodes.
            const uint32_t a = l < hosts ? l : random() % (hosts + switches);
            const uint32_t b =
                l < hosts ? hosts + random() % switches : random() % (hosts + switches);
            if (a != b)
            {
                topology.AddLink(a, b, Link());
            }
        }
        topologies.push_back(std::move(topology));
    }

    for (size_t t = 0; t < topologies.size(); ++t)
    {
        const Topology& topology = topologies[t];
        for (int trial = 0; trial < 4; ++trial)
        {
            INFO("topology " << t << ", trial " << trial);
            std::vector<bool> linkUp(topology.NumLinks(), true);
            std::vector<bool> nodeUp(topology.NumNodes(), true);
            if (trial > 0)
            {
                for (size_t l = 0; l < linkUp.size(); ++l)
                {
                    linkUp[l] = random() % 6 != 0;
                }
                for (size_t n = 0; n < nodeUp.size(); ++n)
                {
                    nodeUp[n] = random() % 10 != 0;
                }
            }
            EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops, linkUp, nodeUp);
            auto reference = ReferenceHopRoutes(topology, linkUp, nodeUp);
            for (uint32_t n = 0; n < topology.NumNodes(); ++n)
            {
                for (uint32_t h = 0; h < topology.Hosts().size(); ++h)
                {
                    REQUIRE(Hops(routes, n, h) == reference[n][h]);
                }
            }
        }
    }
}

TEST_CASE("Routes avoid links and nodes that are down", "[routing]")
{
    Topology topology = Build("fat-tree", {{"k", 4}});
    const uint32_t downLink = *topology.FindLink(Id(topology, "e0_0"), Id(topology, "a0_0"));
    std::vector<bool> linkUp(topology.NumLinks(), true);
    linkUp[downLink] = false;
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops, linkUp);
    CHECK(PeerNames(topology, routes, "e0_0", "h15") == std::vector<std::string>{"a0_1"});
    // Down to h0 from a0_0 now goes around: a0_0 -> e0_1 -> a0_1 -> e0_0, or via the core.
    CHECK(PeerNames(topology, routes, "a0_0", "h0") == std::vector<std::string>{"e0_1"});
    for (uint32_t n = 0; n < topology.NumNodes(); ++n)
    {
        for (uint32_t h = 0; h < 16; ++h)
        {
            for (uint32_t port : routes.NextHops(n, h))
            {
                REQUIRE(topology.Peer(n, port).link != downLink);
            }
        }
    }

    std::vector<bool> nodeUp(topology.NumNodes(), true);
    nodeUp[Id(topology, "c2")] = false;
    EcmpRoutes withoutCore = ComputeEcmpRoutes(topology, RouteMetric::Hops, {}, nodeUp);
    CHECK(PeerNames(topology, withoutCore, "a0_1", "h15") == std::vector<std::string>{"c3"});
    CHECK(withoutCore.NextHops(Id(topology, "c2"), 15).size == 0);

    CHECK_THROWS_AS(ComputeEcmpRoutes(topology, RouteMetric::Hops, std::vector<bool>(3, true)),
                    std::invalid_argument);
}

TEST_CASE("Unreachable destinations have no next hops", "[routing]")
{
    Topology topology = Build("dumbbell", {{"left", 2}, {"right", 2}});
    const uint32_t bottleneck = *topology.FindLink(Id(topology, "left"), Id(topology, "right"));
    std::vector<bool> linkUp(topology.NumLinks(), true);
    linkUp[bottleneck] = false;
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops, linkUp);
    CHECK(routes.NextHops(Id(topology, "left-h0"), HostOf(topology, "right-h1")).size == 0);
    CHECK(routes.NextHops(Id(topology, "left"), HostOf(topology, "right-h0")).size == 0);
    CHECK(PeerNames(topology, routes, "left-h0", "left-h1") == std::vector<std::string>{"left"});

    // A destination that is down is unreachable from everywhere.
    std::vector<bool> nodeUp(topology.NumNodes(), true);
    nodeUp[Id(topology, "right-h0")] = false;
    EcmpRoutes hostDown = ComputeEcmpRoutes(topology, RouteMetric::Hops, {}, nodeUp);
    CHECK(hostDown.NextHops(Id(topology, "right"), HostOf(topology, "right-h0")).size == 0);
}

TEST_CASE("Hosts are never transit nodes", "[routing]")
{
    // s0 - h0 - s1: the multi-homed host h0 must not join the two halves.
    //  h1 - s0 - h0 - s1 - h2,   h0 - h3 (host-to-host link)
    Topology topology;
    for (const char* host : {"h0", "h1", "h2", "h3"})
    {
        topology.AddNode(host, NodeKind::Host, 0);
    }
    uint32_t s0 = topology.AddNode("s0", NodeKind::Switch, 1);
    uint32_t s1 = topology.AddNode("s1", NodeKind::Switch, 1);
    topology.AddLink(0, s0, Link());
    topology.AddLink(0, s1, Link());
    topology.AddLink(1, s0, Link());
    topology.AddLink(2, s1, Link());
    topology.AddLink(0, 3, Link());
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    CHECK(routes.NextHops(1, 2).size == 0);
    CHECK(routes.NextHops(s0, 2).size == 0);
    CHECK(routes.NextHops(1, 3).size == 0);
    CHECK(PeerNames(topology, routes, "h1", "h0") == std::vector<std::string>{"s0"});
    CHECK(PeerNames(topology, routes, "h0", "h2") == std::vector<std::string>{"s1"});
    CHECK(PeerNames(topology, routes, "h3", "h0") == std::vector<std::string>{"h0"});
    CHECK(PeerNames(topology, routes, "h0", "h3") == std::vector<std::string>{"h3"});
}

TEST_CASE("Delay routing takes the fastest paths, with exact ties as ECMP", "[routing]")
{
    // Triangle of sites A, B, C, one host each.
    auto triangle = [](int64_t ac) {
        Topology topology;
        for (const char* host : {"A-h0", "B-h0", "C-h0"})
        {
            topology.AddNode(host, NodeKind::Host, 0);
        }
        uint32_t a = topology.AddNode("A", NodeKind::Switch, 1);
        uint32_t b = topology.AddNode("B", NodeKind::Switch, 1);
        uint32_t c = topology.AddNode("C", NodeKind::Switch, 1);
        for (uint32_t i = 0; i < 3; ++i)
        {
            topology.AddLink(i, a + i, Link(0));
        }
        topology.AddLink(a, b, Link(10'000'000));
        topology.AddLink(b, c, Link(10'000'000));
        topology.AddLink(a, c, Link(ac));
        return topology;
    };
    Topology slow = triangle(30'000'000);
    EcmpRoutes byDelay = ComputeEcmpRoutes(slow, RouteMetric::Delay);
    CHECK(PeerNames(slow, byDelay, "A", "C-h0") == std::vector<std::string>{"B"});
    CHECK(PeerNames(slow, byDelay, "C", "A-h0") == std::vector<std::string>{"B"});
    EcmpRoutes byHops = ComputeEcmpRoutes(slow, RouteMetric::Hops);
    CHECK(PeerNames(slow, byHops, "A", "C-h0") == std::vector<std::string>{"C"});

    Topology tie = triangle(20'000'000);
    EcmpRoutes tied = ComputeEcmpRoutes(tie, RouteMetric::Delay);
    // Equal delay, so the tie goes to fewer hops.
    CHECK(PeerNames(tie, tied, "A", "C-h0") == std::vector<std::string>{"C"});

    // Equal delay and equal hops: both paths are used.
    Topology square;
    for (const char* host : {"h0", "h1"})
    {
        square.AddNode(host, NodeKind::Host, 0);
    }
    for (const char* sw : {"s0", "s1", "s2", "s3"})
    {
        square.AddNode(sw, NodeKind::Switch, 1);
    }
    square.AddLink(0, 2, Link(0));
    square.AddLink(1, 4, Link(0));
    square.AddLink(2, 3, Link(5));
    square.AddLink(3, 4, Link(7));
    square.AddLink(2, 5, Link(7));
    square.AddLink(5, 4, Link(5));
    EcmpRoutes squareRoutes = ComputeEcmpRoutes(square, RouteMetric::Delay);
    CHECK(PeerNames(square, squareRoutes, "s0", "h1") == std::vector<std::string>{"s1", "s3"});
    CHECK(CheckRoutingDag(square, squareRoutes).acyclic);
}

TEST_CASE("Zero-delay links do not create forwarding loops", "[routing]")
{
    Topology topology = Ring(4);
    for (uint32_t l = 0; l < topology.NumLinks(); ++l)
    {
        topology.MutableLink(l).params.delayNs = 0;
    }
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Delay);
    CHECK(PeerNames(topology, routes, "s0", "h1") == std::vector<std::string>{"s1"});
    CHECK(PeerNames(topology, routes, "s1", "h1") == std::vector<std::string>{"h1"});
    CHECK(PeerNames(topology, routes, "s0", "h2") == std::vector<std::string>{"s1", "s3"});
}

TEST_CASE("Tree topologies route as a DAG", "[routing]")
{
    for (const auto& [name, params] :
         std::vector<std::pair<std::string, json>>{{"fat-tree", {{"k", 4}}},
                                                   {"fat-tree", {{"k", 8}}},
                                                   {"leaf-spine", json::object()},
                                                   {"onepipe-testbed", json::object()},
                                                   {"switchtx-testbed", {{"layout", "single"}}},
                                                   {"switchtx-testbed", {{"layout", "multi"}}},
                                                   {"dumbbell", json::object()},
                                                   {"star", json::object()}})
    {
        INFO(name << " " << params.dump());
        Topology topology = Build(name, params);
        DagCheck check = CheckRoutingDag(topology, ComputeEcmpRoutes(topology, RouteMetric::Hops));
        CHECK(check.acyclic);
        CHECK(check.cycle.empty());
    }
}

TEST_CASE("Routing on a ring of switches has a dependency cycle", "[routing]")
{
    // A triangle has none: every route crosses at most one switch-to-switch link.
    Topology triangle = Ring(3);
    CHECK(CheckRoutingDag(triangle, ComputeEcmpRoutes(triangle, RouteMetric::Hops)).acyclic);

    // On a square, h2 is two hops from s0 and the routes chase each other round the ring:
    // (s0->s1)->(s1->s2) towards h2, (s1->s2)->(s2->s3) towards h3, and so on.
    Topology square = Ring(4);
    DagCheck check = CheckRoutingDag(square, ComputeEcmpRoutes(square, RouteMetric::Hops));
    CHECK_FALSE(check.acyclic);
    REQUIRE(check.cycle.size() == 4);
    // The cycle is a closed walk of links between switches.
    for (size_t i = 0; i < check.cycle.size(); ++i)
    {
        const std::string& link = check.cycle[i];
        const std::string& next = check.cycle[(i + 1) % check.cycle.size()];
        INFO(link << " then " << next);
        CHECK(link[0] == 's');
        CHECK(link.substr(link.find("->") + 2) == next.substr(0, next.find("->")));
    }

    // Taking one ring link down breaks the cycle.
    std::vector<bool> linkUp(square.NumLinks(), true);
    linkUp[*square.FindLink(Id(square, "s0"), Id(square, "s1"))] = false;
    CHECK(CheckRoutingDag(square, ComputeEcmpRoutes(square, RouteMetric::Hops, linkUp)).acyclic);
}

TEST_CASE("Fat-tree k=16 routes quickly", "[routing]")
{
    Topology topology = Build("fat-tree", {{"k", 16}});
    auto start = std::chrono::steady_clock::now();
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO("ComputeEcmpRoutes fat-tree k=16: " << seconds * 1e3 << " ms");
#ifdef NDEBUG
    CHECK(seconds < 1.0);
#else
    CHECK(seconds < 5.0); // unoptimised builds
#endif
    CHECK(routes.NumHosts() == 1024);
    CHECK(PeerNames(topology, routes, "e0_0", "h1023").size() == 8);
    CHECK(PeerNames(topology, routes, "c63", "h1023").size() == 1);
}

TEST_CASE("Routing timings", "[.][perf]")
{
    for (int k : {8, 16, 32})
    {
        Topology topology = Build("fat-tree", {{"k", k}});
        auto start = std::chrono::steady_clock::now();
        EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
        double routing =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        start = std::chrono::steady_clock::now();
        DagCheck check = k <= 16 ? CheckRoutingDag(topology, routes) : DagCheck{};
        double dag =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        WARN("k=" << k << ": ComputeEcmpRoutes " << routing * 1e3 << " ms, CheckRoutingDag "
                  << dag * 1e3 << " ms");
        CHECK(check.acyclic);
    }
}

TEST_CASE("A route table beyond 4 GiB is a configuration error, not an allocation failure",
          "[routing]")
{
    // 100k hosts on one switch: 1e10 (node, host) slots, 37 GiB.
    Topology star;
    const uint32_t hub = star.AddNode("s", NodeKind::Switch, 1);
    for (uint32_t i = 0; i < 100000; ++i)
    {
        star.AddLink(star.AddNode("h" + std::to_string(i), NodeKind::Host, 0), hub, LinkParams{});
    }
    try
    {
        ComputeEcmpRoutes(star, RouteMetric::Hops);
        FAIL("no error");
    }
    catch (const ConfigError& error)
    {
        CHECK(std::string(error.what()) ==
              "routes for 100001 nodes and 100000 hosts would take 37.3 GiB (4 bytes per node "
              "and destination host); incsim stops at 4 GiB");
    }
}
