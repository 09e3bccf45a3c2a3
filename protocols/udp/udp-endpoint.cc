#include "protocols/udp/udp-endpoint.h"

#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/headers.h"
#include "sim/trace/csv-writer.h"

#include <ns3/simulator.h>

#include <algorithm>

namespace incsim
{

namespace
{
// Message header carried in every fragment: message id, send time, fragment index/count,
// message size.
constexpr uint32_t kHeaderBytes = 24;

uint64_t
ReassemblyKey(uint32_t srcHost, uint64_t messageId)
{
    return (static_cast<uint64_t>(srcHost) << 40) ^ messageId;
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(UdpEndpoint);

ns3::TypeId
UdpEndpoint::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::UdpEndpoint")
                                 .SetParent<Endpoint>()
                                 .SetGroupName("Incsim")
                                 .AddConstructor<UdpEndpoint>();
    return tid;
}

void
UdpEndpoint::Configure(const UdpWorkload& workload, uint32_t numHosts, Rng rng,
                       uint32_t permutationPartner, UdpStats* stats, CsvWriter* messages)
{
    m_workload = workload;
    m_numHosts = numHosts;
    m_rng = rng;
    m_partner = permutationPartner;
    m_stats = stats;
    m_messages = messages;
}

void
UdpEndpoint::Start()
{
    if (m_numHosts < 2 || m_workload.meanIntervalPs <= 0)
    {
        return;
    }
    // Desynchronise the hosts' first messages within one interval.
    int64_t first = m_workload.startPs +
                    static_cast<int64_t>(m_rng.Uniform() * m_workload.meanIntervalPs);
    m_sendEvent = ns3::Simulator::Schedule(Ps(first), &UdpEndpoint::SendMessage, this);
}

uint32_t
UdpEndpoint::PickDestination()
{
    uint32_t self = HostIndex();
    switch (m_workload.pattern)
    {
    case UdpWorkload::Pattern::Permutation:
        return m_partner;
    case UdpWorkload::Pattern::AllToAll: {
        uint32_t dst = (self + m_nextAllToAll) % m_numHosts;
        m_nextAllToAll = m_nextAllToAll % (m_numHosts - 1) + 1;
        return dst;
    }
    case UdpWorkload::Pattern::Uniform:
        break;
    }
    uint32_t dst = static_cast<uint32_t>(m_rng.UniformInt(m_numHosts - 1));
    return dst >= self ? dst + 1 : dst;
}

void
UdpEndpoint::SendMessage()
{
    if (Host().IsUp())
    {
        uint32_t dst = PickDestination();
        uint64_t id = m_nextMessage++;
        uint32_t perFragment = m_workload.maxPayload - kHeaderBytes;
        uint32_t fragments = std::max<uint32_t>(1, (m_workload.messageBytes + perFragment - 1) /
                                                       perFragment);
        int64_t now = NowPs();
        uint8_t header[kHeaderBytes];
        bool ok = true;
        for (uint32_t i = 0; i < fragments; ++i)
        {
            uint32_t body = std::min(perFragment, m_workload.messageBytes - i * perFragment);
            StoreBe64(header, id);
            StoreBe64(header + 8, static_cast<uint64_t>(now));
            StoreBe16(header + 16, static_cast<uint16_t>(i));
            StoreBe16(header + 18, static_cast<uint16_t>(fragments));
            StoreBe32(header + 20, m_workload.messageBytes);
            ok = Send(dst, m_workload.port, header, kHeaderBytes, kHeaderBytes + body,
                      m_workload.priority) && ok;
            ++m_stats->fragmentsSent;
        }
        ++m_stats->messagesSent;
        m_stats->sendFailures += ok ? 0 : 1;
    }
    double gap = m_workload.poisson ? m_rng.Exponential(m_workload.meanIntervalPs)
                                    : m_workload.meanIntervalPs;
    int64_t next = NowPs() + std::max<int64_t>(1, static_cast<int64_t>(gap));
    if (next < m_workload.stopPs)
    {
        m_sendEvent = ns3::Simulator::Schedule(Ps(next - NowPs()), &UdpEndpoint::SendMessage, this);
    }
}

void
UdpEndpoint::DoReceive(const Datagram& datagram)
{
    ++m_stats->fragmentsReceived;
    if (datagram.materialised < kHeaderBytes)
    {
        return;
    }
    const uint8_t* h = datagram.bytes;
    uint64_t id = LoadBe64(h);
    auto sentPs = static_cast<int64_t>(LoadBe64(h + 8));
    uint16_t fragments = LoadBe16(h + 18);
    uint32_t bytes = LoadBe32(h + 20);
    if (fragments == 1)
    {
        Deliver(datagram.srcHost, id, sentPs, bytes);
        return;
    }
    uint64_t key = ReassemblyKey(datagram.srcHost, id);
    Reassembly& state = m_reassembly[key];
    state.sentPs = sentPs;
    if (++state.received == fragments)
    {
        m_reassembly.erase(key);
        Deliver(datagram.srcHost, id, sentPs, bytes);
    }
}

void
UdpEndpoint::Deliver(uint32_t srcHost, uint64_t messageId, int64_t sentPs, uint32_t bytes)
{
    auto record = [this, srcHost, messageId, sentPs, bytes]() {
        int64_t now = NowPs();
        ++m_stats->messagesDelivered;
        m_stats->latenciesPs.push_back(now - sentPs);
        if (m_messages != nullptr)
        {
            m_messages->Row(srcHost, HostIndex(), messageId, bytes, sentPs / kPsPerNs,
                            now / kPsPerNs, (now - sentPs) / kPsPerNs);
        }
    };
    if (MessageCostPs() > 0)
    {
        Charge(MessageCostPs(), record);
    }
    else
    {
        record();
    }
}

void
UdpEndpoint::DoCrash()
{
    m_reassembly.clear();
}

} // namespace incsim
