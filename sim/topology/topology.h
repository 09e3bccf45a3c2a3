#ifndef INCSIM_TOPOLOGY_TOPOLOGY_H
#define INCSIM_TOPOLOGY_TOPOLOGY_H

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace incsim
{

enum class NodeKind
{
    Host,
    Switch
};

struct NodeInfo
{
    std::string name;
    NodeKind kind = NodeKind::Switch;
    /// 0 for hosts, 1 for edge/ToR/leaf, 2 for aggregation/spine, 3 for core; used by drawings
    /// and by tests of path lengths, never by routing.
    int layer = 0;
    /// Pod, rack or site the node belongs to, or -1.
    int group = -1;
};

struct LinkParams
{
    uint64_t rateBps = 0;
    int64_t delayNs = 0;
    /// Egress buffer at each end of the link.
    uint64_t bufferBytes = 0;
    double lossRate = 0;
};

struct LinkInfo
{
    uint32_t a = 0;
    uint32_t b = 0;
    /// Port numbers at a and at b; ports are numbered 0.. in the order links are added.
    uint32_t portA = 0;
    uint32_t portB = 0;
    LinkParams params;
};

/// An undirected multigraph of hosts and switches with numbered ports, stored as a
/// Boost.Graph adjacency list. Node ids and link ids are dense indices in insertion order.
class Topology
{
  public:
    struct EdgeProps
    {
        uint32_t link = 0;
    };
    using Graph = boost::adjacency_list<boost::vecS,
                                        boost::vecS,
                                        boost::undirectedS,
                                        NodeInfo,
                                        EdgeProps>;

    struct PortPeer
    {
        uint32_t link = 0;
        uint32_t peerNode = 0;
        uint32_t peerPort = 0;
    };

    /// Node names must be unique; throws std::invalid_argument otherwise.
    uint32_t AddNode(std::string name, NodeKind kind, int layer, int group = -1);
    uint32_t AddLink(uint32_t a, uint32_t b, const LinkParams& params);

    size_t NumNodes() const { return m_nodes.size(); }
    size_t NumLinks() const { return m_links.size(); }
    const NodeInfo& Node(uint32_t id) const { return m_graph[id]; }
    const LinkInfo& Link(uint32_t id) const { return m_links[id]; }
    LinkInfo& MutableLink(uint32_t id) { return m_links[id]; }

    /// Host node ids in insertion order; a host's position here is its host index, which
    /// also fixes its addresses (see sim/net/headers.h).
    const std::vector<uint32_t>& Hosts() const { return m_hosts; }
    const std::vector<uint32_t>& Switches() const { return m_switches; }
    /// Host index of a host node; throws std::out_of_range for switches.
    uint32_t HostIndex(uint32_t node) const;

    uint32_t NumPorts(uint32_t node) const { return static_cast<uint32_t>(m_nodes[node].size()); }
    const PortPeer& Peer(uint32_t node, uint32_t port) const { return m_nodes[node][port]; }

    std::optional<uint32_t> FindNode(std::string_view name) const;
    /// The first link between a and b, in either direction.
    std::optional<uint32_t> FindLink(uint32_t a, uint32_t b) const;

    const Graph& GetGraph() const { return m_graph; }

    /// Graphviz via boost::write_graphviz: switches as boxes, hosts as ellipses, links labelled
    /// with rate and delay.
    void WriteGraphviz(std::ostream& out) const;

  private:
    Graph m_graph;
    std::vector<std::vector<PortPeer>> m_nodes; // per node, per port
    std::vector<LinkInfo> m_links;
    std::vector<uint32_t> m_hosts;
    std::vector<uint32_t> m_switches;
    std::vector<uint32_t> m_hostIndex; // per node; UINT32_MAX for switches
    std::map<std::string, uint32_t, std::less<>> m_nameIndex; // FindNode with a string_view
};

} // namespace incsim

#endif
