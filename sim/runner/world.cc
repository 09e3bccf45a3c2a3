#include "sim/runner/world.h"

#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-clock.h"
#include "sim/host/host-cpu.h"
#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"
#include "sim/net/frame.h"
#include "sim/net/headers.h"
#include "sim/net/link.h"
#include "sim/scenario/scenario.h"
#include "sim/switch/ecmp-route-installer.h"
#include "sim/switch/p4-pipeline.h"

#include "p4/runtime/entries-file.h"
#include "p4/runtime/error.h"
#include "sim/switch/switch-device.h"
#include "sim/trace/trace-outputs.h"

#include <SwitchPrograms.h>
#include <ns3/simulator.h>
#include <ns3/nstime.h>
#include <ns3/uinteger.h>

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <numeric>

namespace incsim
{

World::World(const Scenario& scenario, Topology topology, TraceOutputs& traces)
    : m_scenario(scenario),
      m_topology(std::move(topology)),
      m_traces(traces),
      m_seed(scenario.Seed()),
      m_durationPs(scenario.DurationNs() * kPsPerNs)
{
    EnsurePicosecondResolution();
    FramePool::Instance().ResetUids();
    ParamView routing = scenario.Section("routing");
    m_metric = routing.String("metric") == "delay" ? RouteMetric::Delay : RouteMetric::Hops;
    m_reconvergePs = routing.DurationNs("reconverge_delay") * kPsPerNs;
    m_linkAdminUp.assign(m_topology.NumLinks(), true);
    m_nodeUp.assign(m_topology.NumNodes(), true);

    BuildNodes();
    BuildLinks();

    m_ecmpMode =
        routing.String("ecmp") == "per-packet" ? EcmpMode::PerPacket : EcmpMode::PerFlow;
    SetPipelineFactory(DefaultPipelineFactory());
    RecomputeRoutes();
    if (routing.Bool("require_dag"))
    {
        RequireDagRouting("/routing/require_dag");
    }
}

World::~World() = default;

World::PipelineFactory
World::DefaultPipelineFactory() const
{
    return ProgramPipelineFactory(m_scenario.Section("switch").String("program"), "/switch/program");
}

World::PipelineFactory
World::ProgramPipelineFactory(const std::string& programName, const std::string& where,
                              PipelineConfigurator configure) const
{
    ParamView sw = m_scenario.Section("switch");
    const std::vector<p4rt::GeneratedProgram> programs = p4gen::SwitchPrograms();
    p4rt::GeneratedProgram program;
    try
    {
        program = p4rt::FindGeneratedProgram(programs, programName);
    }
    catch (const p4rt::Error& error)
    {
        throw InputError(m_scenario.File(), where, error.what());
    }
    // Table entries for every switch, read once.
    std::string entries;
    std::shared_ptr<const nlohmann::json> entriesDoc;
    if (sw.Has("entries"))
    {
        entries = m_scenario.ResolvePath(sw.String("entries"));
        try
        {
            entriesDoc = std::make_shared<const nlohmann::json>(ReadJsonFile(entries));
        }
        catch (const InputError& error)
        {
            throw InputError(m_scenario.File(), "/switch/entries", error.what());
        }
    }
    const uint64_t seed = m_seed;
    const EcmpMode mode = m_ecmpMode;
    const std::string file = m_scenario.File();
    return [mode, seed, program, entries, entriesDoc, file, configure](SwitchDevice& device) {
        auto pipeline = std::make_unique<P4Pipeline>(
            device, program.create(),
            std::make_unique<EcmpRouteInstaller>(device.NodeId(), device.NumPorts(), mode, seed));
        if (entriesDoc)
        {
            try
            {
                p4rt::LoadEntriesJson(pipeline->Control(), *entriesDoc, entries);
            }
            catch (const p4rt::Error& error)
            {
                throw InputError(file, "/switch/entries",
                                 fmt::format("switch {}: {}", device.Name(), error.what()));
            }
        }
        if (configure)
        {
            configure(*pipeline, device);
        }
        return pipeline;
    };
}

uint32_t
World::MaxUdpPayloadBytes() const
{
    return static_cast<uint32_t>(m_scenario.Section("links").SizeBytes("mtu") -
                                 kIpv4HeaderBytes - kUdpHeaderBytes);
}

Rng
World::MakeRng(std::string_view component, uint64_t index) const
{
    return Rng(m_seed, component, index);
}

void
World::BuildNodes()
{
    ParamView sw = m_scenario.Section("switch");
    ParamView hosts = m_scenario.Section("hosts");
    ParamView clocks = m_scenario.Section("clocks");
    HostClock::Config clock;
    clock.offset = ReadDistribution(clocks, "offset");
    clock.driftPpm = ReadDistribution(clocks, "drift_ppm");
    clock.residualSkew = ReadDistribution(clocks, "residual_skew");
    clock.syncPeriodNs = clocks.DurationNs("sync_period");

    m_switchByNode.resize(m_topology.NumNodes());
    m_ports.resize(m_topology.NumNodes());
    for (uint32_t node = 0; node < m_topology.NumNodes(); ++node)
    {
        const NodeInfo& info = m_topology.Node(node);
        m_ports[node].resize(m_topology.NumPorts(node));
        if (info.kind == NodeKind::Switch)
        {
            auto device = ns3::CreateObject<SwitchDevice>();
            // egress_spec names the CPU by a port number (below v1model's drop port 511), so
            // data ports must stay below it.
            if (m_topology.NumPorts(node) > device->CpuPort())
            {
                throw InputError(m_scenario.File(), "/topology",
                                 fmt::format("switch {} has {} ports, but port {} addresses its "
                                             "CPU, so a switch has at most {}",
                                             info.name, m_topology.NumPorts(node),
                                             device->CpuPort(), device->CpuPort()));
            }
            device->SetAttribute("Priorities", ns3::UintegerValue(sw.Int("priorities")));
            device->SetAttribute("CpuServiceTime",
                                 ns3::TimeValue(ns3::NanoSeconds(sw.DurationNs("cpu_service_time"))));
            device->SetAttribute("CpuQueueSize", ns3::UintegerValue(sw.Int("cpu_queue")));
            device->SetAttribute("PipelineDelay",
                                 ns3::TimeValue(ns3::NanoSeconds(sw.DurationNs("pipeline_delay"))));
            device->Configure(node, info.name, m_topology.NumPorts(node));
            m_switchByNode[node] = device;
            m_switches.push_back(device);
        }
        else
        {
            auto host = ns3::CreateObject<HostNode>();
            uint32_t index = m_topology.HostIndex(node);
            host->Configure(node, index, info.name, m_topology.NumPorts(node));
            host->Cpu().SetCores(static_cast<uint32_t>(hosts.Int("cores")));
            host->SetMessageCostPs(hosts.DurationNs("message_cost") * kPsPerNs);
            host->SetClock(HostClock(clock, m_seed, index));
            m_hosts.push_back(host);
        }
    }
}

void
World::BuildLinks()
{
    uint64_t nicBuffer = m_scenario.Section("hosts").SizeBytes("nic_buffer");
    uint32_t priorities = static_cast<uint32_t>(m_scenario.Section("switch").Int("priorities"));
    m_links.reserve(m_topology.NumLinks());
    for (uint32_t id = 0; id < m_topology.NumLinks(); ++id)
    {
        const LinkInfo& info = m_topology.Link(id);
        auto link = ns3::CreateObject<Link>();
        link->Configure(id, info.params.delayNs * kPsPerNs, info.params.lossRate, m_seed);
        const uint32_t nodes[2] = {info.a, info.b};
        const uint32_t ports[2] = {info.portA, info.portB};
        for (int side = 0; side < 2; ++side)
        {
            uint32_t node = nodes[side];
            uint32_t port = ports[side];
            auto egress = ns3::CreateObject<EgressPort>();
            SwitchDevice* device = m_switchByNode[node] ? PeekPointer(m_switchByNode[node]) : nullptr;
            FrameSink* sink;
            int64_t rxExtraPs = 0;
            if (device != nullptr)
            {
                egress->Configure(node, port, info.params.rateBps, info.params.bufferBytes,
                                  priorities, device);
                device->SetPort(port, egress);
                sink = device;
                rxExtraPs = device->PipelineDelay().GetTimeStep();
            }
            else
            {
                HostNode& host = *m_hosts[m_topology.HostIndex(node)];
                egress->Configure(node, port, info.params.rateBps, nicBuffer, priorities, nullptr);
                host.SetPort(port, egress);
                sink = &host;
            }
            egress->ConnectLink(PeekPointer(link), side);
            link->Attach(side, sink, node, port, rxExtraPs);
            m_ports[node][port] = egress;
        }
        m_links.push_back(link);
    }
}

SwitchDevice&
World::Switch(uint32_t nodeId) const
{
    return *m_switchByNode.at(nodeId);
}

EgressPort&
World::PortOf(uint32_t nodeId, uint32_t port) const
{
    return *m_ports.at(nodeId).at(port);
}

void
World::SetPipelineFactory(const PipelineFactory& factory)
{
    for (auto& device : m_switches)
    {
        device->SetPipeline(factory(*device));
        for (uint32_t port = 0; port < device->NumPorts(); ++port)
        {
            const auto& peer = m_topology.Peer(device->NodeId(), port);
            if (!m_links[peer.link]->IsUp())
            {
                device->GetPipeline()->PortStatusChanged(port, false);
            }
        }
    }
    if (m_routes.NumNodes() > 0)
    {
        InstallRoutes();
    }
}

void
World::RequireDagRouting(const std::string& who) const
{
    DagCheck check = CheckRoutingDag(m_topology, m_routes);
    if (!check.acyclic)
    {
        std::string cycle;
        for (const auto& hop : check.cycle)
        {
            cycle += (cycle.empty() ? "" : ", ") + hop;
        }
        throw ConfigError(fmt::format("{} needs routes that form a DAG, but the routes on this "
                                      "topology have a cycle of directed links: {}",
                                      who,
                                      cycle));
    }
}

void
World::RecomputeRoutes()
{
    std::vector<bool> linkUp(m_topology.NumLinks());
    for (uint32_t id = 0; id < m_topology.NumLinks(); ++id)
    {
        linkUp[id] = m_links.empty() || m_links[id]->IsUp();
    }
    m_routes = ComputeEcmpRoutes(m_topology, m_metric, linkUp, m_nodeUp);
    InstallRoutes();
}

void
World::InstallRoutes()
{
    for (auto& device : m_switches)
    {
        device->GetPipeline()->InstallRoutes(m_routes);
    }
    for (auto& host : m_hosts)
    {
        host->InstallRoutes(m_routes);
    }
}

void
World::ApplyLinkState(uint32_t linkId)
{
    const LinkInfo& info = m_topology.Link(linkId);
    bool up = m_linkAdminUp[linkId] && m_nodeUp[info.a] && m_nodeUp[info.b];
    Link& link = *m_links[linkId];
    if (link.IsUp() == up)
    {
        return;
    }
    link.SetUp(up);
    const uint32_t nodes[2] = {info.a, info.b};
    const uint32_t ports[2] = {info.portA, info.portB};
    for (int side = 0; side < 2; ++side)
    {
        if (m_switchByNode[nodes[side]])
        {
            m_switchByNode[nodes[side]]->SetPortUp(ports[side], up);
        }
        else if (!up)
        {
            m_ports[nodes[side]][ports[side]]->Flush(DropReason::LinkDown);
        }
    }
    ScheduleReconvergence();
}

void
World::ScheduleReconvergence()
{
    // Each fault gets its own recomputation, reconverge_delay after it (a controller reacting
    // to each failure notification); recomputing is idempotent.
    ns3::Simulator::Schedule(Ps(m_reconvergePs), &World::RecomputeRoutes, this);
}

void
World::SetLinkUp(uint32_t linkId, bool up)
{
    m_linkAdminUp[linkId] = up;
    ApplyLinkState(linkId);
}

void
World::SetNodeUp(uint32_t nodeId, bool up)
{
    if (m_nodeUp[nodeId] == up)
    {
        return;
    }
    m_nodeUp[nodeId] = up;
    if (m_switchByNode[nodeId])
    {
        m_switchByNode[nodeId]->SetUp(up);
    }
    else
    {
        m_hosts[m_topology.HostIndex(nodeId)]->SetUp(up);
    }
    for (uint32_t port = 0; port < m_topology.NumPorts(nodeId); ++port)
    {
        ApplyLinkState(m_topology.Peer(nodeId, port).link);
    }
    ScheduleReconvergence();
}

void
World::SetLossRate(std::optional<uint32_t> linkId, double rate)
{
    if (linkId)
    {
        m_links[*linkId]->SetLossRate(rate);
        return;
    }
    for (auto& link : m_links)
    {
        link->SetLossRate(rate);
    }
}

nlohmann::json
World::NetworkMetrics() const
{
    uint64_t delivered = 0;
    uint64_t txBytes = 0;
    std::array<uint64_t, static_cast<size_t>(DropReason::Count)> drops{};
    double maxUtil = 0;
    double sumUtil = 0;
    double seconds = m_durationPs / 1e12;
    for (uint32_t id = 0; id < m_links.size(); ++id)
    {
        for (int side = 0; side < 2; ++side)
        {
            const Link::Counters& c = m_links[id]->GetCounters(side);
            delivered += c.deliveredFrames;
            txBytes += c.txBytes;
            drops[static_cast<size_t>(DropReason::LinkLoss)] += c.lossDrops;
            drops[static_cast<size_t>(DropReason::LinkDown)] += c.downDrops;
            double util = c.txBytes * 8.0 / (m_topology.Link(id).params.rateBps * seconds);
            maxUtil = std::max(maxUtil, util);
            sumUtil += util;
        }
    }
    for (uint32_t node = 0; node < m_ports.size(); ++node)
    {
        for (const auto& port : m_ports[node])
        {
            drops[static_cast<size_t>(DropReason::BufferFull)] += port->GetCounters().bufferDrops;
            for (size_t r = 0; r < drops.size(); ++r)
            {
                drops[r] += port->GetCounters().flushDrops[r];
            }
        }
    }
    auto addNodeDrops = [&drops](const NetworkNode& node) {
        for (size_t r = 0; r < drops.size(); ++r)
        {
            drops[r] += node.Drops()[r];
        }
    };
    for (const auto& device : m_switches)
    {
        addNodeDrops(*device);
    }
    for (const auto& host : m_hosts)
    {
        addNodeDrops(*host);
    }
    nlohmann::json dropJson = nlohmann::json::object();
    for (size_t r = 0; r < drops.size(); ++r)
    {
        dropJson[ToString(static_cast<DropReason>(r))] = drops[r];
    }
    size_t directions = m_links.size() * 2;
    return {{"frames_delivered", delivered},
            {"wire_bytes", txBytes},
            {"drops", dropJson},
            {"link_utilization_max", maxUtil},
            {"link_utilization_mean", directions ? sumUtil / directions : 0.0}};
}

void
World::WriteLinkTrace() const
{
    CsvWriter* csv = m_traces.Open("links",
                                   {"link", "from", "from_port", "to", "to_port", "rate_bps",
                                    "delay_ns", "tx_frames", "tx_bytes", "delivered_frames",
                                    "loss_drops", "down_drops", "buffer_drops", "flush_drops",
                                    "max_queue_bytes", "utilization"});
    if (csv == nullptr)
    {
        return;
    }
    double seconds = m_durationPs / 1e12;
    for (uint32_t id = 0; id < m_links.size(); ++id)
    {
        const LinkInfo& info = m_topology.Link(id);
        const uint32_t nodes[2] = {info.a, info.b};
        const uint32_t ports[2] = {info.portA, info.portB};
        for (int side = 0; side < 2; ++side)
        {
            const Link::Counters& c = m_links[id]->GetCounters(side);
            const EgressPort::Counters& q = m_ports[nodes[side]][ports[side]]->GetCounters();
            csv->Row(id,
                     m_topology.Node(nodes[side]).name,
                     ports[side],
                     m_topology.Node(nodes[1 - side]).name,
                     ports[1 - side],
                     info.params.rateBps,
                     info.params.delayNs,
                     c.txFrames,
                     c.txBytes,
                     c.deliveredFrames,
                     c.lossDrops,
                     c.downDrops,
                     q.bufferDrops,
                     std::accumulate(q.flushDrops.begin(), q.flushDrops.end(), uint64_t{0}),
                     q.maxQueuedBytes,
                     fmt::format("{:.6f}", c.txBytes * 8.0 / (info.params.rateBps * seconds)));
        }
    }
}

} // namespace incsim
