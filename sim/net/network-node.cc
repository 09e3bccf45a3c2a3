#include "sim/net/network-node.h"

#include "sim/net/egress-port.h"

namespace incsim
{

NS_OBJECT_ENSURE_REGISTERED(NetworkNode);

ns3::TypeId
NetworkNode::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("incsim::NetworkNode")
            .SetParent<ns3::Object>()
            .SetGroupName("Incsim")
            .AddTraceSource("Receive",
                            "A frame arrived at the node (at a switch: entered the ingress "
                            "pipeline).",
                            ns3::MakeTraceSourceAccessor(&NetworkNode::m_receiveTrace),
                            "incsim::NetworkNode::FrameCallback")
            .AddTraceSource("Drop",
                            "The node dropped a frame (pipeline, no route, CPU queue, no "
                            "endpoint, node down).",
                            ns3::MakeTraceSourceAccessor(&NetworkNode::m_dropTrace),
                            "incsim::NetworkNode::DropCallback");
    return tid;
}

NetworkNode::NetworkNode() = default;
NetworkNode::~NetworkNode() = default;

void
NetworkNode::ConfigureNode(uint32_t nodeId, std::string name, uint32_t numPorts)
{
    m_nodeId = nodeId;
    m_name = std::move(name);
    m_ports.resize(numPorts);
}

EgressPort&
NetworkNode::Port(uint32_t port) const
{
    return *m_ports[port];
}

void
NetworkNode::SetPort(uint32_t port, ns3::Ptr<EgressPort> egress)
{
    m_ports[port] = egress;
}

void
NetworkNode::Drop(const Frame& frame, uint32_t port, DropReason reason)
{
    ++m_drops[static_cast<size_t>(reason)];
    if (!m_dropTrace.IsEmpty())
    {
        m_dropTrace(frame, m_nodeId, port, reason);
    }
}

void
NetworkNode::FlushPorts(DropReason reason)
{
    for (auto& port : m_ports)
    {
        port->Flush(reason);
    }
}

void
NetworkNode::DoDispose()
{
    m_ports.clear();
    ns3::Object::DoDispose();
}

} // namespace incsim
