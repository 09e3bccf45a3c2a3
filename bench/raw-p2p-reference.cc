// Reference 2: ns-3's point-to-point devices forwarding with no IP stack at all, the floor of
// what a simulator built on stock ns-3 devices can cost per hop. A receive callback on every
// device looks the next hop up in a (node, destination host) table and sends the packet on.

#include "bench/ns3-fabric.h"
#include "bench/variants.h"

#include "sim/core/rng.h"
#include "sim/topology/routing.h"
#include "sim/topology/topology.h"

#include <ns3/buffer.h>
#include <ns3/header.h>
#include <ns3/packet.h>
#include <ns3/simulator.h>

#include <memory>
#include <vector>

namespace incsim::bench
{
namespace
{

constexpr uint32_t kPppHeaderBytes = 2;
/// The PPP protocol number the devices accept (IPv4's); nothing above them looks at it.
constexpr uint16_t kProtocol = 0x0800;

/// The only header the frames carry: source and destination host index.
class HostHeader : public ns3::Header
{
  public:
    static ns3::TypeId GetTypeId()
    {
        static ns3::TypeId tid = ns3::TypeId("incsim::bench::HostHeader")
                                     .SetParent<ns3::Header>()
                                     .SetGroupName("IncsimBench")
                                     .AddConstructor<HostHeader>();
        return tid;
    }
    ns3::TypeId GetInstanceTypeId() const override { return GetTypeId(); }
    uint32_t GetSerializedSize() const override { return 8; }
    void Serialize(ns3::Buffer::Iterator start) const override
    {
        start.WriteHtonU32(src);
        start.WriteHtonU32(dst);
    }
    uint32_t Deserialize(ns3::Buffer::Iterator start) override
    {
        src = start.ReadNtohU32();
        dst = start.ReadNtohU32();
        return 8;
    }
    void Print(std::ostream& os) const override { os << src << "->" << dst; }

    uint32_t src = 0;
    uint32_t dst = 0;
};

struct Counters
{
    uint64_t hops = 0;
    uint64_t sent = 0;
    uint64_t received = 0;
    uint64_t drops = 0;
};

/// One node, host or switch: receives on all its devices, forwards or consumes.
class RawNode
{
  public:
    RawNode(uint32_t nodeId,
            bool isHost,
            const EcmpRoutes& routes,
            std::vector<ns3::Ptr<ns3::PointToPointNetDevice>> ports,
            Counters& counters)
        : m_nodeId(nodeId),
          m_isHost(isHost),
          m_salt(Mix64(0x5157ULL ^ nodeId)),
          m_routes(routes),
          m_ports(std::move(ports)),
          m_counters(counters)
    {
        for (auto& port : m_ports)
        {
            port->SetReceiveCallback(ns3::MakeCallback(&RawNode::Receive, this));
        }
    }

    /// Hosts only: send round-robin to every other host at a constant rate.
    void StartSending(uint32_t self, uint32_t numHosts, uint32_t payloadBytes, int64_t firstPs,
                      int64_t intervalPs, int64_t stopPs)
    {
        m_self = self;
        m_numHosts = numHosts;
        m_payloadBytes = payloadBytes;
        m_intervalPs = intervalPs;
        m_stopPs = stopPs;
        ns3::Simulator::Schedule(ns3::Time::From(firstPs), &RawNode::Send, this);
    }

  private:
    void Send()
    {
        HostHeader header;
        header.src = m_self;
        header.dst = AllToAllDestination(m_self, m_sent++, m_numHosts);
        ns3::Ptr<ns3::Packet> packet = ns3::Create<ns3::Packet>(m_payloadBytes);
        packet->AddHeader(header);
        ++m_counters.sent;
        Forward(packet, header);
        int64_t now = ns3::Simulator::Now().GetTimeStep();
        if (now + m_intervalPs < m_stopPs)
        {
            ns3::Simulator::Schedule(ns3::Time::From(m_intervalPs), &RawNode::Send, this);
        }
    }

    bool Receive(ns3::Ptr<ns3::NetDevice> device,
                 ns3::Ptr<const ns3::Packet> packet,
                 uint16_t protocol,
                 const ns3::Address& from)
    {
        ++m_counters.hops;
        if (m_isHost)
        {
            ++m_counters.received;
            return true;
        }
        HostHeader header;
        packet->PeekHeader(header);
        // Like IP forwarding in ns-3, send a copy (copy-on-write: the bytes are shared).
        Forward(packet->Copy(), header);
        return true;
    }

    void Forward(ns3::Ptr<ns3::Packet> packet, const HostHeader& header)
    {
        EcmpRoutes::PortList ports = m_routes.NextHops(m_nodeId, header.dst);
        if (ports.size == 0)
        {
            ++m_counters.drops;
            return;
        }
        uint32_t pick = 0;
        if (ports.size > 1)
        {
            uint64_t flow = (static_cast<uint64_t>(header.src) << 32) | header.dst;
            pick = static_cast<uint32_t>(Mix64(flow ^ m_salt) % ports.size);
        }
        auto& device = m_ports[ports.data[pick]];
        if (!device->Send(packet, device->GetBroadcast(), kProtocol))
        {
            ++m_counters.drops;
        }
    }

    uint32_t m_nodeId;
    bool m_isHost;
    uint64_t m_salt;
    const EcmpRoutes& m_routes;
    std::vector<ns3::Ptr<ns3::PointToPointNetDevice>> m_ports;
    Counters& m_counters;
    // Hosts only.
    uint32_t m_self = 0;
    uint32_t m_numHosts = 0;
    uint32_t m_payloadBytes = 0;
    int64_t m_intervalPs = 0;
    int64_t m_stopPs = 0;
    uint64_t m_sent = 0;
};

} // namespace

VariantResult
RunRawP2p(const TrafficSpec& spec, int64_t simTimeNs)
{
    Topology topology = BuildBenchTopology(spec);
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    Ns3Fabric fabric = BuildNs3FabricNodes(topology);
    BuildNs3FabricLinks(fabric, topology, spec);

    Counters counters;
    std::vector<std::unique_ptr<RawNode>> nodes;
    for (uint32_t node = 0; node < topology.NumNodes(); ++node)
    {
        nodes.push_back(std::make_unique<RawNode>(node,
                                                  topology.Node(node).kind == NodeKind::Host,
                                                  routes,
                                                  fabric.devices[node],
                                                  counters));
    }
    // The payload that makes the PPP frame as long as incsim's frame on the wire.
    uint32_t payload = spec.PppFrameBytes() - kPppHeaderBytes - HostHeader().GetSerializedSize();
    int64_t stopPs = simTimeNs * 1000;
    auto numHosts = static_cast<uint32_t>(topology.Hosts().size());
    for (uint32_t h = 0; h < numHosts; ++h)
    {
        Rng rng(spec.seed, "bench-start", h);
        nodes[topology.Hosts()[h]]->StartSending(
            h, numHosts, payload, static_cast<int64_t>(rng.Uniform() * spec.IntervalPs()),
            spec.IntervalPs(), stopPs);
    }

    VariantResult result;
    TimedSimulatorRun(simTimeNs, result);
    result.name = "ns-3 raw p2p";
    result.hops = counters.hops;
    result.framesSent = counters.sent;
    result.framesReceived = counters.received;
    result.drops = counters.drops;
    ns3::Simulator::Destroy();
    return result;
}

} // namespace incsim::bench
