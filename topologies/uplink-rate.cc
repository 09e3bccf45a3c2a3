#include "topologies/uplink-rate.h"

#include <cmath>

namespace incsim
{

LinkParams
OversubscribedUplink(const ParamView& params,
                     const LinkParams& link,
                     uint32_t hostsBelow,
                     uint32_t uplinks)
{
    const double ratio = params.Number("oversubscription");
    const long double uplinkBps = static_cast<long double>(hostsBelow) * link.rateBps /
                                  (static_cast<long double>(uplinks) * ratio);
    const long double rounded = std::round(uplinkBps);
    if (rounded < 1 || rounded > 1e18L)
    {
        params.Fail("oversubscription",
                    rounded < 1 ? "makes the uplink rate round to 0bps"
                                : "makes the uplink rate too large to simulate");
    }
    LinkParams uplink = link;
    uplink.rateBps = static_cast<uint64_t>(rounded);
    return uplink;
}

} // namespace incsim
