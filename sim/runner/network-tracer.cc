#include "sim/runner/network-tracer.h"

#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"
#include "sim/net/link.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/switch/switch-device.h"
#include "sim/trace/trace-outputs.h"

#include <ns3/callback.h>
#include <ns3/pcap-file-wrapper.h>
#include <ns3/pcap-file.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <filesystem>

namespace incsim
{

// pcap link type for Ethernet frames.
constexpr uint32_t kDltEthernet = 1;

NetworkTracer::NetworkTracer(World& world)
    : m_world(world)
{
    const Topology& topology = world.GetTopology();
    ParamView outputs = world.GetScenario().Section("outputs");

    m_packets = world.Traces().Open(CoreTrace("packets"));
    if (m_packets != nullptr)
    {
        for (const auto& device : world.Switches())
        {
            device->TraceConnectWithoutContext("Receive",
                                               ns3::MakeCallback(&NetworkTracer::OnReceive, this));
            device->TraceConnectWithoutContext("Drop",
                                               ns3::MakeCallback(&NetworkTracer::OnDrop, this));
        }
        for (uint32_t h = 0; h < world.NumHosts(); ++h)
        {
            world.Host(h).TraceConnectWithoutContext(
                "Receive",
                ns3::MakeCallback(&NetworkTracer::OnReceive, this));
            world.Host(h).TraceConnectWithoutContext(
                "Drop",
                ns3::MakeCallback(&NetworkTracer::OnDrop, this));
        }
        for (uint32_t id = 0; id < topology.NumLinks(); ++id)
        {
            world.GetLink(id).TraceConnectWithoutContext(
                "Drop",
                ns3::MakeCallback(&NetworkTracer::OnDrop, this));
        }
        for (uint32_t node = 0; node < topology.NumNodes(); ++node)
        {
            for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
            {
                EgressPort& egress = world.PortOf(node, port);
                egress.TraceConnectWithoutContext(
                    "Enqueue",
                    ns3::MakeCallback(&NetworkTracer::OnEnqueue, this));
                egress.TraceConnectWithoutContext(
                    "Transmit",
                    ns3::MakeCallback(&NetworkTracer::OnTransmit, this));
                egress.TraceConnectWithoutContext("Drop",
                                                  ns3::MakeCallback(&NetworkTracer::OnDrop, this));
            }
        }
    }

    m_queues = world.Traces().Open(CoreTrace("queues"));
    if (m_queues != nullptr)
    {
        m_samplePs = outputs.DurationNs("queue_sample_interval") * kPsPerNs;
        m_lastDepth.resize(topology.NumNodes());
        for (uint32_t node = 0; node < topology.NumNodes(); ++node)
        {
            m_lastDepth[node].assign(topology.NumPorts(node), 0);
        }
        m_sampleEvent = ns3::Simulator::Schedule(Ps(m_samplePs), &NetworkTracer::SampleQueues, this);
    }

    if (outputs.Bool("pcap"))
    {
        std::string dir = world.Traces().RunDir() + "/pcap";
        std::filesystem::create_directories(dir);
        m_pcap.resize(topology.NumNodes());
        for (uint32_t node = 0; node < topology.NumNodes(); ++node)
        {
            for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
            {
                const std::string name = PcapName(node, port);
                auto file = ns3::CreateObject<ns3::PcapFileWrapper>();
                file->Open(world.Traces().RunDir() + "/" + name, std::ios::out | std::ios::binary);
                world.Traces().AddFile(name);
                file->Init(kDltEthernet, 65535);
                m_pcap[node].push_back(file);
                world.PortOf(node, port).TraceConnectWithoutContext(
                    "Transmit",
                    ns3::MakeCallback(&NetworkTracer::OnPcap, this));
            }
        }
    }
}

NetworkTracer::~NetworkTracer()
{
    m_sampleEvent.Cancel();
    for (auto& files : m_pcap)
    {
        for (auto& file : files)
        {
            file->Close();
        }
    }
}

std::string
NetworkTracer::PcapName(uint32_t node, uint32_t port) const
{
    return "pcap/" + m_world.GetTopology().Node(node).name + "-" + std::to_string(port) + ".pcap";
}

void
NetworkTracer::Close()
{
    m_sampleEvent.Cancel();
    const std::string& runDir = m_world.Traces().RunDir();
    for (uint32_t node = 0; node < m_pcap.size(); ++node)
    {
        for (uint32_t port = 0; port < m_pcap[node].size(); ++port)
        {
            ns3::PcapFileWrapper& file = *m_pcap[node][port];
            file.Close();
            if (file.Fail())
            {
                throw OutputError(runDir + "/" + PcapName(node, port),
                                  "the pcap writer failed (disk full or file too large?)");
            }
        }
    }
    m_pcap.clear();
}

void
NetworkTracer::Event(const char* event, const Frame& frame, uint32_t node, uint32_t port,
                     const char* reason)
{
    m_packets->Row(NowPs() / kPsPerNs,
                   event,
                   m_world.GetTopology().Node(node).name,
                   port,
                   frame.uid,
                   frame.wireLength,
                   static_cast<unsigned>(frame.meta.priority),
                   reason);
}

void
NetworkTracer::OnReceive(const Frame& frame, uint32_t node, uint32_t port)
{
    Event("rx", frame, node, port, "");
}

void
NetworkTracer::OnEnqueue(const Frame& frame, uint32_t node, uint32_t port)
{
    Event("enqueue", frame, node, port, "");
}

void
NetworkTracer::OnTransmit(const Frame& frame, uint32_t node, uint32_t port)
{
    Event("tx", frame, node, port, "");
}

void
NetworkTracer::OnDrop(const Frame& frame, uint32_t node, uint32_t port, DropReason reason)
{
    Event("drop", frame, node, port, ToString(reason));
}

void
NetworkTracer::OnPcap(const Frame& frame, uint32_t node, uint32_t port)
{
    // Only the frame's materialised bytes exist; the rest of the payload is written as zeros.
    m_pcapScratch.assign(frame.wireLength, 0);
    std::copy(frame.data, frame.data + std::min(frame.length, frame.wireLength),
              m_pcapScratch.begin());
    m_pcap[node][port]->Write(ns3::Simulator::Now(), m_pcapScratch.data(),
                              static_cast<uint32_t>(m_pcapScratch.size()));
}

void
NetworkTracer::SampleQueues()
{
    const Topology& topology = m_world.GetTopology();
    int64_t nowNs = NowPs() / kPsPerNs;
    for (uint32_t node : topology.Switches())
    {
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            const EgressPort& egress = m_world.PortOf(node, port);
            uint64_t bytes = egress.QueuedBytes();
            // Rows only for non-empty queues and for the sample at which a queue drains.
            if (bytes > 0 || m_lastDepth[node][port] > 0)
            {
                m_queues->Row(nowNs, topology.Node(node).name, port, bytes, egress.QueuedFrames());
            }
            m_lastDepth[node][port] = bytes;
        }
    }
    if (NowPs() + m_samplePs < m_world.DurationPs())
    {
        m_sampleEvent = ns3::Simulator::Schedule(Ps(m_samplePs), &NetworkTracer::SampleQueues, this);
    }
}

} // namespace incsim
