#include "sim/switch/l3-ecmp-pipeline.h"

#include "sim/net/headers.h"
#include "sim/topology/routing.h"

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
    m_groups.assign(routes.NumHosts(), Group{});
    m_ports.clear();
    for (uint32_t dst = 0; dst < routes.NumHosts(); ++dst)
    {
        auto hops = routes.NextHops(m_nodeId, dst);
        m_groups[dst] = Group{static_cast<uint32_t>(m_ports.size()), hops.size};
        m_ports.insert(m_ports.end(), hops.begin(), hops.end());
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
    m_liveGroups.assign(m_groups.size(), Group{});
    m_livePorts.clear();
    for (size_t dst = 0; dst < m_groups.size(); ++dst)
    {
        uint32_t offset = static_cast<uint32_t>(m_livePorts.size());
        for (uint32_t i = 0; i < m_groups[dst].size; ++i)
        {
            uint32_t port = m_ports[m_groups[dst].offset + i];
            if (m_portUp[port])
            {
                m_livePorts.push_back(port);
            }
        }
        m_liveGroups[dst] = Group{offset, static_cast<uint32_t>(m_livePorts.size()) - offset};
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
    if (dst >= m_liveGroups.size() || m_liveGroups[dst].size == 0)
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
    const Group& group = m_liveGroups[dst];
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
