#ifndef INCSIM_SWITCH_ECMP_ROUTE_INSTALLER_H
#define INCSIM_SWITCH_ECMP_ROUTE_INSTALLER_H

#include "sim/switch/p4-pipeline.h"
#include "sim/topology/routing.h"

#include <cstdint>
#include <map>
#include <vector>

namespace incsim
{

/// The routing controller of one switch running p4/forward.p4 (or any program with the same
/// tables): writes the routes computed on the topology into MyIngress.ipv4_route,
/// MyIngress.ecmp_group and MyIngress.ecmp_member (one group per distinct set of live ports),
/// and sets MyIngress.ecmp_mode's default action. Destinations that share a port set share a
/// group, and routes are aggregated: the most common group gets one prefix covering every
/// host, and the other hosts the aligned prefixes that cover them exactly.
/// When a port goes down its groups shrink at once (local fast failover), until routes are
/// recomputed.
class EcmpRouteInstaller : public RouteInstaller
{
  public:
    EcmpRouteInstaller(uint32_t nodeId, uint32_t numPorts, EcmpMode mode, uint64_t seed);

    void InstallRoutes(const EcmpRoutes& routes, p4rt::ControlPlane& control) override;
    void PortStatusChanged(uint32_t port, bool up, p4rt::ControlPlane& control) override;

  private:
    void WriteGroups(p4rt::ControlPlane& control);

    uint32_t m_nodeId;
    EcmpMode m_mode;
    uint32_t m_salt;
    std::vector<bool> m_portUp;
    std::vector<std::vector<uint32_t>> m_groupPorts;  // group id - 1 -> ports
};

} // namespace incsim

#endif
