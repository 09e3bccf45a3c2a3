#include "protocols/onepipe/barrier-directions.h"

#include "sim/core/diagnostics.h"
#include "sim/topology/routing.h"
#include "sim/topology/topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>

namespace incsim::onepipe
{

std::vector<uint32_t>
HopDistances(const Topology& topology, const std::vector<uint32_t>& sources)
{
    std::vector<uint32_t> distance(topology.NumNodes(), kUnreached);
    std::deque<uint32_t> frontier;
    for (uint32_t source : sources)
    {
        distance[source] = 0;
        frontier.push_back(source);
    }
    while (!frontier.empty())
    {
        const uint32_t node = frontier.front();
        frontier.pop_front();
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            const uint32_t peer = topology.Peer(node, port).peerNode;
            if (distance[peer] == kUnreached)
            {
                distance[peer] = distance[node] + 1;
                frontier.push_back(peer);
            }
        }
    }
    return distance;
}

namespace
{
bool
Contains(EcmpRoutes::PortList ports, uint32_t port)
{
    return std::find(ports.begin(), ports.end(), port) != ports.end();
}
} // namespace

std::vector<uint32_t>
UpPortMasks(const Topology& topology, const EcmpRoutes& routes, uint32_t maxPorts)
{
    const std::vector<uint32_t> distance = HopDistances(topology, topology.Hosts());
    std::vector<uint32_t> masks(topology.NumNodes(), 0);
    for (uint32_t node : topology.Switches())
    {
        if (topology.NumPorts(node) > maxPorts)
        {
            throw ConfigError(fmt::format(
                "1Pipe: switch {} has {} ports; onepipe.p4 keeps barriers for {} ports",
                topology.Node(node).name, topology.NumPorts(node), maxPorts));
        }
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            const uint32_t peer = topology.Peer(node, port).peerNode;
            if (topology.Node(peer).kind == NodeKind::Switch && distance[peer] >= distance[node])
            {
                masks[node] |= 1u << port;
            }
        }
    }
    for (uint32_t node : topology.Switches())
    {
        for (uint32_t dst = 0; dst < routes.NumHosts(); ++dst)
        {
            const EcmpRoutes::PortList out = routes.NextHops(node, dst);
            auto up = std::find_if(out.begin(), out.end(),
                                   [&](uint32_t port) { return (masks[node] >> port) & 1; });
            if (up == out.end())
            {
                continue;
            }
            for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
            {
                if (!((masks[node] >> port) & 1))
                {
                    continue;
                }
                const Topology::PortPeer& from = topology.Peer(node, port);
                if (Contains(routes.NextHops(from.peerNode, dst), from.peerPort))
                {
                    throw ConfigError(fmt::format(
                        "1Pipe needs up-down routes (barriers are aggregated up the tree, then "
                        "down), but switch {} forwards traffic for host {} that arrives from {} "
                        "(as far from the hosts as {}, or farther) up again to {}",
                        topology.Node(node).name, topology.Node(topology.Hosts()[dst]).name,
                        topology.Node(from.peerNode).name, topology.Node(node).name,
                        topology.Node(topology.Peer(node, *up).peerNode).name));
                }
            }
        }
    }
    return masks;
}

std::vector<std::vector<uint32_t>>
PortGroups(const Topology& topology, const EcmpRoutes& routes,
           const std::vector<uint32_t>& upMasks)
{
    std::vector<std::vector<uint32_t>> groups(topology.NumNodes());
    for (uint32_t node : topology.Switches())
    {
        const uint32_t numPorts = topology.NumPorts(node);
        std::vector<uint32_t> feeds(numPorts, 0);
        for (uint32_t dst = 0; dst < routes.NumHosts(); ++dst)
        {
            uint32_t inputs = 0;
            for (uint32_t port = 0; port < numPorts; ++port)
            {
                const Topology::PortPeer& from = topology.Peer(node, port);
                if (topology.Node(from.peerNode).kind != NodeKind::Switch ||
                    Contains(routes.NextHops(from.peerNode, dst), from.peerPort))
                {
                    inputs |= 1u << port;
                }
            }
            for (uint32_t out : routes.NextHops(node, dst))
            {
                feeds[out] |= inputs;
            }
        }
        const uint32_t ports = numPorts >= 32 ? ~0u : (1u << numPorts) - 1;
        const uint32_t down = ports & ~upMasks[node];
        auto excluded = [&](uint32_t port) { return down & ~feeds[port]; };
        groups[node].assign(numPorts, 0);
        for (uint32_t port = 0; port < numPorts; ++port)
        {
            const uint32_t group = excluded(port);
            if (!((down >> port) & 1) || !((group >> port) & 1))
            {
                continue;
            }
            bool consistent = true;
            for (uint32_t member = 0; member < numPorts; ++member)
            {
                consistent = consistent && (!((group >> member) & 1) || excluded(member) == group);
            }
            groups[node][port] = consistent ? group : 0;
        }
    }
    return groups;
}

} // namespace incsim::onepipe
