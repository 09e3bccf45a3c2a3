#include "protocols/udp/udp-protocol.h"

#include "protocols/udp/udp-traces.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"
#include "sim/net/headers.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/schema/time-window.h"
#include "sim/trace/trace-outputs.h"

#include <algorithm>
#include <numeric>

namespace incsim
{

namespace
{

const Choices<UdpWorkload::Pattern>&
PatternChoices()
{
    static const Choices<UdpWorkload::Pattern> choices{
        {"uniform", UdpWorkload::Pattern::Uniform},
        {"permutation", UdpWorkload::Pattern::Permutation},
        {"all-to-all", UdpWorkload::Pattern::AllToAll}};
    return choices;
}

} // namespace

Spec
UdpProtocol::ParamsSpec()
{
    return Spec::Object()
        .Field("port", Spec::Integer().Min(1).Max(65535), "UDP port of every endpoint", 5000)
        .Field("priority", PrioritySpec(), "switch queue priority of the traffic", 0);
}

Spec
UdpProtocol::WorkloadSpec()
{
    return Spec::Object()
        .Field("pattern",
               Spec::Enum(PatternChoices()),
               "destination choice: a random other host per message, a fixed random partner, or "
               "round-robin over all other hosts",
               "uniform")
        .Field("message_size", Spec::Size().Min(1).Max(16 * 1024 * 1024),
               "application message size; messages are fragmented to the MTU", "1000B")
        .Field("load", Spec::Number().Above(0).Max(1),
               "offered load per host, as a fraction of its link rate", 0.3)
        .Field("arrivals", Spec::Enum(PoissonArrivalsChoices()),
               "message inter-arrival times", "poisson")
        .Field("start", Spec::Duration(), "when hosts start sending, before the end of the run",
               "0ns")
        .OptionalField("stop", Spec::Duration(),
                       "when hosts stop sending, after start (default and latest: the end of "
                       "the run)");
}

void
UdpProtocol::Install(World& world, const ParamView& params, const ParamView& workload)
{
    uint32_t numHosts = static_cast<uint32_t>(world.NumHosts());
    UdpWorkload config;
    config.pattern = workload.Choice("pattern", PatternChoices());
    config.messageBytes = static_cast<uint32_t>(workload.SizeBytes("message_size"));
    config.maxPayload = world.MaxUdpPayloadBytes();
    config.poisson = workload.Choice("arrivals", PoissonArrivalsChoices());
    const TimeWindow window = ReadTimeWindow(workload, world.DurationPs(), "hosts");
    config.startPs = window.startPs;
    config.stopPs = window.stopPs;
    config.port = static_cast<uint16_t>(params.Int("port"));
    config.priority = static_cast<uint8_t>(params.Int("priority"));
    m_messageBytes = config.messageBytes;
    m_activePs = window.ActivePs();

    // Wire bits per message, including every fragment's headers and framing overhead.
    uint32_t perFragment = config.maxPayload - 24;
    uint32_t fragments = std::max<uint32_t>(1, (config.messageBytes + perFragment - 1) / perFragment);
    double wireBytes = config.messageBytes +
                       fragments * (24.0 + kUdpFrameOverhead + kWireOverheadBytes);

    CsvWriter* messages = world.Traces().Open(UdpMessagesTrace());

    // A random derangement for the permutation pattern: a shuffled cycle.
    std::vector<uint32_t> order(numHosts);
    std::iota(order.begin(), order.end(), 0);
    Rng shuffle = world.MakeRng("udp-permutation");
    for (uint32_t i = numHosts; i > 1; --i)
    {
        std::swap(order[i - 1], order[shuffle.UniformInt(i)]);
    }
    std::vector<uint32_t> partner(numHosts);
    for (uint32_t i = 0; i < numHosts; ++i)
    {
        partner[order[i]] = order[(i + 1) % numHosts];
    }

    for (uint32_t h = 0; h < numHosts; ++h)
    {
        HostNode& host = world.Host(h);
        UdpWorkload hostConfig = config;
        double rate = static_cast<double>(host.Port(0).RateBps());
        hostConfig.meanIntervalPs = wireBytes * 8 / (rate * workload.Number("load")) * 1e12;
        auto endpoint = ns3::CreateObject<UdpEndpoint>();
        host.Bind(config.port, endpoint);
        endpoint->Configure(hostConfig, numHosts, world.MakeRng("udp-workload", h), partner[h],
                            &m_stats, messages);
        endpoint->Start();
        m_endpoints.push_back(endpoint);
    }
}

void
UdpProtocol::CollectMetrics(nlohmann::json& metrics) const
{
    double seconds = m_activePs / 1e12;
    metrics = {{"messages_sent", m_stats.messagesSent},
               {"messages_delivered", m_stats.messagesDelivered},
               {"fragments_sent", m_stats.fragmentsSent},
               {"fragments_received", m_stats.fragmentsReceived},
               {"send_failures", m_stats.sendFailures},
               {"delivery_ratio",
                m_stats.messagesSent
                    ? nlohmann::json(double(m_stats.messagesDelivered) / m_stats.messagesSent)
                    : nlohmann::json(nullptr)},
               {"goodput_gbps",
                seconds > 0 ? m_stats.messagesDelivered * m_messageBytes * 8 / seconds / 1e9
                            : 0.0}};
    AddLatencyMetrics(metrics, m_stats.latenciesPs, {50, 99});
}

void
RegisterUdpProtocol()
{
    Protocols().Add("udp",
                    ProtocolInfo{"Plain UDP messages between hosts (traffic generator)",
                                 &UdpProtocol::ParamsSpec,
                                 &UdpProtocol::WorkloadSpec,
                                 [] { return std::make_unique<UdpProtocol>(); },
                                 {UdpMessagesTrace()}});
}

} // namespace incsim
