#ifndef INCSIM_SWITCHTX_GAS_NETWORK_H
#define INCSIM_SWITCHTX_GAS_NETWORK_H

// The switches' side of SwitchTx's in-switch gather-and-scatter for one topology
// (docs/switchtx.md, "Control plane and coordination trees"): which switches take part, their
// switch ids, their levels above the servers, and what Configure installs in each switch's
// switchtx.p4 pipeline.
//
// Levels come from the graph, not from drawings: a switch's level is its hop distance to the
// nearest server (a ToR 1, an aggregation switch 2, a core 3). A switch's down ports lead to a
// server or to a switch one level lower that has servers below it; they are the ports a
// scatter can take. A switch takes part when it has servers below it.
//
// Configure installs, per switch (docs/switchtx.md has the why):
//   - MyIngress.switchtx_config: configure(switch_id, relay, mode). In scope Root, every switch
//     below the top level is a relay: it carries messages to and from the root, stateless.
//   - the scatter groups, preloaded: group g is the bitmap g over the switch's down ports
//     (bit i: its i-th down port in port order), 1..2^d - 1; a replica to a server has
//     replication id host index + 1, a replica to a switch 0.
//   - MyEgress.switchtx_receivers: rid host index + 1 -> the server's IPv4 address, for the
//     servers on the switch's own ports.
//
// Limits, each a ConfigError naming the switch: at most 255 switches take part (8-bit ids), at
// most 16 down ports per switch (16-bit group ids), host indices below 65535 (16-bit rids).

#include "switchtx-contract.h"

#include "sim/topology/topology.h"

#include <cstdint>
#include <vector>

namespace incsim
{
class P4Pipeline;
class SwitchDevice;
namespace p4rt
{
class ControlPlane;
}
} // namespace incsim

namespace incsim::switchtx
{

/// Who coordinates a transaction: the whole tree (+Tree-GaS), or the root alone (+GaS, Fig. 10:
/// only the top switches are programmable; the others relay).
enum class GasScope
{
    Tree,
    Root,
};

class GasNetwork
{
  public:
    static constexpr uint32_t kMaxSwitches = 255;
    static constexpr uint32_t kMaxDownPorts = 16;

    /// `servers`: host indices of the hosts that run SwitchTx. Throws ConfigError when the
    /// topology exceeds a limit above, or a server index is not a host.
    GasNetwork(const Topology& topology, std::vector<uint32_t> servers, GasScope scope);

    /// Installs what the header comment lists into `device`'s pipeline (a switchtx.p4 one).
    /// `mode`: contract MODE_*; anything but MODE_NORMAL is a negative control for tests.
    void Configure(P4Pipeline& pipeline, const SwitchDevice& device,
                   uint8_t mode = p4gen::switchtx::contract::MODE_NORMAL) const;
    void Configure(p4rt::ControlPlane& control, uint32_t node, uint8_t mode) const;

    const Topology& GetTopology() const { return m_topology; }
    GasScope Scope() const { return m_scope; }
    const std::vector<uint32_t>& Servers() const { return m_servers; }
    bool IsServer(uint32_t host) const { return host < m_isServer.size() && m_isServer[host]; }

    /// 0 for a switch that takes no part (and for hosts).
    uint8_t SwitchId(uint32_t node) const { return m_nodes[node].id; }
    /// Hop distance to the nearest server; 0 for hosts and for switches that take no part.
    uint32_t Level(uint32_t node) const { return m_nodes[node].level; }
    /// The highest level of a switch that takes part.
    uint32_t TopLevel() const { return m_topLevel; }
    /// A relay only carries messages (scope Root, below the top level).
    bool IsRelay(uint32_t node) const;
    /// The switch's down ports, in port order: bit i of a scatter group is DownPorts()[i].
    const std::vector<uint32_t>& DownPorts(uint32_t node) const { return m_nodes[node].downPorts; }
    /// The scatter-group bit of `port` of `node`; throws std::logic_error if not a down port.
    uint16_t DownBit(uint32_t node, uint32_t port) const;
    /// Whether server `host` is below switch `node` (reachable over down ports).
    bool IsBelow(uint32_t node, uint32_t host) const
    {
        return !m_nodes[node].below.empty() && m_nodes[node].below[host];
    }
    /// Switches that take part, in node order.
    const std::vector<uint32_t>& GasSwitches() const { return m_gasSwitches; }

  private:
    struct NodeState
    {
        uint8_t id = 0;
        uint32_t level = 0;
        std::vector<uint32_t> downPorts;
        std::vector<bool> below; // by host index; empty for hosts
    };

    const Topology& m_topology;
    std::vector<uint32_t> m_servers;
    std::vector<bool> m_isServer; // by host index
    GasScope m_scope;
    std::vector<NodeState> m_nodes; // by node id
    std::vector<uint32_t> m_gasSwitches;
    uint32_t m_topLevel = 0;
};

} // namespace incsim::switchtx

#endif
