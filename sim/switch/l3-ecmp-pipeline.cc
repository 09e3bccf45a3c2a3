#include "sim/switch/l3-ecmp-pipeline.h"

#include "sim/net/headers.h"
#include "sim/topology/routing.h"

#include <map>

namespace incsim
{

L3EcmpPipeline::L3EcmpPipeline(uint32_t nodeId, uint32_t numPorts, EcmpMode mode, uint64_t seed)
    : m_nodeId(nodeId),
      m_mode(mode),
      m_salt(static_cast<uint32_t>(Mix64(seed ^ (0x5157ULL << 32) ^ nodeId))),
      m_rng(seed, "ecmp-spray", nodeId),
      m_portUp(numPorts, true)
{
}

void
L3EcmpPipeline::InstallRoutes(const EcmpRoutes& routes)
{
    m_groupOfHost.assign(routes.NumHosts(), kNoGroup);
    m_groupPorts.clear();
    std::map<std::vector<uint32_t>, uint32_t> groupIds;
    std::vector<uint32_t> ports;
    for (uint32_t dst = 0; dst < routes.NumHosts(); ++dst)
    {
        auto hops = routes.NextHops(m_nodeId, dst);
        if (hops.size == 0)
        {
            continue;
        }
        ports.assign(hops.begin(), hops.end());
        auto [it, added] = groupIds.emplace(ports, static_cast<uint32_t>(m_groupPorts.size()));
        if (added)
        {
            m_groupPorts.push_back(ports);
        }
        m_groupOfHost[dst] = it->second;
    }
    RebuildLiveGroups();
}

void
L3EcmpPipeline::PortStatusChanged(uint32_t port, bool up)
{
    if (port < m_portUp.size() && m_portUp[port] != up)
    {
        m_portUp[port] = up;
        RebuildLiveGroups();
    }
}

void
L3EcmpPipeline::RebuildLiveGroups()
{
    m_liveGroups.assign(m_groupPorts.size(), Group{});
    m_livePorts.clear();
    for (size_t group = 0; group < m_groupPorts.size(); ++group)
    {
        uint32_t offset = static_cast<uint32_t>(m_livePorts.size());
        for (uint32_t port : m_groupPorts[group])
        {
            if (m_portUp[port])
            {
                m_livePorts.push_back(port);
            }
        }
        m_liveGroups[group] = Group{offset, static_cast<uint32_t>(m_livePorts.size()) - offset};
    }
}

void
L3EcmpPipeline::Ingress(Frame& frame)
{
    StandardMetadata& meta = frame.meta;
    if (frame.length < kUdpFrameOverhead || LoadBe16(frame.data + 12) != kEtherTypeIpv4)
    {
        meta.egressSpec = kDropPort;
        meta.dropReason = DropReason::Pipeline;
        return;
    }
    uint32_t dst = LoadBe32(frame.data + kIpv4DstOffset) - kHostIpv4Base;
    uint32_t groupId = dst < m_groupOfHost.size() ? m_groupOfHost[dst] : kNoGroup;
    if (groupId == kNoGroup || m_liveGroups[groupId].size == 0)
    {
        meta.egressSpec = kDropPort;
        meta.dropReason = DropReason::NoRoute;
        return;
    }
    if (DecrementTtl(frame) == 0)
    {
        meta.egressSpec = kDropPort;
        meta.dropReason = DropReason::TtlExpired;
        return;
    }
    // The switch clears the metadata at ingress; hosts mark a frame's queue priority in its
    // DSCP field (see HostNode::SendUdp), so restore it here. Egress ports clamp it.
    meta.priority = static_cast<uint8_t>(frame.data[kIpv4Offset + 1] >> 2);
    const Group& group = m_liveGroups[groupId];
    uint32_t pick = 0;
    if (group.size > 1)
    {
        pick = m_mode == EcmpMode::PerFlow
                   ? FlowHash(frame, m_salt) % group.size
                   : static_cast<uint32_t>(m_rng.UniformInt(group.size));
    }
    meta.egressSpec = m_livePorts[group.offset + pick];
}

} // namespace incsim
