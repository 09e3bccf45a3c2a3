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

namespace
{

/// Calls `add(first, prefixLength)` for the aligned blocks that exactly cover the host indices
/// [first, last], largest first.
template <typename Add>
void
ForEachPrefix(uint64_t first, uint64_t last, Add add)
{
    while (first <= last)
    {
        unsigned bits = 0;
        while (bits < 32 && (first & ((uint64_t{2} << bits) - 1)) == 0 &&
               first + (uint64_t{2} << bits) - 1 <= last)
        {
            ++bits;
        }
        add(first, 32 - bits);
        first += uint64_t{1} << bits;
    }
}

} // namespace

void
EcmpRouteInstaller::InstallRoutes(const EcmpRoutes& routes, p4rt::ControlPlane& control)
{
    // Each destination's ECMP group (0: unreachable), with one group per distinct port set.
    m_groupPorts.clear();
    std::map<std::vector<uint32_t>, uint32_t> groupIds;
    std::vector<uint32_t> groupOf(routes.NumHosts(), 0);
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
        groupOf[dst] = it->second;
    }

    // Aggregated routes: the most common group covers the smallest prefix holding every host
    // address; every run of consecutive hosts routed otherwise (or not at all) gets the few
    // aligned prefixes that cover it exactly, and so do the unused addresses under the cover.
    // A fat-tree's switches end up with one entry per edge switch or pod below them, plus the
    // cover, and two prefix lengths to probe.
    p4rt::Table& table = control.GetTable("MyIngress.ipv4_route");
    const p4rt::ActionId setGroup = table.ActionByName("set_ecmp_group").id;
    const p4rt::ActionId noRoute = table.ActionByName("drop_no_route").id;
    table.Clear();
    const uint64_t hosts = routes.NumHosts();
    std::vector<uint64_t> frequency(m_groupPorts.size() + 1, 0);
    for (uint32_t group : groupOf)
    {
        ++frequency[group];
    }
    uint32_t cover = 0;
    for (uint32_t group = 1; group < frequency.size(); ++group)
    {
        if (frequency[group] > frequency[cover] || cover == 0)
        {
            cover = group;
        }
    }
    const auto add = [&](uint64_t firstHost, unsigned length, uint32_t group) {
        const auto address = static_cast<uint32_t>(HostIpv4(static_cast<uint32_t>(firstHost)));
        if (group == 0)
        {
            table.Add({p4rt::MatchValue::Lpm(address, length)}, noRoute, {});
        }
        else
        {
            table.Add({p4rt::MatchValue::Lpm(address, length)}, setGroup, {group});
        }
    };
    if (cover == 0)
    {
        return;  // nothing is reachable: every lookup misses and drops
    }
    unsigned coverBits = 0;
    while ((uint64_t{1} << coverBits) < hosts)
    {
        ++coverBits;
    }
    add(0, 32 - coverBits, cover);
    const uint64_t coverEnd = uint64_t{1} << coverBits;
    for (uint64_t first = 0; first < coverEnd;)
    {
        const uint32_t group = first < hosts ? groupOf[first] : 0;
        uint64_t last = first;
        while (last + 1 < coverEnd && (last + 1 < hosts ? groupOf[last + 1] : 0) == group)
        {
            ++last;
        }
        if (group != cover)
        {
            ForEachPrefix(first, last, [&](uint64_t start, unsigned length) {
                add(start, length, group);
            });
        }
        first = last + 1;
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
