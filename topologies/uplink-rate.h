#ifndef INCSIM_TOPOLOGIES_UPLINK_RATE_H
#define INCSIM_TOPOLOGIES_UPLINK_RATE_H

#include "sim/schema/schema.h"
#include "sim/topology/topology.h"

#include <cstdint>

namespace incsim
{

/// `link` with the rate of one of `uplinks` links that carry the traffic of `hostsBelow` hosts
/// at params' "oversubscription" ratio (host bandwidth / uplink bandwidth):
/// hostsBelow * R / (uplinks * ratio), rounded to whole bps. Fails on that parameter if the
/// rate rounds to 0bps or is too large to simulate.
LinkParams OversubscribedUplink(const ParamView& params,
                                const LinkParams& link,
                                uint32_t hostsBelow,
                                uint32_t uplinks);

} // namespace incsim

#endif
