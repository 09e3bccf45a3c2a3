#ifndef INCSIM_NET_NETWORK_NODE_H
#define INCSIM_NET_NETWORK_NODE_H

#include "sim/net/drop-reason.h"
#include "sim/net/frame-sink.h"

#include <ns3/object.h>
#include <ns3/ptr.h>
#include <ns3/traced-callback.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace incsim
{

class EgressPort;

/// What switches and hosts have in common: a topology node id and name, ports on links,
/// an up/down state, drop counting by reason, and the Receive and Drop trace sources.
class NetworkNode : public ns3::Object, public FrameSink
{
  public:
    static ns3::TypeId GetTypeId();

    using DropCounts = std::array<uint64_t, static_cast<size_t>(DropReason::Count)>;

    NetworkNode();
    ~NetworkNode() override;

    uint32_t NodeId() const { return m_nodeId; }
    const std::string& Name() const { return m_name; }
    bool IsUp() const { return m_up; }
    uint32_t NumPorts() const { return static_cast<uint32_t>(m_ports.size()); }
    EgressPort& Port(uint32_t port) const;
    void SetPort(uint32_t port, ns3::Ptr<EgressPort> egress);
    /// Frames this node dropped, by reason (egress-port drops are counted by the ports).
    const DropCounts& Drops() const { return m_drops; }

  protected:
    void ConfigureNode(uint32_t nodeId, std::string name, uint32_t numPorts);
    void Drop(const Frame& frame, uint32_t port, DropReason reason);
    void TraceReceive(const Frame& frame, uint32_t port)
    {
        if (!m_receiveTrace.IsEmpty())
        {
            m_receiveTrace(frame, m_nodeId, port);
        }
    }
    /// Drops everything queued at the node's ports (crash).
    void FlushPorts(DropReason reason);
    void DoDispose() override;

    bool m_up = true;
    std::vector<ns3::Ptr<EgressPort>> m_ports;

  private:
    uint32_t m_nodeId = 0;
    std::string m_name;
    DropCounts m_drops{};
    ns3::TracedCallback<const Frame&, uint32_t, uint32_t> m_receiveTrace; // frame, node, port
    ns3::TracedCallback<const Frame&, uint32_t, uint32_t, DropReason> m_dropTrace;
};

} // namespace incsim

#endif
