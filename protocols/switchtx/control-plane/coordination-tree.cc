#include "protocols/switchtx/control-plane/coordination-tree.h"

#include "sim/core/diagnostics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace incsim::switchtx
{

namespace
{

constexpr uint32_t kNoNode = std::numeric_limits<uint32_t>::max();

std::string
HostNames(const GasNetwork& network, const std::vector<uint32_t>& hosts)
{
    std::vector<std::string> names;
    for (uint32_t host : hosts)
    {
        const Topology& topology = network.GetTopology();
        names.push_back(topology.Node(topology.Hosts()[host]).name);
    }
    return fmt::format("{}", fmt::join(names, ", "));
}

} // namespace

std::vector<uint32_t>
GasTransaction::Hosts() const
{
    std::vector<uint32_t> hosts{client};
    for (const GasPhase& phase : phases)
    {
        hosts.insert(hosts.end(), phase.senders.begin(), phase.senders.end());
        hosts.insert(hosts.end(), phase.receivers.begin(), phase.receivers.end());
    }
    hosts.insert(hosts.end(), failReceivers.begin(), failReceivers.end());
    std::sort(hosts.begin(), hosts.end());
    hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
    return hosts;
}

CoordinationTree::CoordinationTree(const GasNetwork& network, uint32_t root,
                                   const std::vector<uint32_t>& hosts)
    : m_root(root)
{
    const Topology& topology = network.GetTopology();
    m_parent[root] = {kNoNode, GasSlice::kNoParent};
    m_switches.push_back(root);
    std::map<uint32_t, std::vector<uint32_t>> children;
    for (uint32_t host : hosts)
    {
        const uint32_t hostNode = topology.Hosts()[host];
        uint32_t node = root;
        while (true)
        {
            uint32_t next = kNoNode;
            uint32_t nextPort = 0;
            for (uint32_t port : network.DownPorts(node))
            {
                const uint32_t peer = topology.Peer(node, port).peerNode;
                if (peer == hostNode)
                {
                    next = peer;
                    nextPort = port;
                    break;
                }
                const bool candidate =
                    topology.Node(peer).kind == NodeKind::Switch && network.IsBelow(peer, host);
                const bool inTree = m_parent.count(peer) && m_parent[peer].first == node;
                // The first switch toward the host, unless the tree already has one.
                if (candidate && (next == kNoNode || inTree))
                {
                    next = peer;
                    nextPort = port;
                    if (inTree)
                    {
                        break;
                    }
                }
            }
            if (next == kNoNode)
            {
                throw ConfigError(fmt::format("switchtx: server {} is not below switch {}",
                                              topology.Node(hostNode).name,
                                              topology.Node(root).name));
            }
            if (next == hostNode)
            {
                m_attachment[host] = {node, nextPort};
                break;
            }
            if (!m_parent.count(next))
            {
                const uint32_t up = topology.Peer(node, nextPort).peerPort;
                m_parent[next] = {node, static_cast<uint16_t>(up)};
                m_switches.push_back(next);
            }
            else if (m_parent[next].first != node)
            {
                throw ConfigError(fmt::format(
                    "switchtx: the down paths from {} reach {} from {} and from {}: not a tree",
                    topology.Node(root).name, topology.Node(next).name,
                    topology.Node(m_parent[next].first).name, topology.Node(node).name));
            }
            node = next;
        }
    }
    // Parents before children: sort by depth, stably.
    auto depth = [&](uint32_t node) {
        uint32_t d = 0;
        for (; node != root; node = m_parent[node].first)
        {
            ++d;
        }
        return d;
    };
    std::stable_sort(m_switches.begin(), m_switches.end(),
                     [&](uint32_t a, uint32_t b) { return depth(a) < depth(b); });
}

std::vector<uint32_t>
CoordinationTree::PathOf(uint32_t host) const
{
    std::vector<uint32_t> path;
    for (uint32_t node = m_attachment.at(host).first; node != kNoNode;
         node = m_parent.at(node).first)
    {
        path.push_back(node);
    }
    return path;
}

GasPlan::GasPlan(const GasNetwork& network, const GasTransaction& txn, CoordinationTree tree)
    : m_network(network),
      m_tree(std::move(tree)),
      m_hosts(txn.Hosts())
{
    const Topology& topology = network.GetTopology();

    // Init: every tree switch; its scatter group, the ports to its child switches.
    Fields init;
    for (uint32_t node : m_tree.Switches())
    {
        init.group[node];
        const uint32_t parent = m_tree.Parent(node);
        if (parent != kNoNode)
        {
            const uint32_t port = topology.Peer(node, m_tree.ParentPort(node)).peerPort;
            init.group[parent] |= network.DownBit(parent, port);
        }
    }
    if (network.Scope() == GasScope::Root)
    {
        init.group = {{m_tree.Root(), 0}};
    }
    m_init = Build(txn.client, init, true);

    for (const GasPhase& phase : txn.phases)
    {
        Fields fields = Groups(phase.receivers);
        for (uint32_t sender : phase.senders)
        {
            for (uint32_t node : m_tree.PathOf(sender))
            {
                ++fields.threshold[node];
            }
        }
        std::map<uint32_t, GasSlices>& bySender = m_phases.emplace_back();
        for (uint32_t sender : phase.senders)
        {
            if (!bySender.count(sender))
            {
                bySender[sender] = Build(sender, fields, false);
            }
        }
    }

    std::vector<uint32_t> failReceivers = txn.failReceivers;
    failReceivers.push_back(txn.client);
    Fields fail = Groups(failReceivers);
    for (uint32_t node : m_tree.Switches())
    {
        fail.threshold[node] = 1;
    }
    for (uint32_t host : m_hosts)
    {
        m_fails[host] = Build(host, fail, false);
    }
}

GasPlan::Fields
GasPlan::Groups(const std::vector<uint32_t>& receivers) const
{
    const Topology& topology = m_network.GetTopology();
    Fields fields;
    for (uint32_t receiver : receivers)
    {
        const auto [leaf, port] = m_tree.Attachment(receiver);
        fields.group[leaf] |= m_network.DownBit(leaf, port);
        for (uint32_t node = leaf; m_tree.Parent(node) != kNoNode; node = m_tree.Parent(node))
        {
            const uint32_t parent = m_tree.Parent(node);
            const uint32_t down = topology.Peer(node, m_tree.ParentPort(node)).peerPort;
            fields.group[parent] |= m_network.DownBit(parent, down);
        }
    }
    return fields;
}

GasSlices
GasPlan::Build(uint32_t sender, const Fields& fields, bool allSwitches) const
{
    const Topology& topology = m_network.GetTopology();
    auto get = [](const std::map<uint32_t, uint16_t>& map, uint32_t node) -> uint16_t {
        const auto it = map.find(node);
        return it == map.end() ? 0 : it->second;
    };
    const std::vector<uint32_t> path = m_tree.PathOf(sender);
    if (path.size() > GasSlices::kPathSlices)
    {
        throw ConfigError(fmt::format(
            "switchtx: transaction over {}: {} switches from {} up to the root {}; a control "
            "message has path slices for {}",
            HostNames(m_network, m_hosts), path.size(),
            topology.Node(topology.Hosts()[sender]).name, topology.Node(m_tree.Root()).name,
            GasSlices::kPathSlices));
    }
    GasSlices slices;
    for (size_t i = 0; i < path.size(); ++i)
    {
        const uint32_t node = path[i];
        GasSlice& slice = slices.path[i];
        slice.switchId = m_network.SwitchId(node);
        slice.parentPort = m_tree.ParentPort(node);
        slice.scatterGroup = get(fields.group, node);
        // A relay counts nothing; the root of scope Root counts every message.
        slice.threshold = m_network.IsRelay(node) ? 0 : get(fields.threshold, node);
    }
    size_t down = 0;
    for (uint32_t node : m_tree.Switches())
    {
        const auto it = fields.group.find(node);
        const bool named = it != fields.group.end() && (allSwitches || it->second != 0);
        if (!named || std::find(path.begin(), path.end(), node) != path.end())
        {
            continue;
        }
        if (down == GasSlices::kDownSlices)
        {
            throw ConfigError(fmt::format(
                "switchtx: transaction over {}: a message from {} must reach more than {} tree "
                "switches off its path below the root {}; a control message has down slices "
                "for {}",
                HostNames(m_network, m_hosts), topology.Node(topology.Hosts()[sender]).name,
                GasSlices::kDownSlices, topology.Node(m_tree.Root()).name,
                GasSlices::kDownSlices));
        }
        slices.down[down++] = {m_network.SwitchId(node), it->second};
    }
    return slices;
}

const GasSlices&
GasPlan::Phase(size_t phase, uint32_t sender) const
{
    return m_phases.at(phase).at(sender);
}

const GasSlices&
GasPlan::Fail(uint32_t sender) const
{
    return m_fails.at(sender);
}

GasPlanner::GasPlanner(const GasNetwork& network)
    : m_network(network)
{
}

std::vector<uint32_t>
GasPlanner::Roots(const std::vector<uint32_t>& hosts) const
{
    const Topology& topology = m_network.GetTopology();
    for (uint32_t host : hosts)
    {
        if (!m_network.IsServer(host))
        {
            throw ConfigError(fmt::format("switchtx: host {} of a transaction is not a server",
                                          host < topology.Hosts().size()
                                              ? topology.Node(topology.Hosts()[host]).name
                                              : std::to_string(host)));
        }
    }
    std::vector<uint32_t> roots;
    uint32_t level = std::numeric_limits<uint32_t>::max();
    for (uint32_t node : m_network.GasSwitches())
    {
        const bool coversAll = std::all_of(hosts.begin(), hosts.end(),
                                           [&](uint32_t h) { return m_network.IsBelow(node, h); });
        const uint32_t l = m_network.Level(node);
        if (!coversAll || (m_network.Scope() == GasScope::Root && l != m_network.TopLevel()))
        {
            continue;
        }
        if (l < level)
        {
            roots.clear();
            level = l;
        }
        if (l == level)
        {
            roots.push_back(node);
        }
    }
    if (roots.empty())
    {
        throw ConfigError(fmt::format("switchtx: no switch{} has all of {} below it",
                                      m_network.Scope() == GasScope::Root ? " of the top level"
                                                                          : "",
                                      HostNames(m_network, hosts)));
    }
    return roots;
}

GasPlan
GasPlanner::Plan(const GasTransaction& txn, uint32_t root) const
{
    const std::vector<uint32_t> hosts = txn.Hosts();
    return GasPlan(m_network, txn, CoordinationTree(m_network, root, hosts));
}

GasPlan
GasPlanner::Next(const GasTransaction& txn)
{
    const std::vector<uint32_t> roots = Roots(txn.Hosts());
    const uint64_t turn = m_nextTree[txn.client]++;
    return Plan(txn, roots[turn % roots.size()]);
}

} // namespace incsim::switchtx
