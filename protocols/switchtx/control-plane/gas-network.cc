#include "protocols/switchtx/control-plane/gas-network.h"

#include "p4/runtime/control-plane.h"
#include "sim/core/diagnostics.h"
#include "sim/net/headers.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

namespace incsim::switchtx
{

namespace contract = p4gen::switchtx::contract;

namespace
{

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

/// Replication id of a replica to server `host` (0 is a replica to a switch).
uint32_t
ReceiverRid(uint32_t host)
{
    return host + 1;
}

} // namespace

GasNetwork::GasNetwork(const Topology& topology, std::vector<uint32_t> servers, GasScope scope)
    : m_topology(topology),
      m_servers(std::move(servers)),
      m_isServer(topology.Hosts().size(), false),
      m_scope(scope),
      m_nodes(topology.NumNodes())
{
    const size_t numHosts = topology.Hosts().size();
    std::sort(m_servers.begin(), m_servers.end());
    m_servers.erase(std::unique(m_servers.begin(), m_servers.end()), m_servers.end());
    for (uint32_t host : m_servers)
    {
        if (host >= numHosts)
        {
            throw ConfigError(fmt::format("switchtx: server {} is not a host of the topology "
                                          "({} hosts)",
                                          host, numHosts));
        }
        if (ReceiverRid(host) > 0xFFFF)
        {
            throw ConfigError(fmt::format(
                "switchtx: server {} ({}): replication ids are 16 bits, so server host indices "
                "stop at 65534",
                host, topology.Node(topology.Hosts()[host]).name));
        }
        m_isServer[host] = true;
    }

    // Levels: hop distance from the nearest server, through switches only.
    std::vector<uint32_t> distance(topology.NumNodes(), kUnreached);
    std::deque<uint32_t> queue;
    for (uint32_t host : m_servers)
    {
        distance[topology.Hosts()[host]] = 0;
        queue.push_back(topology.Hosts()[host]);
    }
    while (!queue.empty())
    {
        const uint32_t node = queue.front();
        queue.pop_front();
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            const uint32_t peer = topology.Peer(node, port).peerNode;
            if (topology.Node(peer).kind == NodeKind::Switch && distance[peer] == kUnreached)
            {
                distance[peer] = distance[node] + 1;
                queue.push_back(peer);
            }
        }
    }

    // Down ports and the servers below, level by level upward.
    std::vector<uint32_t> switches;
    for (uint32_t node : topology.Switches())
    {
        if (distance[node] != kUnreached)
        {
            switches.push_back(node);
        }
    }
    std::stable_sort(switches.begin(), switches.end(),
                     [&](uint32_t a, uint32_t b) { return distance[a] < distance[b]; });
    for (uint32_t node : switches)
    {
        NodeState& state = m_nodes[node];
        state.below.assign(numHosts, false);
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            const uint32_t peer = topology.Peer(node, port).peerNode;
            if (topology.Node(peer).kind == NodeKind::Host)
            {
                const uint32_t host = topology.HostIndex(peer);
                if (m_isServer[host])
                {
                    state.downPorts.push_back(port);
                    state.below[host] = true;
                }
            }
            else if (distance[peer] + 1 == distance[node] && m_nodes[peer].level != 0)
            {
                state.downPorts.push_back(port);
                for (size_t h = 0; h < numHosts; ++h)
                {
                    state.below[h] = state.below[h] || m_nodes[peer].below[h];
                }
            }
        }
        if (state.downPorts.empty())
        {
            state.below.clear();
            continue;
        }
        state.level = distance[node];
        if (state.downPorts.size() > kMaxDownPorts)
        {
            throw ConfigError(fmt::format(
                "switchtx: switch {} has {} down ports (to servers and to switches with servers "
                "below); a scatter group is a bitmap of at most {}",
                topology.Node(node).name, state.downPorts.size(), kMaxDownPorts));
        }
    }

    for (uint32_t node : topology.Switches())
    {
        NodeState& state = m_nodes[node];
        if (state.level == 0)
        {
            continue;
        }
        if (m_gasSwitches.size() == kMaxSwitches)
        {
            throw ConfigError(fmt::format("switchtx: switch {} would be switch number {} of "
                                          "in-switch GaS; switch ids are 8 bits (1..{})",
                                          topology.Node(node).name, kMaxSwitches + 1,
                                          kMaxSwitches));
        }
        m_gasSwitches.push_back(node);
        state.id = static_cast<uint8_t>(m_gasSwitches.size());
        m_topLevel = std::max(m_topLevel, state.level);
    }
}

bool
GasNetwork::IsRelay(uint32_t node) const
{
    return m_scope == GasScope::Root && m_nodes[node].level != 0 &&
           m_nodes[node].level < m_topLevel;
}

uint16_t
GasNetwork::DownBit(uint32_t node, uint32_t port) const
{
    const std::vector<uint32_t>& ports = m_nodes[node].downPorts;
    const auto it = std::lower_bound(ports.begin(), ports.end(), port);
    if (it == ports.end() || *it != port)
    {
        throw std::logic_error(fmt::format("switchtx: port {} of {} is not a down port", port,
                                           m_topology.Node(node).name));
    }
    return static_cast<uint16_t>(1u << (it - ports.begin()));
}

void
GasNetwork::Configure(P4Pipeline& pipeline, const SwitchDevice& device, uint8_t mode) const
{
    Configure(pipeline.Control(), device.NodeId(), mode);
}

void
GasNetwork::Configure(p4rt::ControlPlane& control, uint32_t node, uint8_t mode) const
{
    using configure = contract::MyIngress::configure;
    const NodeState& state = m_nodes[node];
    control.SetDefaultAction(contract::MyIngress::switchtx_config::kName, configure::kName,
                             {{configure::switch_id::kName, p4rt::BitString(state.id)},
                              {configure::relay::kName, p4rt::BitString(IsRelay(node) ? 1 : 0)},
                              {configure::mode::kName, p4rt::BitString(mode)}});
    if (state.id == 0)
    {
        return;
    }

    std::vector<p4rt::Replica> byBit;
    for (uint32_t port : state.downPorts)
    {
        const uint32_t peer = m_topology.Peer(node, port).peerNode;
        const bool host = m_topology.Node(peer).kind == NodeKind::Host;
        const uint32_t rid = host ? ReceiverRid(m_topology.HostIndex(peer)) : 0;
        byBit.push_back({port, rid});
        if (host)
        {
            using receivers = contract::MyEgress::switchtx_receivers;
            using set_receiver = contract::MyEgress::set_receiver;
            control.AddEntry(receivers::kName,
                             {{receivers::kKeys[0], p4rt::MatchValue::Exact(p4rt::BitString(rid))}},
                             set_receiver::kName,
                             {{set_receiver::addr::kName,
                               p4rt::BitString(HostIpv4(m_topology.HostIndex(peer)))}});
        }
    }
    const uint32_t groups = 1u << byBit.size();
    for (uint32_t group = 1; group < groups; ++group)
    {
        std::vector<p4rt::Replica> replicas;
        for (size_t bit = 0; bit < byBit.size(); ++bit)
        {
            if (group & (1u << bit))
            {
                replicas.push_back(byBit[bit]);
            }
        }
        control.SetMulticastGroup(group, std::move(replicas));
    }
}

} // namespace incsim::switchtx
