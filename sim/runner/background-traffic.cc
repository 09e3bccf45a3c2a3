#include "sim/runner/background-traffic.h"

#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/schema/time-window.h"

#include <algorithm>
#include <string>

namespace incsim
{

BackgroundTraffic::BackgroundTraffic(World& world, const ParamView& section)
{
    const auto flowsPerHost = static_cast<uint32_t>(section.Int("flows_per_host"));
    const auto numHosts = static_cast<uint32_t>(world.NumHosts());
    if (flowsPerHost == 0)
    {
        return;
    }
    const uint32_t maxPayload = world.MaxUdpPayloadBytes();
    if (maxPayload <= BulkTransport::kHeaderBytes)
    {
        section.Fail("flows_per_host", "/links/mtu leaves no room for a background segment");
    }

    BulkTransportConfig config;
    config.segmentBytes = maxPayload - BulkTransport::kHeaderBytes;
    config.maxWindowSegments = static_cast<uint32_t>(
        std::max<uint64_t>(2, section.SizeBytes("max_window") / config.segmentBytes));
    config.initialWindow = static_cast<uint32_t>(section.Int("initial_window"));
    config.minRtoPs = section.DurationNs("min_rto") * kPsPerNs;
    config.nicLimitBytes = section.SizeBytes("nic_limit");
    config.priority = static_cast<uint8_t>(section.Int("priority"));
    config.dctcp = section.Choice("congestion_control", DctcpChoices());
    config.dctcpGain = section.Number("dctcp_gain");
    const TimeWindow window = ReadTimeWindow(section, world.DurationPs(), "flows");
    config.startPs = window.startPs;
    config.stopPs = window.stopPs;
    m_activePs = window.ActivePs();

    const auto port = static_cast<uint16_t>(section.Int("port"));
    for (uint32_t h = 0; h < numHosts; ++h)
    {
        HostNode& host = world.Host(h);
        if (host.EndpointAt(port))
        {
            section.Fail("port", "UDP port " + std::to_string(port) +
                                     " is already used on host " + host.Name() +
                                     " by the protocol under test");
        }
        auto transport = ns3::CreateObject<BulkTransport>();
        transport->Configure(config, &m_stats);
        host.Bind(port, transport);
        m_transports.push_back(transport);
    }
    for (uint32_t h = 0; h < numHosts; ++h)
    {
        Rng rng = world.MakeRng("background", h);
        for (uint32_t f = 0; f < flowsPerHost; ++f)
        {
            auto dst = static_cast<uint32_t>(rng.UniformInt(numHosts - 1));
            dst = dst >= h ? dst + 1 : dst;
            m_transports[h]->AddFlow(m_flows, dst);
            m_transports[dst]->ExpectFlow(m_flows);
            ++m_flows;
        }
    }
    for (const auto& transport : m_transports)
    {
        transport->Start();
    }
}

bool
BackgroundTraffic::Enabled() const
{
    return m_flows > 0;
}

nlohmann::json
BackgroundTraffic::Metrics() const
{
    double seconds = m_activePs / 1e12;
    return {{"flows", m_flows},
            {"segments_sent", m_stats.segmentsSent},
            {"retransmissions", m_stats.retransmissions},
            {"fast_retransmits", m_stats.fastRetransmits},
            {"timeouts", m_stats.timeouts},
            {"ecn_echoes", m_stats.ecnEchoes},
            {"bytes_delivered", m_stats.bytesDelivered},
            {"goodput_gbps", seconds > 0 ? m_stats.bytesDelivered * 8 / seconds / 1e9 : 0.0}};
}

} // namespace incsim
