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

/// For each switch (by node id), each port's group among its down ports (bit mask; 0 for
/// none): the inputs whose packets never leave by that port, the port itself among them, and
/// the same set for each member, so a port's barrier is the minimum over the inputs outside
/// its group (two minima serve every port: onepipe.p4). From the routes: an input feeds an
/// output if the neighbour behind it routes some destination through this switch and this
/// switch routes that destination out of the output; a host port feeds every output, itself
/// included (processes of one host talk through the ToR). A down port whose non-feeding
/// inputs do not form such a group gets 0 and takes every input (conservative). Up ports'
/// group is the set of up ports (`upMasks`), which onepipe.p4 knows from up_ports.
std::vector<std::vector<uint32_t>> PortGroups(const Topology& topology, const EcmpRoutes& routes,
                                              const std::vector<uint32_t>& upMasks);

} // namespace incsim::onepipe

#endif
