#ifndef INCSIM_TOPOLOGIES_WAN_H
#define INCSIM_TOPOLOGIES_WAN_H

#include "sim/topology/topology.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace incsim
{

/// A wide-area network as the wan generator builds it: one switch per site, named after the
/// site, with hosts {site}-h{i} (group = site index), and links between sites.
struct WanLayout
{
    std::vector<std::string> sites;
    std::vector<std::vector<int64_t>> oneWayNs;  ///< site by site
    std::vector<uint32_t> hostsAt;               ///< per site
    std::vector<std::pair<size_t, size_t>> links;
    int64_t siteLinkDelayNs = 0;  ///< host to its site's switch
};

/// Throws std::invalid_argument if a site is named like another site's host ("a-h0").
Topology BuildWanLayout(const WanLayout& layout, const LinkParams& link);

} // namespace incsim

#endif
