#include "protocols/switchtx/gas-route.h"

#include "sim/core/diagnostics.h"

#include <algorithm>

namespace incsim::switchtx
{

InServerGas::InServerGas(std::optional<uint32_t> gatherHost)
    : m_gatherHost(gatherHost)
{
}

uint32_t
InServerGas::GatherHost(uint32_t clientHost) const
{
    return m_gatherHost.value_or(clientHost);
}

GasSlices
InServerGas::OneSlice(uint16_t threshold, uint16_t group)
{
    GasSlices slices{};
    slices.path[0] = GasSlice{kSwitchId, threshold, GasSlice::kNoParent, group};
    return slices;
}

std::optional<int64_t>
InServerGas::Prepare(TxnPlan& plan, GasSlices&)
{
    for (size_t p = 0; p < kPhases; ++p)
    {
        const auto done = static_cast<Phase>(p);
        const Phase next = NextPhase(plan, done);
        plan.replySlices[p] =
            OneSlice(static_cast<uint16_t>(Members(plan, done).size()),
                     next == Phase::Done ? 0 : GroupOf(Members(plan, next)));
    }
    std::vector<uint32_t> hosts = plan.writePrimaries;
    hosts.insert(hosts.end(), plan.writeBackups.begin(), plan.writeBackups.end());
    hosts.push_back(plan.clientHost);
    plan.failSlices = OneSlice(1, GroupOf(std::move(hosts)));
    return 0;
}

const GasSlices&
InServerGas::Slices(const TxnPlan& plan, MsgType type, uint32_t) const
{
    return type == MsgType::Fail ? plan.failSlices
                                 : plan.replySlices[static_cast<size_t>(CompletedBy(type))];
}

const std::vector<uint32_t>&
InServerGas::GroupHosts(uint16_t group) const
{
    static const std::vector<uint32_t> none;
    return group == 0 || group > m_groups.size() ? none : m_groups[group - 1];
}

uint16_t
InServerGas::GroupOf(std::vector<uint32_t> hosts)
{
    std::sort(hosts.begin(), hosts.end());
    hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
    const auto it = m_groupIds.find(hosts);
    if (it != m_groupIds.end())
    {
        return it->second;
    }
    if (m_groups.size() >= 0xFFFF)
    {
        throw ConfigError("switchtx: more than 65535 distinct scatter groups (the 16-bit "
                          "scatter_group of a slice)");
    }
    m_groups.push_back(hosts);
    const auto id = static_cast<uint16_t>(m_groups.size());
    m_groupIds.emplace(std::move(hosts), id);
    return id;
}

} // namespace incsim::switchtx
