#ifndef INCSIM_SWITCHTX_GAS_ROUTE_H
#define INCSIM_SWITCHTX_GAS_ROUTE_H

#include "protocols/switchtx/switchtx-txn.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace incsim::switchtx
{

/// The seam between the hosts and whoever gathers and scatters their control messages
/// (docs/switchtx.md, "Hosts"): where a participant sends its phase reply (and a client its
/// init), and the slices it fills in. The hosts' code is the same whoever gathers; only this
/// differs. In-server GaS (InServerGas) sends every reply to a gather server, whose thread
/// runs Table 1 in software (GasEngine) on the one slice filled here; in-switch GaS (a later
/// step: the control plane's trees) sends them to the client, through the tree's switches,
/// with a slice per switch.
class GasRoute
{
  public:
    virtual ~GasRoute() = default;
    /// The host a control message of `clientHost`'s transaction goes to.
    virtual uint32_t GatherHost(uint32_t clientHost) const = 0;
    /// Fills the plan's slices (TxnPlan::replySlices, failSlices) once its shape is known:
    /// what each reply, and a fail, carries.
    virtual void Prepare(TxnPlan& plan) = 0;
    /// In-server: the hosts a scatter group stands for (the preloaded multicast groups'
    /// software twin); in-switch GaS never asks.
    virtual const std::vector<uint32_t>& GroupHosts(uint16_t group) const = 0;
};

/// In-server GaS: a gather server per transaction (one named host, or the client's own
/// server), which is the root of a one-node tree: slice 0, threshold = the phase's
/// participants, scatter group = the next phase's hosts (fail: the write participants and the
/// client).
class InServerGas : public GasRoute
{
  public:
    /// `gatherHost`: the one gather server, or none for the client's own.
    explicit InServerGas(std::optional<uint32_t> gatherHost);

    uint32_t GatherHost(uint32_t clientHost) const override;
    void Prepare(TxnPlan& plan) override;
    const std::vector<uint32_t>& GroupHosts(uint16_t group) const override;

    static constexpr uint8_t kSwitchId = 1;  ///< the gather server's slice

  private:
    uint16_t GroupOf(std::vector<uint32_t> hosts);
    static GasSlices OneSlice(uint16_t threshold, uint16_t group);

    std::optional<uint32_t> m_gatherHost;
    std::map<std::vector<uint32_t>, uint16_t> m_groupIds;
    std::vector<std::vector<uint32_t>> m_groups;  ///< by id - 1
};

} // namespace incsim::switchtx

#endif
