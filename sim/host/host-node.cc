#include "sim/host/host-node.h"

#include "sim/core/sim-time.h"
#include "sim/host/endpoint.h"
#include "sim/host/host-cpu.h"
#include "sim/net/egress-port.h"
#include "sim/net/headers.h"
#include "sim/topology/routing.h"

#include <stdexcept>

namespace incsim
{

NS_OBJECT_ENSURE_REGISTERED(HostNode);

ns3::TypeId
HostNode::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("incsim::HostNode")
            .SetParent<NetworkNode>()
            .SetGroupName("Incsim")
            .AddConstructor<HostNode>();
    return tid;
}

HostNode::HostNode()
    : m_cpu(ns3::CreateObject<HostCpu>())
{
}

HostNode::~HostNode() = default;

void
HostNode::Configure(uint32_t nodeId, uint32_t hostIndex, std::string name, uint32_t numPorts)
{
    ConfigureNode(nodeId, std::move(name), numPorts);
    m_hostIndex = hostIndex;
}

void
HostNode::InstallRoutes(const EcmpRoutes& routes)
{
    m_nicByDestination.clear();
    if (m_ports.size() <= 1)
    {
        return;
    }
    m_nicByDestination.resize(routes.NumHosts());
    for (uint32_t dst = 0; dst < routes.NumHosts(); ++dst)
    {
        auto hops = routes.NextHops(NodeId(), dst);
        m_nicByDestination[dst].assign(hops.begin(), hops.end());
    }
}

void
HostNode::Bind(uint16_t port, ns3::Ptr<Endpoint> endpoint)
{
    if (EndpointAt(port))
    {
        throw std::logic_error("host " + Name() + ": UDP port " + std::to_string(port) +
                               " is already bound");
    }
    endpoint->Bind(this, port);
    m_endpoints.emplace_back(port, endpoint);
}

ns3::Ptr<Endpoint>
HostNode::EndpointAt(uint16_t port) const
{
    for (const auto& [p, endpoint] : m_endpoints)
    {
        if (p == port)
        {
            return endpoint;
        }
    }
    return nullptr;
}

bool
HostNode::SendUdp(uint16_t srcPort,
                  uint32_t dstHost,
                  uint16_t dstPort,
                  const uint8_t* bytes,
                  uint32_t materialised,
                  uint32_t payloadBytes,
                  uint8_t priority,
                  uint8_t ecn)
{
    if (!m_up)
    {
        return false;
    }
    if (materialised + kUdpFrameOverhead > Frame::kCapacity)
    {
        throw std::length_error("datagram header bytes exceed the frame capacity");
    }
    FramePtr frame = FramePool::Instance().Allocate();
    UdpAddress address;
    address.srcHost = m_hostIndex;
    address.dstHost = dstHost;
    address.srcPort = srcPort;
    address.dstPort = dstPort;
    address.srcMac = NodeMac(NodeId());
    address.dscp = priority;
    address.ecn = ecn;
    WriteUdpHeaders(*frame, address, payloadBytes, materialised);
    if (materialised > 0)
    {
        std::memcpy(frame->data + kUdpPayloadOffset, bytes, materialised);
    }
    frame->createdPs = NowPs();
    frame->meta.priority = priority;

    uint32_t nic = 0;
    if (!m_nicByDestination.empty())
    {
        const auto& choices = m_nicByDestination[dstHost];
        if (choices.empty())
        {
            Drop(*frame, 0, DropReason::NoRoute);
            return false;
        }
        nic = choices[FlowHash(*frame, NodeId()) % choices.size()];
    }
    return SendFrame(nic, std::move(frame));
}

void
HostNode::SetEtherTypeHandler(uint16_t etherType, FrameHandler handler)
{
    for (auto& [type, existing] : m_etherTypeHandlers)
    {
        if (type == etherType)
        {
            existing = std::move(handler);
            return;
        }
    }
    m_etherTypeHandlers.emplace_back(etherType, std::move(handler));
}

bool
HostNode::SendFrame(uint32_t nic, FramePtr frame)
{
    if (!m_up)
    {
        return false;
    }
    frame->createdPs = NowPs();
    ++m_counters.sent;
    return m_ports.at(nic)->Enqueue(std::move(frame));
}

void
HostNode::ReceiveFrame(FramePtr frame, uint32_t port)
{
    if (!m_up)
    {
        Drop(*frame, port, DropReason::NodeDown);
        return;
    }
    TraceReceive(*frame, port);
    const uint16_t etherType = LoadBe16(frame->data + 12);
    if (etherType != kEtherTypeIpv4)
    {
        for (const auto& [type, handler] : m_etherTypeHandlers)
        {
            if (type == etherType)
            {
                ++m_counters.received;
                handler(*frame, port);
                return;
            }
        }
    }
    UdpView udp = ParseUdp(*frame);
    ns3::Ptr<Endpoint> endpoint = udp.valid ? EndpointAt(udp.dstPort) : nullptr;
    if (!endpoint)
    {
        Drop(*frame, port, DropReason::NoEndpoint);
        return;
    }
    ++m_counters.received;
    Datagram datagram;
    datagram.srcHost = udp.srcHost;
    datagram.srcPort = udp.srcPort;
    datagram.dstPort = udp.dstPort;
    datagram.bytes = udp.payload;
    datagram.materialised = udp.payloadMaterialised;
    datagram.payloadBytes = udp.payloadBytes;
    datagram.frame = frame.get();
    datagram.congestionExperienced = udp.ecn == kEcnCe;
    endpoint->HandleReceive(datagram);
}

void
HostNode::SetUp(bool up)
{
    if (m_up == up)
    {
        return;
    }
    m_up = up;
    if (!up)
    {
        FlushPorts(DropReason::NodeDown);
        m_cpu->Reset();
        for (auto& [port, endpoint] : m_endpoints)
        {
            endpoint->HandleCrash();
        }
    }
    else
    {
        for (auto& [port, endpoint] : m_endpoints)
        {
            endpoint->HandleRecover();
        }
    }
}

void
HostNode::DoDispose()
{
    for (auto& [port, endpoint] : m_endpoints)
    {
        endpoint->Dispose();
    }
    m_endpoints.clear();
    m_etherTypeHandlers.clear();
    m_cpu->Dispose();
    NetworkNode::DoDispose();
}

} // namespace incsim
