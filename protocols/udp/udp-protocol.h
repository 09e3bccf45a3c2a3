#ifndef INCSIM_UDP_UDP_PROTOCOL_H
#define INCSIM_UDP_UDP_PROTOCOL_H

#include "protocols/udp/udp-endpoint.h"
#include "sim/scenario/protocol.h"

#include <ns3/ptr.h>

#include <vector>

namespace incsim
{

/// "udp": plain messages between hosts over the default L3/ECMP switches. It is the
/// quick-start workload and the traffic for network-level tests and benchmarks.
class UdpProtocol : public Protocol
{
  public:
    static Spec ParamsSpec();
    static Spec WorkloadSpec();

    void Install(World& world, const ParamView& params, const ParamView& workload) override;
    void CollectMetrics(nlohmann::json& metrics) const override;

    const UdpStats& Stats() const { return m_stats; }

  private:
    UdpStats m_stats;
    int64_t m_activePs = 0;
    uint64_t m_messageBytes = 0;
    std::vector<ns3::Ptr<UdpEndpoint>> m_endpoints;
};

/// Adds "udp" to Protocols(); idempotent.
void RegisterUdpProtocol();

} // namespace incsim

#endif
