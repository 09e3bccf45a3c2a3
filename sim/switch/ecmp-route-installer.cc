#include "sim/switch/ecmp-route-installer.h"

#include "sim/core/rng.h"
#include "sim/net/headers.h"
#include "sim/topology/routing.h"

#include "p4/runtime/table.h"

namespace incsim
{

EcmpRouteInstaller::EcmpRouteInstaller(uint32_t nodeId, uint32_t numPorts, EcmpMode mode,
                                       uint64_t seed)
    : m_nodeId(nodeId),
      m_mode(mode),
      m_salt(static_cast<uint32_t>(Mix64(seed ^ (0x5157ULL << 32) ^ nodeId))),
      m_portUp(numPorts, true)
{
}

void
EcmpRouteInstaller::InstallRoutes(const EcmpRoutes& routes, p4rt::ControlPlane& control)
{
    p4rt::Table& routeTable = control.GetTable("MyIngress.ipv4_route");
    const p4rt::ActionId setGroup = routeTable.ActionByName("set_ecmp_group").id;
    routeTable.Clear();
    m_groupPorts.clear();
    std::map<std::vector<uint32_t>, uint32_t> groupIds;
    std::vector<uint32_t> ports;
    for (uint32_t dst = 0; dst < routes.NumHosts(); ++dst)
    {
        const auto hops = routes.NextHops(m_nodeId, dst);
        if (hops.size == 0)
        {
            continue;
        }
        ports.assign(hops.begin(), hops.end());
        auto [it, added] = groupIds.emplace(ports, static_cast<uint32_t>(m_groupPorts.size() + 1));
        if (added)
        {
            m_groupPorts.push_back(ports);
        }
        routeTable.Add({p4rt::MatchValue::Lpm(HostIpv4(dst), 32)}, setGroup, {it->second});
    }
    control.SetDefaultAction("MyIngress.ecmp_mode",
                             m_mode == EcmpMode::PerFlow ? "flow_hash" : "spray",
                             m_mode == EcmpMode::PerFlow ? p4rt::ActionArgs{{"salt", m_salt}}
                                                         : p4rt::ActionArgs{});
    WriteGroups(control);
}

void
EcmpRouteInstaller::PortStatusChanged(uint32_t port, bool up, p4rt::ControlPlane& control)
{
    if (port < m_portUp.size() && m_portUp[port] != up)
    {
        m_portUp[port] = up;
        WriteGroups(control);
    }
}

void
EcmpRouteInstaller::WriteGroups(p4rt::ControlPlane& control)
{
    p4rt::Table& groups = control.GetTable("MyIngress.ecmp_group");
    p4rt::Table& members = control.GetTable("MyIngress.ecmp_member");
    const p4rt::ActionId setSize = groups.ActionByName("set_group_size").id;
    const p4rt::ActionId setPort = members.ActionByName("set_port").id;
    groups.Clear();
    members.Clear();
    for (size_t i = 0; i < m_groupPorts.size(); ++i)
    {
        const uint32_t group = static_cast<uint32_t>(i + 1);
        uint32_t live = 0;
        for (uint32_t port : m_groupPorts[i])
        {
            if (m_portUp[port])
            {
                members.Add({p4rt::MatchValue::Exact(group), p4rt::MatchValue::Exact(live)},
                            setPort, {port});
                ++live;
            }
        }
        if (live > 0)
        {
            groups.Add({p4rt::MatchValue::Exact(group)}, setSize, {live});
        }
    }
}

} // namespace incsim
