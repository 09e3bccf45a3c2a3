#ifndef INCSIM_HOST_ENDPOINT_H
#define INCSIM_HOST_ENDPOINT_H

#include "sim/net/frame.h"

#include <ns3/object.h>

#include <cstdint>
#include <functional>

namespace incsim
{

class HostNode;

/// A received UDP datagram. `bytes` are the materialised payload bytes (the protocol header
/// and whatever else the sender wrote); valid only during the receive call.
struct Datagram
{
    uint32_t srcHost = 0;
    uint16_t srcPort = 0;
    uint16_t dstPort = 0;
    const uint8_t* bytes = nullptr;
    uint32_t materialised = 0;
    /// UDP payload length on the wire (>= materialised).
    uint32_t payloadBytes = 0;
    const Frame* frame = nullptr;
    /// A switch marked it CE (it was sent ECN-capable and met a queue above its threshold).
    bool congestionExperienced = false;
};

/// Base of host-side protocol code (a "process"): bound to one UDP port of one host, it sends
/// datagrams with protocol headers, receives them in DoReceive, reads the host's clock, and
/// charges work to the host CPU. Several endpoints may share a host.
class Endpoint : public ns3::Object
{
  public:
    static ns3::TypeId GetTypeId();

    Endpoint();
    ~Endpoint() override;

    HostNode& Host() const { return *m_host; }
    uint16_t Port() const { return m_port; }
    uint32_t HostIndex() const;

    /// Called by HostNode.
    void Bind(HostNode* host, uint16_t port);
    void HandleReceive(const Datagram& datagram) { DoReceive(datagram); }
    void HandleCrash() { DoCrash(); }
    void HandleRecover() { DoRecover(); }

  protected:
    /// Sends `payloadBytes` of UDP payload whose first `materialised` bytes are `bytes`.
    /// Returns false if the NIC queue had no room. `ecn`: the IPv4 ECN codepoint it carries.
    bool Send(uint32_t dstHost,
              uint16_t dstPort,
              const uint8_t* bytes,
              uint32_t materialised,
              uint32_t payloadBytes,
              uint8_t priority = 0,
              uint8_t ecn = 0);
    /// The host's local clock in ns (skewed and drifting per the scenario's clock model).
    int64_t LocalTimeNs() const;
    /// Runs `done` after the host CPU has spent `servicePs` on it.
    void Charge(int64_t servicePs, std::function<void()> done);
    /// The scenario's per-message CPU cost (/hosts/message_cost), in ps.
    int64_t MessageCostPs() const;
    /// Time until the host's NICs have sent what they hold now (the longest of their
    /// backlogs): when a message handed to them now has left, as an RDMA send completes.
    int64_t NicBacklogPs() const;

    virtual void DoReceive(const Datagram& datagram) = 0;
    /// The host crashed: drop volatile state. Timers should check Host().IsUp().
    virtual void DoCrash() {}
    virtual void DoRecover() {}

    void DoDispose() override;

  private:
    HostNode* m_host = nullptr;
    uint16_t m_port = 0;
};

} // namespace incsim

#endif
