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
/// init), and the slices it carries. The hosts' code is the same whoever gathers; only this
/// differs. In-server GaS (InServerGas) sends every reply to a gather server, whose thread
/// runs Table 1 in software (GasEngine) on the one slice filled here; in-switch GaS
/// (InSwitchGas, the control plane's trees) sends them to the client, through the tree's
/// switches, with a slice per switch, which depends on the sender (its path to the root).
class GasRoute
{
  public:
    virtual ~GasRoute() = default;
    /// The host a control message of `clientHost`'s transaction goes to.
    virtual uint32_t GatherHost(uint32_t clientHost) const = 0;
    /// Called by the client once the attempt's participants are known, before its lock
    /// phase: computes, once per attempt, the slices its replies and fails carry (they ship
    /// with the plan, [D] 7) and fills the init's slices. Returns how long after sending the
    /// init the lock phase may start, or nullopt if the attempt cannot be gathered
    /// (in-switch: its tree does not fit the control header), when the client drives it by
    /// RPC. In-server's init goes out before the plan exists and carries no slice.
    virtual std::optional<int64_t> Prepare(TxnPlan& plan, GasSlices& init) = 0;
    /// What `sender`'s reply of `type` (a gathered type or fail) to a prepared `plan` carries.
    virtual const GasSlices& Slices(const TxnPlan& plan, MsgType type,
                                    uint32_t sender) const = 0;
    /// Bytes of coordination data the lock-phase message to `host` carries besides the plan.
    virtual uint32_t PlanBytes(const TxnPlan& plan, uint32_t host) const { return 0; }
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
    /// Fills TxnPlan::replySlices and failSlices (every sender's are the same).
    std::optional<int64_t> Prepare(TxnPlan& plan, GasSlices& init) override;
    const GasSlices& Slices(const TxnPlan& plan, MsgType type, uint32_t sender) const override;
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
