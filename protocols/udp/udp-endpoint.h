#ifndef INCSIM_UDP_UDP_ENDPOINT_H
#define INCSIM_UDP_UDP_ENDPOINT_H

#include "sim/core/rng.h"
#include "sim/host/endpoint.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace incsim
{

class CsvWriter;

/// Shared configuration of the udp protocol's endpoints, filled from the scenario (whose spec
/// holds the defaults).
struct UdpWorkload
{
    enum class Pattern
    {
        Uniform,     ///< each message to a random other host
        Permutation, ///< each host to one fixed partner (a random derangement)
        AllToAll     ///< each host cycles through all other hosts
    };
    Pattern pattern{};
    uint32_t messageBytes = 0;
    uint32_t maxPayload = 0; ///< per fragment: MTU minus IPv4 and UDP headers
    double meanIntervalPs = 0;
    bool poisson = false;
    int64_t startPs = 0;
    int64_t stopPs = 0;
    uint16_t port = 0;
    uint8_t priority = 0;
};

struct UdpStats
{
    uint64_t messagesSent = 0;
    uint64_t messagesDelivered = 0;
    uint64_t fragmentsSent = 0;
    uint64_t fragmentsReceived = 0;
    uint64_t sendFailures = 0;
    std::vector<int64_t> latenciesPs;
};

/// Sends messages, fragmented to the MTU, and reassembles them; records one-way message
/// latency (first fragment handed to the NIC to last fragment received) in true time.
class UdpEndpoint : public Endpoint
{
  public:
    static ns3::TypeId GetTypeId();

    void Configure(const UdpWorkload& workload, uint32_t numHosts, Rng rng,
                   uint32_t permutationPartner, UdpStats* stats, CsvWriter* messages);
    void Start();

  private:
    struct Reassembly
    {
        uint32_t received = 0;
        int64_t sentPs = 0;
    };

    void DoReceive(const Datagram& datagram) override;
    void DoCrash() override;
    void SendMessage();
    void Deliver(uint32_t srcHost, uint64_t messageId, int64_t sentPs, uint32_t bytes);
    uint32_t PickDestination();

    UdpWorkload m_workload;
    uint32_t m_numHosts = 0;
    uint32_t m_partner = 0;
    uint32_t m_nextAllToAll = 1;
    uint64_t m_nextMessage = 0;
    Rng m_rng{0};
    UdpStats* m_stats = nullptr;
    CsvWriter* m_messages = nullptr;
    ns3::EventId m_sendEvent;
    std::unordered_map<uint64_t, Reassembly> m_reassembly; // key: (src host, message id)
};

} // namespace incsim

#endif
