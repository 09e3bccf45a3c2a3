// Reference 1: the fat-tree as a plain ns-3 user builds it, with the Internet stack and global
// routing, carrying the benchmark's all-to-all UDP traffic.

#include "bench/ns3-fabric.h"
#include "bench/variants.h"

#include "sim/core/rng.h"
#include "sim/topology/topology.h"

#include <ns3/boolean.h>
#include <ns3/config.h>
#include <ns3/inet-socket-address.h>
#include <ns3/internet-stack-helper.h>
#include <ns3/ipv4-address-helper.h>
#include <ns3/ipv4-global-routing-helper.h>
#include <ns3/ipv4-l3-protocol.h>
#include <ns3/packet.h>
#include <ns3/queue-disc.h>
#include <ns3/queue.h>
#include <ns3/simulator.h>
#include <ns3/socket.h>
#include <ns3/traffic-control-layer.h>
#include <ns3/udp-socket-factory.h>

#include <memory>
#include <vector>

namespace incsim::bench
{
namespace
{

constexpr uint16_t kUdpPort = 9;
constexpr uint32_t kPppHeaderBytes = 2;
constexpr uint32_t kIpv4UdpHeaderBytes = 28;

struct Counters
{
    uint64_t hops = 0;
    uint64_t sent = 0;
    uint64_t received = 0;
    uint64_t sendFailures = 0;
    uint64_t ipDrops = 0;
};

/// One host: a socket that sends round-robin at a constant rate, and one that counts what
/// arrives on the benchmark's port.
class IpHost
{
  public:
    IpHost(ns3::Ptr<ns3::Node> node,
           uint32_t self,
           const std::vector<ns3::Ipv4Address>& addresses,
           uint32_t payloadBytes,
           int64_t intervalPs,
           int64_t stopPs,
           Counters& counters)
        : m_self(self),
          m_addresses(addresses),
          m_payloadBytes(payloadBytes),
          m_intervalPs(intervalPs),
          m_stopPs(stopPs),
          m_counters(counters)
    {
        m_tx = ns3::Socket::CreateSocket(node, ns3::UdpSocketFactory::GetTypeId());
        m_tx->Bind();
        m_rx = ns3::Socket::CreateSocket(node, ns3::UdpSocketFactory::GetTypeId());
        m_rx->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), kUdpPort));
        m_rx->SetRecvCallback(ns3::MakeCallback(&IpHost::Receive, this));
    }

    void Start(int64_t firstPs)
    {
        ns3::Simulator::Schedule(ns3::Time::From(firstPs), &IpHost::Send, this);
    }

  private:
    void Send()
    {
        uint32_t dst = AllToAllDestination(m_self, m_sent++,
                                           static_cast<uint32_t>(m_addresses.size()));
        int rc = m_tx->SendTo(ns3::Create<ns3::Packet>(m_payloadBytes),
                              0,
                              ns3::InetSocketAddress(m_addresses[dst], kUdpPort));
        ++m_counters.sent;
        m_counters.sendFailures += rc < 0 ? 1 : 0;
        int64_t now = ns3::Simulator::Now().GetTimeStep();
        if (now + m_intervalPs < m_stopPs)
        {
            ns3::Simulator::Schedule(ns3::Time::From(m_intervalPs), &IpHost::Send, this);
        }
    }

    void Receive(ns3::Ptr<ns3::Socket> socket)
    {
        while (socket->Recv())
        {
            ++m_counters.received;
        }
    }

    uint32_t m_self;
    const std::vector<ns3::Ipv4Address>& m_addresses;
    uint32_t m_payloadBytes;
    int64_t m_intervalPs;
    int64_t m_stopPs;
    Counters& m_counters;
    uint64_t m_sent = 0;
    ns3::Ptr<ns3::Socket> m_tx;
    ns3::Ptr<ns3::Socket> m_rx;
};

} // namespace

