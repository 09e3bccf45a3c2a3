#ifndef INCSIM_TOPOLOGY_ROUTING_H
#define INCSIM_TOPOLOGY_ROUTING_H

#include "sim/schema/schema.h"
#include "sim/topology/topology.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace incsim
{

enum class RouteMetric
{
    Hops,  ///< shortest paths by hop count (up-down routing on multi-rooted trees)
    Delay, ///< shortest paths by total propagation delay (WAN)
};

/// How a switch spreads traffic over the equal-cost next hops of a route.
enum class EcmpMode
{
    PerFlow,  ///< hash of the 5-tuple: a flow stays on one path
    PerPacket ///< spraying: consecutive packets take consecutive members
};

/// /routing/metric and /routing/ecmp by their scenario names.
const Choices<RouteMetric>& RouteMetricChoices();
const Choices<EcmpMode>& EcmpModeChoices();

/// The set of egress ports on equal-cost shortest paths, for every (node, destination host).
/// Stored flat, so a lookup is two array reads. Hosts never forward: paths do not transit hosts.
class EcmpRoutes
{
  public:
    struct PortList
    {
        const uint32_t* data = nullptr;
        uint32_t size = 0;
        const uint32_t* begin() const { return data; }
        const uint32_t* end() const { return data + size; }
    };

    /// The largest table of (node, host) slots, 4 bytes each: 4 GiB (a k=48 fat-tree takes
    /// 3.1 GiB, k=64 would take 17 GiB).
    static constexpr size_t kMaxRouteSlots = size_t{1} << 30;

    EcmpRoutes() = default;
    /// Throws ConfigError when numNodes * numHosts exceeds kMaxRouteSlots.
    EcmpRoutes(uint32_t numNodes, uint32_t numHosts);

    /// Empty when dst is unreachable from node, or node is the destination itself.
    PortList NextHops(uint32_t node, uint32_t dstHost) const
    {
        const Group& group = m_groups[m_groupOfSlot[static_cast<size_t>(node) * m_numHosts + dstHost]];
        return {m_ports.data() + group.offset, group.size};
    }

    uint32_t NumNodes() const { return m_numNodes; }
    uint32_t NumHosts() const { return m_numHosts; }

    /// Used by ComputeEcmpRoutes: append the ports of (node, dst) in slot order.
    void Append(uint32_t node, uint32_t dstHost, const std::vector<uint32_t>& ports);

  private:
    uint32_t m_numNodes = 0;
    uint32_t m_numHosts = 0;
    struct Group
    {
        uint32_t offset = 0;
        uint32_t size = 0;
    };
    // Each (node, destination) slot names a group: a distinct port set, stored once. A fat-tree
    // has a handful of distinct sets, so a slot costs 4 bytes instead of a port list.
    std::vector<uint32_t> m_groupOfSlot; // numNodes * numHosts
    std::vector<Group> m_groups;
    std::vector<uint32_t> m_ports;
    // Build time only (cleared once every slot is filled).
    std::map<std::vector<uint32_t>, uint32_t> m_groupIds;
    std::vector<uint32_t> m_lastPorts;
    uint32_t m_lastGroup = 0;
};

/// Shortest-path ECMP next hops over the links and nodes that are up. `linkUp` and `nodeUp`
/// may be empty, meaning all up.
EcmpRoutes ComputeEcmpRoutes(const Topology& topology,
                             RouteMetric metric,
                             const std::vector<bool>& linkUp = {},
                             const std::vector<bool>& nodeUp = {});

/// Whether the routes form a DAG: the graph whose vertices are directed links and whose edges
/// join link (u->s) to link (s->v) whenever some route can enter s over (u->s) and leave over
/// (s->v). 1Pipe's barrier aggregation needs this to be acyclic.
struct DagCheck
{
    bool acyclic = true;
    /// On failure, a cycle as directed links, e.g. {"tor0->agg0", "agg0->tor1", ...}.
    std::vector<std::string> cycle;
};

DagCheck CheckRoutingDag(const Topology& topology, const EcmpRoutes& routes);

} // namespace incsim

#endif
