#ifndef INCSIM_RUNNER_BACKGROUND_TRAFFIC_H
#define INCSIM_RUNNER_BACKGROUND_TRAFFIC_H

#include "sim/traffic/bulk-transport.h"

#include <ns3/ptr.h>

#include <nlohmann/json.hpp>

#include <vector>

namespace incsim
{

class ParamView;
class World;

/// The scenario's /background: on every host a BulkTransport sending flows_per_host
/// long-lived flows to random other hosts, whatever protocol runs next to it. Reports the
/// "background" entry of metrics.json.
class BackgroundTraffic
{
  public:
    /// Installs the flows; `section` is the validated /background. Throws InputError if its
    /// port is taken on a host or the MTU leaves no room for a segment.
    BackgroundTraffic(World& world, const ParamView& section);
    BackgroundTraffic(const BackgroundTraffic&) = delete;
    BackgroundTraffic& operator=(const BackgroundTraffic&) = delete;

    bool Enabled() const;
    nlohmann::json Metrics() const;

  private:
    BulkTransportStats m_stats;
    uint32_t m_flows = 0;
    int64_t m_activePs = 0;
    std::vector<ns3::Ptr<BulkTransport>> m_transports;
};

} // namespace incsim

#endif