VariantResult
RunNs3Ip(const TrafficSpec& spec, int64_t simTimeNs)
{
    Topology topology = BuildBenchTopology(spec);
    // Global routing keeps every equal-cost next hop; without this it would use only the
    // first, and the core would saturate. ns-3 offers per-packet random choice only.
    ns3::Config::SetDefault("ns3::Ipv4GlobalRouting::RandomEcmpRouting", ns3::BooleanValue(true));

    Ns3Fabric fabric = BuildNs3FabricNodes(topology);
    ns3::InternetStackHelper stack;
    stack.Install(fabric.nodes);
    BuildNs3FabricLinks(fabric, topology, spec);

    // One /30 per link, as a user of PointToPointHelper would number it. Assign() also installs
    // ns-3's default root queue disc (FqCoDel) on every device.
    ns3::Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
    std::vector<ns3::Ipv4Address> hostAddress(topology.Hosts().size());
    for (uint32_t id = 0; id < topology.NumLinks(); ++id)
    {
        const LinkInfo& link = topology.Link(id);
        ns3::NetDeviceContainer pair;
        pair.Add(fabric.devices[link.a][link.portA]);
        pair.Add(fabric.devices[link.b][link.portB]);
        ns3::Ipv4InterfaceContainer interfaces = addresses.Assign(pair);
        addresses.NewNetwork();
        if (topology.Node(link.a).kind == NodeKind::Host)
        {
            hostAddress[topology.HostIndex(link.a)] = interfaces.GetAddress(0);
        }
        if (topology.Node(link.b).kind == NodeKind::Host)
        {
            hostAddress[topology.HostIndex(link.b)] = interfaces.GetAddress(1);
        }
    }
    ns3::Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Counters counters;
    ns3::Callback<void, ns3::Ptr<const ns3::Packet>> countHop(
        [&counters](ns3::Ptr<const ns3::Packet>) { ++counters.hops; });
    for (auto& ports : fabric.devices)
    {
        for (auto& device : ports)
        {
            device->TraceConnectWithoutContext("PhyRxEnd", countHop);
        }
    }
    ns3::Callback<void,
                  const ns3::Ipv4Header&,
                  ns3::Ptr<const ns3::Packet>,
                  ns3::Ipv4L3Protocol::DropReason,
                  ns3::Ptr<ns3::Ipv4>,
                  uint32_t>
        countIpDrop([&counters](const ns3::Ipv4Header&,
                                ns3::Ptr<const ns3::Packet>,
                                ns3::Ipv4L3Protocol::DropReason,
                                ns3::Ptr<ns3::Ipv4>,
                                uint32_t) { ++counters.ipDrops; });
    for (uint32_t node = 0; node < topology.NumNodes(); ++node)
    {
        fabric.nodes.Get(node)->GetObject<ns3::Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Drop", countIpDrop);
    }

    // The UDP payload that makes the PPP frame as long as incsim's frame on the wire.
    uint32_t payload = spec.PppFrameBytes() - kPppHeaderBytes - kIpv4UdpHeaderBytes;
    int64_t stopPs = simTimeNs * 1000;
    std::vector<std::unique_ptr<IpHost>> hosts;
    for (uint32_t h = 0; h < topology.Hosts().size(); ++h)
    {
        hosts.push_back(std::make_unique<IpHost>(fabric.nodes.Get(topology.Hosts()[h]),
                                                 h,
                                                 hostAddress,
                                                 payload,
                                                 spec.IntervalPs(),
                                                 stopPs,
                                                 counters));
        Rng rng(spec.seed, "bench-start", h);
        hosts.back()->Start(static_cast<int64_t>(rng.Uniform() * spec.IntervalPs()));
    }

    VariantResult result;
    TimedSimulatorRun(simTimeNs, result);
    result.name = "ns-3 IP";
    result.hops = counters.hops;
    result.framesSent = counters.sent;
    result.framesReceived = counters.received;
    result.drops = counters.sendFailures + counters.ipDrops;
    for (uint32_t node = 0; node < topology.NumNodes(); ++node)
    {
        auto tc = fabric.nodes.Get(node)->GetObject<ns3::TrafficControlLayer>();
        for (auto& device : fabric.devices[node])
        {
            result.drops += device->GetQueue()->GetTotalDroppedPackets();
            if (auto disc = tc->GetRootQueueDiscOnDevice(device))
            {
                result.drops += disc->GetStats().nTotalDroppedPackets;
            }
        }
    }
    ns3::Simulator::Destroy();
    hosts.clear();
    return result;
}

} // namespace incsim::bench
