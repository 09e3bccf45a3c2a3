#ifndef INCSIM_HOST_HOST_NODE_H
#define INCSIM_HOST_HOST_NODE_H

#include "sim/host/host-clock.h"
#include "sim/net/drop-reason.h"
#include "sim/net/network-node.h"

#include <ns3/object.h>
#include <ns3/ptr.h>
#include <ns3/traced-callback.h>

#include <array>
#include <functional>
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
class HostNode : public NetworkNode
{
  public:
    static ns3::TypeId GetTypeId();

    struct Counters
    {
        uint64_t sent = 0;
        uint64_t received = 0;
    };

    HostNode();
    ~HostNode() override;

    void Configure(uint32_t nodeId, uint32_t hostIndex, std::string name, uint32_t numPorts);
    void SetClock(const HostClock& clock) { m_clock = clock; }
    void SetMessageCostPs(int64_t ps) { m_messageCostPs = ps; }
    /// Only multi-homed hosts need routes, to choose a NIC per flow.
    void InstallRoutes(const EcmpRoutes& routes);

    uint32_t Index() const { return m_hostIndex; }
    HostCpu& Cpu() const { return *m_cpu; }
    HostClock& Clock() { return m_clock; }
    int64_t MessageCostPs() const { return m_messageCostPs; }

    /// Binds an endpoint to a UDP port; the port must be free.
    void Bind(uint16_t port, ns3::Ptr<Endpoint> endpoint);
    ns3::Ptr<Endpoint> EndpointAt(uint16_t port) const;
    const std::vector<std::pair<uint16_t, ns3::Ptr<Endpoint>>>& Endpoints() const
    {
        return m_endpoints;
    }

    /// Receives the frames of one EtherType other than IPv4 (hop-by-hop control frames, such
    /// as 1Pipe beacons); the frame is valid only during the call.
    using FrameHandler = std::function<void(const Frame& frame, uint32_t nic)>;
    void SetEtherTypeHandler(uint16_t etherType, FrameHandler handler);
    /// Sends a frame the caller built (Ethernet and up) on NIC `nic`. False if the host is down
    /// or the NIC queue had no room.
    bool SendFrame(uint32_t nic, FramePtr frame);

    bool SendUdp(uint16_t srcPort,
                 uint32_t dstHost,
                 uint16_t dstPort,
                 const uint8_t* bytes,
                 uint32_t materialised,
                 uint32_t payloadBytes,
                 uint8_t priority,
                 uint8_t ecn = 0);

    void SetUp(bool up);

    void ReceiveFrame(FramePtr frame, uint32_t port) override;
    const Counters& GetCounters() const { return m_counters; }

  private:
    void DoDispose() override;

    uint32_t m_hostIndex = 0;
    // NIC choice per destination for multi-homed hosts; empty when there is one NIC.
    std::vector<std::vector<uint32_t>> m_nicByDestination;
    ns3::Ptr<HostCpu> m_cpu;
    HostClock m_clock;
    int64_t m_messageCostPs = 0;
    // Few endpoints per host: a small vector beats a hash map here.
    std::vector<std::pair<uint16_t, ns3::Ptr<Endpoint>>> m_endpoints;
    std::vector<std::pair<uint16_t, FrameHandler>> m_etherTypeHandlers;
    Counters m_counters;
};

} // namespace incsim

#endif
