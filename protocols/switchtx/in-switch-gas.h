#ifndef INCSIM_SWITCHTX_IN_SWITCH_GAS_H
#define INCSIM_SWITCHTX_IN_SWITCH_GAS_H

#include "protocols/switchtx/control-plane/coordination-tree.h"
#include "protocols/switchtx/control-plane/gas-network.h"
#include "protocols/switchtx/gas-route.h"

#include <array>
#include <cstdint>
#include <memory>

namespace incsim::switchtx
{

/// An attempt's coordination in the switches: its tree's slices for every participant and
/// phase, which the client computes and ships with the lock-phase messages ([D] 7), and which
/// of the tree's phases each host-side Phase is.
struct InSwitchPlan
{
    static constexpr uint8_t kNoPhase = 0xFF;
    GasPlan plan;
    std::array<uint8_t, kPhases> index;  ///< by Phase; kNoPhase
};

/// In-switch GaS (+GaS in scope Root, +Tree-GaS in scope Tree): the switches of a
/// coordination tree gather and scatter; the hosts address every control message to the
/// transaction's client, through the tree, with a slice per switch from the control plane
/// (GasPlanner). The init goes from the client to its own address: up to the root untouched,
/// then installed top down at every tree switch.
class InSwitchGas : public GasRoute
{
  public:
    /// Every host is a server. Throws ConfigError when the control plane rejects the topology.
    InSwitchGas(const Topology& topology, GasScope scope, int64_t pipelineDelayPs);

    uint32_t GatherHost(uint32_t clientHost) const override { return clientHost; }
    const GasSlices& Slices(const TxnPlan& plan, MsgType type, uint32_t sender) const override;
    const std::vector<uint32_t>& GroupHosts(uint16_t group) const override;
    std::optional<int64_t> Prepare(TxnPlan& plan, GasSlices& init) override;
    uint32_t PlanBytes(const TxnPlan& plan, uint32_t host) const override;

    const GasNetwork& Network() const { return m_network; }

  private:
    /// An upper bound on one hop of an unqueued control message: the slowest link's delay and
    /// serialization, and a switch's pipeline.
    int64_t HopPs() const;

    GasNetwork m_network;
    GasPlanner m_planner;
    int64_t m_pipelineDelayPs;
    int64_t m_maxLinkDelayPs = 0;
    uint64_t m_minRateBps = 0;
};

} // namespace incsim::switchtx

#endif
