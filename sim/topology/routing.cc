#include "sim/topology/routing.h"

#include "sim/core/diagnostics.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <stdexcept>
#include <utility>

namespace incsim
{

const Choices<RouteMetric>&
RouteMetricChoices()
{
    static const Choices<RouteMetric> choices{{"hops", RouteMetric::Hops},
                                              {"delay", RouteMetric::Delay}};
    return choices;
}

const Choices<EcmpMode>&
EcmpModeChoices()
{
    static const Choices<EcmpMode> choices{{"per-flow", EcmpMode::PerFlow},
                                           {"per-packet", EcmpMode::PerPacket}};
    return choices;
}
namespace
{

constexpr int64_t kInf = std::numeric_limits<int64_t>::max();

/// A usable port: its link and both ends are up.
struct Arc
{
    uint32_t peer;
    uint32_t port;
    int64_t weight;
};

/// The up part of the topology as a flat adjacency list, arcs in port order.
struct UpGraph
{
    std::vector<uint32_t> start; // per node, into arcs; size NumNodes + 1
    std::vector<Arc> arcs;
    std::vector<uint8_t> isHost;

    const Arc* begin(uint32_t node) const { return arcs.data() + start[node]; }
    const Arc* end(uint32_t node) const { return arcs.data() + start[node + 1]; }
};

UpGraph
BuildUpGraph(const Topology& topology,
             RouteMetric metric,
             const std::vector<bool>& linkUp,
             const std::vector<bool>& nodeUp)
{
    const auto numNodes = static_cast<uint32_t>(topology.NumNodes());
    if (!linkUp.empty() && linkUp.size() != topology.NumLinks())
    {
        throw std::invalid_argument("ComputeEcmpRoutes: linkUp has the wrong size");
    }
    if (!nodeUp.empty() && nodeUp.size() != numNodes)
    {
        throw std::invalid_argument("ComputeEcmpRoutes: nodeUp has the wrong size");
    }
    auto nodeOk = [&](uint32_t n) { return nodeUp.empty() || nodeUp[n]; };

    // Delay routing breaks ties by hop count, so that zero-delay links cannot make two
    // switches each other's next hop: weight = delay * numNodes + 1, and a shortest path has
    // fewer than numNodes hops, so the hop count never carries into the delay.
    int64_t scale = 0;
    if (metric == RouteMetric::Delay)
    {
        scale = numNodes;
        long double total = 0;
        for (uint32_t l = 0; l < topology.NumLinks(); ++l)
        {
            int64_t delay = topology.Link(l).params.delayNs;
            if (delay < 0)
            {
                throw std::invalid_argument("ComputeEcmpRoutes: negative link delay");
            }
            total += delay;
        }
        if ((total + 1) * scale + scale > static_cast<long double>(kInf / 4))
        {
            throw std::overflow_error("ComputeEcmpRoutes: total link delay too large");
        }
    }

    UpGraph graph;
    graph.start.reserve(numNodes + 1);
    graph.arcs.reserve(topology.NumLinks() * 2);
    graph.isHost.resize(numNodes);
    for (uint32_t n = 0; n < numNodes; ++n)
    {
        graph.isHost[n] = topology.Node(n).kind == NodeKind::Host;
        graph.start.push_back(static_cast<uint32_t>(graph.arcs.size()));
        if (!nodeOk(n))
        {
            continue;
        }
        for (uint32_t p = 0; p < topology.NumPorts(n); ++p)
        {
            const Topology::PortPeer& peer = topology.Peer(n, p);
            if ((!linkUp.empty() && !linkUp[peer.link]) || !nodeOk(peer.peerNode))
            {
                continue;
            }
            int64_t weight = metric == RouteMetric::Hops
                               ? 1
                               : topology.Link(peer.link).params.delayNs * scale + 1;
            graph.arcs.push_back(Arc{peer.peerNode, p, weight});
        }
    }
    graph.start.push_back(static_cast<uint32_t>(graph.arcs.size()));
    return graph;
}

/// Destination hosts attached to the same switches by links of the same weight have the same
/// distance from every other node, so distances are computed once per such class. A class is
/// either a set of "sources" (switch, weight), or one host that has a host neighbour and is
/// its own source.
struct DestClass
{
    std::vector<std::pair<uint32_t, int64_t>> sources;
    uint32_t selfSource = UINT32_MAX;
};

/// Fills dist (size NumNodes) with distances to the class; hosts are reached, never expanded,
/// except a class's own source host.
void
ClassDistances(const UpGraph& graph,
               RouteMetric metric,
               const DestClass& cls,
               std::vector<int64_t>& dist,
               std::vector<uint32_t>& fifo)
{
    std::fill(dist.begin(), dist.end(), kInf);
    auto expands = [&](uint32_t n) { return !graph.isHost[n] || n == cls.selfSource; };

    if (metric == RouteMetric::Hops)
    {
        // Every source is at the same distance (0 or 1), so a plain BFS is exact.
        fifo.clear();
        if (cls.selfSource != UINT32_MAX)
        {
            dist[cls.selfSource] = 0;
            fifo.push_back(cls.selfSource);
        }
        for (const auto& [node, weight] : cls.sources)
        {
            dist[node] = weight;
            fifo.push_back(node);
        }
        for (size_t head = 0; head < fifo.size(); ++head)
        {
            uint32_t n = fifo[head];
            if (!expands(n))
            {
                continue;
            }
            for (const Arc* arc = graph.begin(n); arc != graph.end(n); ++arc)
            {
                if (dist[arc->peer] == kInf)
                {
                    dist[arc->peer] = dist[n] + 1;
                    fifo.push_back(arc->peer);
                }
            }
        }
        return;
    }

    using Item = std::pair<int64_t, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    if (cls.selfSource != UINT32_MAX)
    {
        dist[cls.selfSource] = 0;
        heap.emplace(0, cls.selfSource);
    }
    for (const auto& [node, weight] : cls.sources)
    {
        if (weight < dist[node])
        {
            dist[node] = weight;
            heap.emplace(weight, node);
        }
    }
    while (!heap.empty())
    {
        auto [d, n] = heap.top();
        heap.pop();
        if (d != dist[n] || !expands(n))
        {
            continue;
        }
        for (const Arc* arc = graph.begin(n); arc != graph.end(n); ++arc)
        {
            int64_t candidate = d + arc->weight;
            if (candidate < dist[arc->peer])
            {
                dist[arc->peer] = candidate;
                heap.emplace(candidate, arc->peer);
            }
        }
    }
}

} // namespace

EcmpRoutes::EcmpRoutes(uint32_t numNodes, uint32_t numHosts)
    : m_numNodes(numNodes),
      m_numHosts(numHosts),
      m_groups{Group{}} // group 0: no next hop
{
    const size_t slots = static_cast<size_t>(numNodes) * numHosts;
    if (slots > kMaxRouteSlots)
    {
        throw ConfigError(fmt::format(
            "routes for {} nodes and {} hosts would take {:.1f} GiB (4 bytes per node and "
            "destination host); incsim stops at {} GiB",
            numNodes, numHosts, static_cast<double>(slots) * 4 / (1 << 30),
            kMaxRouteSlots * 4 / (size_t{1} << 30)));
    }
    m_groupOfSlot.reserve(slots);
}

void
EcmpRoutes::Append(uint32_t node, uint32_t dstHost, const std::vector<uint32_t>& ports)
{
    size_t slot = static_cast<size_t>(node) * m_numHosts + dstHost;
    if (node >= m_numNodes || dstHost >= m_numHosts || slot != m_groupOfSlot.size())
    {
        throw std::logic_error("EcmpRoutes::Append called out of slot order");
    }
    // Consecutive destinations usually share their port set, so try the last one first.
    if (ports != m_lastPorts)
    {
        m_lastPorts = ports;
        auto [it, added] = m_groupIds.emplace(ports, static_cast<uint32_t>(m_groups.size()));
        if (added)
        {
            if (m_ports.size() + ports.size() > std::numeric_limits<uint32_t>::max())
            {
                throw std::length_error("EcmpRoutes: more than 2^32 next hops");
            }
            m_groups.push_back(Group{static_cast<uint32_t>(m_ports.size()),
                                     static_cast<uint32_t>(ports.size())});
            m_ports.insert(m_ports.end(), ports.begin(), ports.end());
        }
        m_lastGroup = ports.empty() ? 0 : it->second;
    }
    m_groupOfSlot.push_back(m_lastGroup);
    if (m_groupOfSlot.size() == static_cast<size_t>(m_numNodes) * m_numHosts)
    {
        // Complete: the build-time index is no longer needed.
        m_groupIds.clear();
        m_lastPorts.clear();
    }
}

EcmpRoutes
ComputeEcmpRoutes(const Topology& topology,
                  RouteMetric metric,
                  const std::vector<bool>& linkUp,
                  const std::vector<bool>& nodeUp)
{
    const UpGraph graph = BuildUpGraph(topology, metric, linkUp, nodeUp);
    const auto numNodes = static_cast<uint32_t>(topology.NumNodes());
    const std::vector<uint32_t>& hosts = topology.Hosts();
    const auto numHosts = static_cast<uint32_t>(hosts.size());

    // Group destinations into classes; -1 for a destination that is down.
    std::vector<int32_t> hostClass(numHosts, -1);
    std::vector<DestClass> classes;
    std::map<std::vector<std::pair<uint32_t, int64_t>>, int32_t> classOf;
    for (uint32_t h = 0; h < numHosts; ++h)
    {
        uint32_t dst = hosts[h];
        if (!nodeUp.empty() && !nodeUp[dst])
        {
            continue;
        }
        DestClass cls;
        bool hostNeighbour = false;
        for (const Arc* arc = graph.begin(dst); arc != graph.end(dst); ++arc)
        {
            hostNeighbour |= graph.isHost[arc->peer] != 0;
            cls.sources.emplace_back(arc->peer, arc->weight);
        }
        if (hostNeighbour)
        {
            cls.sources.clear();
            cls.selfSource = dst;
            hostClass[h] = static_cast<int32_t>(classes.size());
            classes.push_back(std::move(cls));
            continue;
        }
        // Parallel links: only the lightest matters for distances.
        std::sort(cls.sources.begin(), cls.sources.end());
        cls.sources.erase(
            std::unique(cls.sources.begin(),
                        cls.sources.end(),
                        [](const auto& x, const auto& y) { return x.first == y.first; }),
            cls.sources.end());
        auto [it, inserted] = classOf.emplace(cls.sources, static_cast<int32_t>(classes.size()));
        if (inserted)
        {
            classes.push_back(std::move(cls));
        }
        hostClass[h] = it->second;
    }

    // Node-major distance table, so the fill loop below reads neighbours' rows contiguously.
    const size_t numClasses = classes.size();
    std::vector<int64_t> table(static_cast<size_t>(numNodes) * numClasses);
    {
        std::vector<int64_t> dist(numNodes);
        std::vector<uint32_t> fifo;
        fifo.reserve(numNodes);
        for (size_t c = 0; c < numClasses; ++c)
        {
            ClassDistances(graph, metric, classes[c], dist, fifo);
            for (uint32_t n = 0; n < numNodes; ++n)
            {
                table[n * numClasses + c] = dist[n];
            }
        }
    }

    // Next hops of node n towards dst are the switch peers on shortest paths, which depend only
    // on dst's class, plus the ports straight to dst. The first part is computed once per
    // (node, class); hosts are not transit nodes, so no other host peer ever qualifies.
    std::vector<uint32_t> classStart(numClasses + 1);
    std::vector<uint32_t> classPorts;
    auto switchPortsByClass = [&](uint32_t n, const int64_t* row) {
        classPorts.clear();
        for (size_t c = 0; c < numClasses; ++c)
        {
            classStart[c] = static_cast<uint32_t>(classPorts.size());
            if (row[c] == kInf)
            {
                continue;
            }
            for (const Arc* arc = graph.begin(n); arc != graph.end(n); ++arc)
            {
                const int64_t peerDist = table[static_cast<size_t>(arc->peer) * numClasses + c];
                if (!graph.isHost[arc->peer] && peerDist != kInf &&
                    peerDist + arc->weight == row[c])
                {
                    classPorts.push_back(arc->port);
                }
            }
        }
        classStart[numClasses] = static_cast<uint32_t>(classPorts.size());
    };
    auto rowOf = [&](uint32_t n) { return table.data() + static_cast<size_t>(n) * numClasses; };
    // A direct port to dst is a next hop when the link alone is a shortest path.
    auto directPort = [&](uint32_t n, const Arc& arc) {
        const int32_t c = graph.isHost[arc.peer] ? hostClass[topology.HostIndex(arc.peer)] : -1;
        return c >= 0 && rowOf(n)[c] == arc.weight;
    };

    EcmpRoutes routes(numNodes, numHosts);
    struct HostArc
    {
        uint32_t host;
        uint32_t port;
    };
    std::vector<HostArc> hostArcs;
    std::vector<uint32_t> ports;
    ports.reserve(64);
    for (uint32_t n = 0; n < numNodes; ++n)
    {
        const int64_t* row = rowOf(n);
        switchPortsByClass(n, row);
        hostArcs.clear();
        for (const Arc* arc = graph.begin(n); arc != graph.end(n); ++arc)
        {
            if (directPort(n, *arc))
            {
                hostArcs.push_back({topology.HostIndex(arc->peer), arc->port});
            }
        }
        std::stable_sort(hostArcs.begin(), hostArcs.end(), [](const auto& x, const auto& y) {
            return x.host < y.host;
        });

        auto direct = hostArcs.begin();
        for (uint32_t h = 0; h < numHosts; ++h)
        {
            ports.clear();
            while (direct != hostArcs.end() && direct->host < h)
            {
                ++direct;
            }
            const int32_t c = hostClass[h];
            if (c >= 0 && n != hosts[h])
            {
                const uint32_t* base = classPorts.data() + classStart[c];
                const uint32_t* baseEnd = classPorts.data() + classStart[c + 1];
                // Merge the ports straight to dst into the class's ports, keeping them sorted.
                for (; direct != hostArcs.end() && direct->host == h; ++direct)
                {
                    while (base != baseEnd && *base < direct->port)
                    {
                        ports.push_back(*base++);
                    }
                    ports.push_back(direct->port);
                }
                ports.insert(ports.end(), base, baseEnd);
            }
            routes.Append(n, h, ports);
        }
    }
    return routes;
}

DagCheck
CheckRoutingDag(const Topology& topology, const EcmpRoutes& routes)
{
    const auto numNodes = static_cast<uint32_t>(topology.NumNodes());
    const auto numHosts = static_cast<uint32_t>(topology.Hosts().size());
    if (routes.NumNodes() != numNodes || routes.NumHosts() != numHosts)
    {
        throw std::invalid_argument("CheckRoutingDag: routes were computed for another topology");
    }

    // Vertex 2*l is link l from a to b, 2*l+1 from b to a.
    const size_t numVertices = topology.NumLinks() * 2;
    auto vertexOf = [&](uint32_t node, uint32_t port) {
        uint32_t link = topology.Peer(node, port).link;
        return static_cast<size_t>(link) * 2 + (topology.Link(link).a == node ? 0 : 1);
    };
    auto headOf = [&](size_t v) {
        const LinkInfo& link = topology.Link(static_cast<uint32_t>(v / 2));
        return v % 2 == 0 ? link.b : link.a;
    };
    auto tailOf = [&](size_t v) {
        const LinkInfo& link = topology.Link(static_cast<uint32_t>(v / 2));
        return v % 2 == 0 ? link.a : link.b;
    };

    // Successors of (u->s) are out-ports of s: one flag per (vertex, port of s). Routes for
    // many destinations repeat the same dependencies, and the flags absorb the repeats.
    std::vector<size_t> base(numVertices + 1, 0);
    for (size_t v = 0; v < numVertices; ++v)
    {
        base[v + 1] = base[v] + topology.NumPorts(headOf(v));
    }
    std::vector<uint8_t> successor(base[numVertices], 0);
    for (uint32_t h = 0; h < numHosts; ++h)
    {
        for (uint32_t u = 0; u < numNodes; ++u)
        {
            for (uint32_t p : routes.NextHops(u, h))
            {
                size_t in = vertexOf(u, p);
                uint32_t s = topology.Peer(u, p).peerNode;
                for (uint32_t q : routes.NextHops(s, h))
                {
                    successor[base[in] + q] = 1;
                }
            }
        }
    }

    // Iterative DFS; a grey successor closes a cycle made of the grey vertices on the stack.
    enum : uint8_t
    {
        kWhite,
        kGrey,
        kBlack
    };
    std::vector<uint8_t> colour(numVertices, kWhite);
    std::vector<std::pair<size_t, uint32_t>> stack; // vertex, next port of its head to try
    for (size_t root = 0; root < numVertices; ++root)
    {
        if (colour[root] != kWhite)
        {
            continue;
        }
        colour[root] = kGrey;
        stack.emplace_back(root, 0);
        while (!stack.empty())
        {
            auto& [v, next] = stack.back();
            uint32_t s = headOf(v);
            uint32_t degree = topology.NumPorts(s);
            while (next < degree && !successor[base[v] + next])
            {
                ++next;
            }
            if (next == degree)
            {
                colour[v] = kBlack;
                stack.pop_back();
                continue;
            }
            size_t w = vertexOf(s, next);
            ++next;
            if (colour[w] == kWhite)
            {
                colour[w] = kGrey;
                stack.emplace_back(w, 0);
            }
            else if (colour[w] == kGrey)
            {
                DagCheck result;
                result.acyclic = false;
                auto first = std::find_if(stack.begin(), stack.end(), [w](const auto& entry) {
                    return entry.first == w;
                });
                for (auto it = first; it != stack.end(); ++it)
                {
                    result.cycle.push_back(topology.Node(tailOf(it->first)).name + "->" +
                                           topology.Node(headOf(it->first)).name);
                }
                return result;
            }
        }
    }
    return DagCheck{};
}

} // namespace incsim
