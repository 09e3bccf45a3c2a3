#include "sim/topology/topology-checks.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <utility>

namespace incsim
{

std::vector<uint32_t>
HostsCutOffFromFirstHost(const Topology& topology)
{
    std::vector<uint32_t> cutOff;
    if (topology.Hosts().empty())
    {
        return cutOff;
    }
    const uint32_t source = topology.Hosts().front();
    std::vector<bool> reached(topology.NumNodes(), false);
    std::vector<uint32_t> frontier{source};
    reached[source] = true;
    while (!frontier.empty())
    {
        const uint32_t node = frontier.back();
        frontier.pop_back();
        if (node != source && topology.Node(node).kind == NodeKind::Host)
        {
            continue; // reached, but traffic does not pass through it
        }
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            const uint32_t peer = topology.Peer(node, port).peerNode;
            if (!reached[peer])
            {
                reached[peer] = true;
                frontier.push_back(peer);
            }
        }
    }
    for (uint32_t host : topology.Hosts())
    {
        if (!reached[host])
        {
            cutOff.push_back(host);
        }
    }
    return cutOff;
}

std::optional<ClosestHosts>
FindClosestHosts(const Topology& topology)
{
    // Multi-source Dijkstra: every host is a source, each node joins its nearest host's cell,
    // and the closest pair of hosts is joined by the cheapest link between two cells.
    constexpr int64_t kUnreached = std::numeric_limits<int64_t>::max();
    constexpr uint32_t kNoHost = std::numeric_limits<uint32_t>::max();
    std::vector<int64_t> distance(topology.NumNodes(), kUnreached);
    std::vector<uint32_t> nearest(topology.NumNodes(), kNoHost);
    using Entry = std::pair<int64_t, uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    for (uint32_t host : topology.Hosts())
    {
        distance[host] = 0;
        nearest[host] = host;
        queue.emplace(0, host);
    }
    while (!queue.empty())
    {
        const auto [d, node] = queue.top();
        queue.pop();
        if (d > distance[node])
        {
            continue;
        }
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            const Topology::PortPeer& peer = topology.Peer(node, port);
            const int64_t through = d + topology.Link(peer.link).params.delayNs;
            if (through < distance[peer.peerNode])
            {
                distance[peer.peerNode] = through;
                nearest[peer.peerNode] = nearest[node];
                queue.emplace(through, peer.peerNode);
            }
        }
    }
    std::optional<ClosestHosts> best;
    for (uint32_t id = 0; id < topology.NumLinks(); ++id)
    {
        const LinkInfo& link = topology.Link(id);
        if (nearest[link.a] == kNoHost || nearest[link.b] == kNoHost ||
            nearest[link.a] == nearest[link.b])
        {
            continue;
        }
        const int64_t delay = distance[link.a] + link.params.delayNs + distance[link.b];
        if (!best || delay < best->delayNs)
        {
            best = ClosestHosts{std::min(nearest[link.a], nearest[link.b]),
                                std::max(nearest[link.a], nearest[link.b]), delay};
        }
    }
    return best;
}

} // namespace incsim
