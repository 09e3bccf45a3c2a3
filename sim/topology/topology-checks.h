#ifndef INCSIM_TOPOLOGY_TOPOLOGY_CHECKS_H
#define INCSIM_TOPOLOGY_TOPOLOGY_CHECKS_H

#include "sim/topology/topology.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace incsim
{

/// Hosts that have no path to the first host, in id order; empty when every host can reach
/// it. Paths may pass through switches only, as routes do (hosts never forward). Switches
/// that no host can reach are left out: they carry no traffic, which is harmless (a WAN
/// preset with sites left empty).
std::vector<uint32_t> HostsCutOffFromFirstHost(const Topology& topology);

/// Two distinct hosts with the shortest path between them by total link delay (through
/// switches only), and that delay; nullopt when no two hosts are connected.
struct ClosestHosts
{
    uint32_t a = 0;
    uint32_t b = 0;
    int64_t delayNs = 0;
};
std::optional<ClosestHosts> FindClosestHosts(const Topology& topology);

} // namespace incsim

#endif
