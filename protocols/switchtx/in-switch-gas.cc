#include "protocols/switchtx/in-switch-gas.h"

#include "protocols/switchtx/switchtx-wire.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace incsim::switchtx
{

namespace
{

std::vector<uint32_t>
AllHosts(const Topology& topology)
{
    std::vector<uint32_t> hosts(topology.Hosts().size());
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        hosts[h] = h;
    }
    return hosts;
}

std::vector<uint32_t>
Union(std::vector<uint32_t> a, const std::vector<uint32_t>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    return a;
}

/// The attempt's gathered phases in order, as the control plane describes a transaction.
GasTransaction
Describe(const TxnPlan& plan, std::array<uint8_t, kPhases>& index)
{
    index.fill(InSwitchPlan::kNoPhase);
    GasTransaction txn;
    txn.client = plan.clientHost;
    txn.failReceivers = Union(plan.writePrimaries, plan.writeBackups);
    Phase phase = plan.readOnly ? Phase::VersionCopy : Phase::Lock;
    while (phase != Phase::Done && phase != Phase::ValidateRead)
    {
        const Phase next = NextPhase(plan, phase);
        index[static_cast<size_t>(phase)] = static_cast<uint8_t>(txn.phases.size());
        GasPhase& gas = txn.phases.emplace_back();
        gas.senders = Members(plan, phase);
        if (next != Phase::Done)
        {
            gas.receivers = Members(plan, next);
        }
        phase = next;
    }
    return txn;
}

} // namespace

InSwitchGas::InSwitchGas(const Topology& topology, GasScope scope, int64_t pipelineDelayPs)
    : m_network(topology, AllHosts(topology), scope),
      m_planner(m_network),
      m_pipelineDelayPs(pipelineDelayPs),
      m_minRateBps(std::numeric_limits<uint64_t>::max())
{
    for (uint32_t l = 0; l < topology.NumLinks(); ++l)
    {
        const LinkParams& link = topology.Link(l).params;
        m_maxLinkDelayPs = std::max(m_maxLinkDelayPs, link.delayNs * kPsPerNs);
        m_minRateBps = std::min(m_minRateBps, link.rateBps);
    }
}

const GasSlices&
InSwitchGas::Slices(const TxnPlan& plan, MsgType type, uint32_t sender) const
{
    const InSwitchPlan& gas = *plan.gas;
    if (type == MsgType::Fail)
    {
        return gas.plan.Fail(sender);
    }
    const uint8_t index = gas.index[static_cast<size_t>(CompletedBy(type))];
    if (index == InSwitchPlan::kNoPhase)
    {
        throw std::logic_error("switchtx: a reply for a phase the attempt does not have");
    }
    return gas.plan.Phase(index, sender);
}

const std::vector<uint32_t>&
InSwitchGas::GroupHosts(uint16_t) const
{
    throw std::logic_error("switchtx: in-switch GaS scatters in the switches");
}

std::optional<int64_t>
InSwitchGas::Prepare(TxnPlan& plan, GasSlices& init)
{
    std::array<uint8_t, kPhases> index{};
    const GasTransaction txn = Describe(plan, index);
    std::shared_ptr<InSwitchPlan> gas;
    try
    {
        gas = std::make_shared<InSwitchPlan>(InSwitchPlan{m_planner.Next(txn), index});
    }
    catch (const ConfigError&)
    {
        // More tree switches than the header has slices for (a wide transaction on a large
        // fat-tree): this attempt cannot be gathered in the switches.
        return std::nullopt;
    }
    init = gas->plan.Init();
    // The init climbs the client's path to the root, then descends to the deepest tree switch
    // ("the lock phase must not start before the init has had time to reach every tree
    // switch"): links = the client's own, its path's, the deepest descent's.
    const CoordinationTree& tree = gas->plan.Tree();
    size_t depth = 0;
    for (uint32_t host : txn.Hosts())
    {
        depth = std::max(depth, tree.PathOf(host).size());
    }
    const size_t switches = tree.PathOf(txn.client).size() + depth - 1;
    plan.gas = std::move(gas);
    return static_cast<int64_t>(switches + 1) * HopPs();
}

uint32_t
InSwitchGas::PlanBytes(const TxnPlan& plan, uint32_t host) const
{
    // The host's slices for each phase it replies in, and for a fail.
    uint32_t sets = 1;
    for (size_t phase = 0; phase < plan.gas->index.size(); ++phase)
    {
        sets += plan.gas->index[phase] != InSwitchPlan::kNoPhase &&
                Contains(Members(plan, static_cast<Phase>(phase)), host);
    }
    return sets * GasSlices::kWireBytes;
}

int64_t
InSwitchGas::HopPs() const
{
    constexpr uint64_t kFrameBits =
        (ControlHeader::kBytes + HostHeader::kBytes + 14 + 20 + 8 + 4) * 8;
    const int64_t serializationPs =
        m_minRateBps == 0 ? 0
                          : static_cast<int64_t>(kFrameBits * 1'000'000'000'000 / m_minRateBps);
    return m_maxLinkDelayPs + serializationPs + m_pipelineDelayPs;
}

} // namespace incsim::switchtx
