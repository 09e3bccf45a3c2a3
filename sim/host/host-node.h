#ifndef INCSIM_HOST_HOST_NODE_H
#define INCSIM_HOST_HOST_NODE_H

#include "sim/host/host-clock.h"
#include "sim/net/drop-reason.h"
#include "sim/net/frame-sink.h"

#include <ns3/object.h>
#include <ns3/ptr.h>
#include <ns3/traced-callback.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace incsim
{

class EcmpRoutes;
class EgressPort;
class Endpoint;
class HostCpu;

/// An end host: NIC port(s) on the network, a CPU, a clock, and endpoints bound to UDP ports.
class HostNode : public ns3::Object, public FrameSink
{
  public:
    static ns3::TypeId GetTypeId();

    struct Counters
    {
        uint64_t sent = 0;
        uint64_t received = 0;
        std::array<uint64_t, static_cast<size_t>(DropReason::Count)> drops{};
    };

    HostNode();
    ~HostNode() override;

    void Configure(uint32_t nodeId, uint32_t hostIndex, std::string name, uint32_t numPorts);
    void SetPort(uint32_t port, ns3::Ptr<EgressPort> nic);
    void SetClock(const HostClock& clock) { m_clock = clock; }
    void SetMessageCostPs(int64_t ps) { m_messageCostPs = ps; }
    /// Only multi-homed hosts need routes, to choose a NIC per flow.
    void InstallRoutes(const EcmpRoutes& routes);

    uint32_t NodeId() const { return m_nodeId; }
    uint32_t Index() const { return m_hostIndex; }
    const std::string& Name() const { return m_name; }
    HostCpu& Cpu() const { return *m_cpu; }
    HostClock& Clock() { return m_clock; }
    int64_t MessageCostPs() const { return m_messageCostPs; }
    uint32_t NumPorts() const { return static_cast<uint32_t>(m_ports.size()); }
    EgressPort& Port(uint32_t port) const;

    /// Binds an endpoint to a UDP port; the port must be free.
    void Bind(uint16_t port, ns3::Ptr<Endpoint> endpoint);
    ns3::Ptr<Endpoint> EndpointAt(uint16_t port) const;
    const std::vector<std::pair<uint16_t, ns3::Ptr<Endpoint>>>& Endpoints() const
    {
        return m_endpoints;
    }

    bool SendUdp(uint16_t srcPort,
                 uint32_t dstHost,
                 uint16_t dstPort,
                 const uint8_t* bytes,
                 uint32_t materialised,
                 uint32_t payloadBytes,
                 uint8_t priority);

    void SetUp(bool up);
    bool IsUp() const { return m_up; }

    void ReceiveFrame(FramePtr frame, uint32_t port) override;
    const Counters& GetCounters() const { return m_counters; }

  private:
    void DoDispose() override;
    void Drop(const Frame& frame, uint32_t port, DropReason reason);

    uint32_t m_nodeId = 0;
    uint32_t m_hostIndex = 0;
    std::string m_name;
    bool m_up = true;
    std::vector<ns3::Ptr<EgressPort>> m_ports;
    // NIC choice per destination for multi-homed hosts; empty when there is one NIC.
    std::vector<std::vector<uint32_t>> m_nicByDestination;
    ns3::Ptr<HostCpu> m_cpu;
    HostClock m_clock;
    int64_t m_messageCostPs = 0;
    // Few endpoints per host: a small vector beats a hash map here.
    std::vector<std::pair<uint16_t, ns3::Ptr<Endpoint>>> m_endpoints;
    Counters m_counters;

    ns3::TracedCallback<const Frame&, uint32_t, uint32_t> m_receiveTrace; // frame, node, port
    ns3::TracedCallback<const Frame&, uint32_t, uint32_t, DropReason> m_dropTrace;
};

} // namespace incsim

#endif
