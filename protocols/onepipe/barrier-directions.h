#ifndef INCSIM_ONEPIPE_BARRIER_DIRECTIONS_H
#define INCSIM_ONEPIPE_BARRIER_DIRECTIONS_H

#include <cstdint>
#include <limits>
#include <vector>

namespace incsim
{
class EcmpRoutes;
class Topology;
} // namespace incsim

namespace incsim::onepipe
{

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

/// Hops from each node to the nearest of `sources` (kUnreached if none is connected).
std::vector<uint32_t> HopDistances(const Topology& topology, const std::vector<uint32_t>& sources);

/// For each switch (by node id), the bit mask of its "up" ports: those whose neighbour is a
/// switch at least as far from the nearest host. A packet leaving on an up port can only have
/// come from below, so its barrier is the minimum over the ports below (B_up); every other
/// output takes the minimum over all ports (B_all). This is the paper's split of each switch
/// into an uplink and a downlink half (Fig. 3); it needs up-down routes.
///
/// Throws ConfigError, naming a switch, a destination and the two neighbours, if some route
/// takes traffic that arrived from an up port out on an up port again (a valley: its barrier
/// would not cover that traffic), or if a switch has more than `maxPorts` ports.
std::vector<uint32_t> UpPortMasks(const Topology& topology, const EcmpRoutes& routes,
                                  uint32_t maxPorts);

} // namespace incsim::onepipe

#endif
