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
#include "sim/switch/switch-device.h"

#include <ns3/simulator.h>
#include <ns3/nstime.h>
#include <ns3/uinteger.h>

#include <fmt/format.h>

#include <algorithm>
#include <memory>

namespace incsim
{

World::World(const Scenario& scenario, Topology topology, TraceOutputs& traces)
    : m_scenario(scenario),
      m_topology(std::move(topology)),
      m_traces(traces),
      m_seed(scenario.Seed()),
      m_durationPs(scenario.DurationNs() * kPsPerNs),
      m_routing(m_topology, scenario.Section("routing"))
{
    EnsurePicosecondResolution();
    FramePool::Instance().ResetUids();
    m_linkAdminUp.assign(m_topology.NumLinks(), true);
    m_nodeUp.assign(m_topology.NumNodes(), true);

    BuildNodes();
    BuildLinks();

    SetPipelineFactory(DefaultPipelineFactory());
    RecomputeRoutes();
    if (m_routing.DagRequired())
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
World::ProgramPipelineFactory(const std::string& program, const std::string& where,
                              PipelineConfigurator configure) const
{
    return LoadProgram(m_scenario, program, where, m_routing.Mode(), m_seed, std::move(configure));
}

std::vector<const p4rt::ProgramInfo*>
World::ProgramsInUse() const
{
    return ProgramsRunBy(m_switches);
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
            device->SetAttribute("Priorities", ns3::UintegerValue(sw.Int("priorities")));
            device->SetAttribute("CpuServiceTime",
                                 ns3::TimeValue(ns3::NanoSeconds(sw.DurationNs("cpu_service_time"))));
            device->SetAttribute("CpuQueueSize", ns3::UintegerValue(sw.Int("cpu_queue")));
            device->SetAttribute("PipelineDelay",
                                 ns3::TimeValue(ns3::NanoSeconds(sw.DurationNs("pipeline_delay"))));
            device->Configure(node, info.name, m_topology.NumPorts(node));
            // Ports 0 .. N-1 are addressed in v1model's 9-bit egress_spec, where kDropPort
            // drops and the CPU port reaches the switch CPU: a port at or above either would
            // silently lose its traffic.
            const uint32_t addressable = std::min(device->CpuPort(), kDropPort);
            if (m_topology.NumPorts(node) > addressable)
            {
                throw InputError(m_scenario.File(), "/topology",
                                 fmt::format("switch {} has {} ports, but a switch can address "
                                             "{} (ports 0-{}: v1model ports are 9 bits, {} is "
                                             "the switch CPU's and {} drops)",
                                             info.name, m_topology.NumPorts(node), addressable,
                                             addressable - 1, device->CpuPort(), kDropPort));
            }
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
    const uint64_t ecnThreshold = m_scenario.Section("switch").SizeBytes("ecn_threshold");
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
                egress->SetAttribute("EcnThreshold", ns3::UintegerValue(ecnThreshold));
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
    if (m_routing.Routes().NumNodes() > 0)
    {
        InstallRoutes();
    }
}

void
World::RequireDagRouting(const std::string& who) const
{
    m_routing.RequireDag(who);
}

void
World::RecomputeRoutes()
{
    std::vector<bool> linkUp(m_topology.NumLinks());
    for (uint32_t id = 0; id < m_topology.NumLinks(); ++id)
    {
        linkUp[id] = m_links.empty() || m_links[id]->IsUp();
    }
    m_routing.Recompute(linkUp, m_nodeUp);
    InstallRoutes();
}

void
World::InstallRoutes()
{
    for (auto& device : m_switches)
    {
        device->GetPipeline()->InstallRoutes(m_routing.Routes());
    }
    for (auto& host : m_hosts)
    {
        host->InstallRoutes(m_routing.Routes());
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
    ns3::Simulator::Schedule(Ps(m_routing.ReconvergePs()), &World::RecomputeRoutes, this);
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

} // namespace incsim
