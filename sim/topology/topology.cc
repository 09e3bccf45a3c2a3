#include "sim/topology/topology.h"

#include "sim/core/units.h"

#include <boost/graph/graphviz.hpp>
#include <boost/property_map/function_property_map.hpp>

#include <limits>
#include <ostream>
#include <stdexcept>

namespace incsim
{
namespace
{

constexpr uint32_t kNotHost = std::numeric_limits<uint32_t>::max();

// A DOT double-quoted string; node names come from user files and may hold anything.
std::string
Quote(const std::string& text)
{
    std::string out = "\"";
    for (char c : text)
    {
        if (c == '"' || c == '\\')
        {
            out += '\\';
        }
        out += c;
    }
    out += '"';
    return out;
}

} // namespace

uint32_t
Topology::AddNode(std::string name, NodeKind kind, int layer, int group)
{
    if (name.empty())
    {
        throw std::invalid_argument("node name must not be empty");
    }
    auto id = static_cast<uint32_t>(m_nodes.size());
    if (!m_nameIndex.emplace(name, id).second)
    {
        throw std::invalid_argument("duplicate node name '" + name + "'");
    }
    auto vertex = boost::add_vertex(NodeInfo{std::move(name), kind, layer, group}, m_graph);
    (void)vertex; // equals id: vertices are a vecS
    m_nodes.emplace_back();
    if (kind == NodeKind::Host)
    {
        m_hostIndex.push_back(static_cast<uint32_t>(m_hosts.size()));
        m_hosts.push_back(id);
    }
    else
    {
        m_hostIndex.push_back(kNotHost);
        m_switches.push_back(id);
    }
    return id;
}

uint32_t
Topology::AddLink(uint32_t a, uint32_t b, const LinkParams& params)
{
    if (a >= m_nodes.size() || b >= m_nodes.size())
    {
        throw std::out_of_range("AddLink: no such node");
    }
    if (a == b)
    {
        throw std::invalid_argument("link from '" + m_graph[a].name + "' to itself");
    }
    auto id = static_cast<uint32_t>(m_links.size());
    LinkInfo link;
    link.a = a;
    link.b = b;
    link.portA = static_cast<uint32_t>(m_nodes[a].size());
    link.portB = static_cast<uint32_t>(m_nodes[b].size());
    link.params = params;
    m_nodes[a].push_back(PortPeer{id, b, link.portB});
    m_nodes[b].push_back(PortPeer{id, a, link.portA});
    m_links.push_back(link);
    boost::add_edge(a, b, EdgeProps{id}, m_graph);
    return id;
}

uint32_t
Topology::HostIndex(uint32_t node) const
{
    if (node >= m_hostIndex.size() || m_hostIndex[node] == kNotHost)
    {
        throw std::out_of_range("HostIndex: node " + std::to_string(node) + " is not a host");
    }
    return m_hostIndex[node];
}

std::optional<uint32_t>
Topology::FindNode(std::string_view name) const
{
    auto it = m_nameIndex.find(name);
    if (it == m_nameIndex.end())
    {
        return std::nullopt;
    }
    return it->second;
}

std::optional<uint32_t>
Topology::FindLink(uint32_t a, uint32_t b) const
{
    if (a >= m_nodes.size() || b >= m_nodes.size())
    {
        return std::nullopt;
    }
    // Ports are numbered in link order, so the first match is the lowest link id.
    for (const PortPeer& peer : m_nodes[a])
    {
        if (peer.peerNode == b)
        {
            return peer.link;
        }
    }
    return std::nullopt;
}

void
Topology::WriteGraphviz(std::ostream& out) const
{
    using Vertex = Graph::vertex_descriptor;
    using Edge = Graph::edge_descriptor;

    // Names as DOT ids keep the output readable; boost quotes them when needed.
    auto names = boost::make_function_property_map<Vertex, std::string>(
        [this](Vertex v) { return m_graph[v].name; });

    auto vertexWriter = [this](std::ostream& os, Vertex v) {
        const NodeInfo& node = m_graph[v];
        os << "[label=" << Quote(node.name)
           << ", shape=" << (node.kind == NodeKind::Switch ? "box" : "ellipse") << "]";
    };
    auto edgeWriter = [this](std::ostream& os, Edge e) {
        const LinkInfo& link = m_links[m_graph[e].link];
        // Port numbers sit at the ends of the edge; source(e) is link.a as added.
        os << "[label="
           << Quote(FormatRate(link.params.rateBps) + " " + FormatDuration(link.params.delayNs))
           << ", taillabel=" << Quote(std::to_string(link.portA))
           << ", headlabel=" << Quote(std::to_string(link.portB)) << "]";
    };
    auto graphWriter = [this](std::ostream& os) {
        // Hosts at the bottom, core switches at the top.
        os << "rankdir=BT;\nnode [fontsize=10];\nedge [fontsize=8];\n";
        // One rank per layer, so trees draw as trees.
        int maxLayer = 0;
        for (uint32_t id = 0; id < m_nodes.size(); ++id)
        {
            maxLayer = std::max(maxLayer, m_graph[id].layer);
        }
        for (int layer = 0; layer <= maxLayer; ++layer)
        {
            std::string members;
            for (uint32_t id = 0; id < m_nodes.size(); ++id)
            {
                if (m_graph[id].layer == layer)
                {
                    members += " " + Quote(m_graph[id].name) + ";";
                }
            }
            if (!members.empty())
            {
                os << "{rank=same;" << members << "}\n";
            }
        }
    };
    boost::write_graphviz(out, m_graph, vertexWriter, edgeWriter, graphWriter, names);
}

} // namespace incsim
