#include "sim/traffic/bulk-transport.h"

#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"
#include "sim/net/headers.h"

#include <ns3/simulator.h>

#include <algorithm>

namespace incsim
{

namespace
{
// Header of every segment and ACK: kind, flow id, sequence (data: segment number; ACK: next
// segment expected), a timestamp (data: send time; ACK: the send time it echoes), and (ACK)
// the segment that arrived; byte 1 of an ACK echoes the segment's CE mark (DCTCP).
constexpr uint8_t kData = 0;
constexpr uint8_t kAck = 1;
constexpr int64_t kInitialRtoPs = 1'000'000'000; // 1 ms, as RFC 6298 before any sample
constexpr uint32_t kMaxBackoff = 6;
// Segments acknowledged above a hole that declare it lost.
constexpr uint64_t kDuplicateThreshold = 3;
// Scoreboard states of a segment in [una, high).
constexpr uint8_t kOutstanding = 0;
constexpr uint8_t kSacked = 1;
constexpr uint8_t kRetransmitted = 2; // and not acknowledged since

/// A power of two above the window, so a ring indexed by segment & (size - 1) covers it.
size_t
RingSize(uint32_t windowSegments)
{
    size_t size = 1;
    while (size <= windowSegments)
    {
        size <<= 1;
    }
    return size;
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(BulkTransport);

ns3::TypeId
BulkTransport::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::BulkTransport")
                                 .SetParent<Endpoint>()
                                 .SetGroupName("Incsim")
                                 .AddConstructor<BulkTransport>();
    return tid;
}

void
BulkTransport::Configure(const BulkTransportConfig& config, BulkTransportStats* stats)
{
    m_config = config;
    m_stats = stats;
}

void
BulkTransport::AddFlow(uint32_t flowId, uint32_t dstHost)
{
    Sender flow;
    flow.id = flowId;
    flow.dst = dstHost;
    flow.sacked.assign(RingSize(m_config.maxWindowSegments), 0);
    flow.cwnd = m_config.initialWindow;
    flow.ssthresh = m_config.maxWindowSegments;
    flow.rtoPs = std::max(kInitialRtoPs, m_config.minRtoPs);
    m_senderById[flowId] = static_cast<uint32_t>(m_senders.size());
    m_senders.push_back(std::move(flow));
}

void
BulkTransport::ExpectFlow(uint32_t flowId)
{
    m_receivers[flowId].received.assign(RingSize(m_config.maxWindowSegments), 0);
}

void
BulkTransport::Start()
{
    if (!m_senders.empty())
    {
        ns3::Simulator::Schedule(Ps(m_config.startPs - NowPs()), &BulkTransport::TrySend, this);
    }
}

uint64_t
BulkTransport::NicQueuedBytes() const
{
    uint64_t queued = 0;
    for (uint32_t nic = 0; nic < Host().NumPorts(); ++nic)
    {
        queued += Host().Port(nic).QueuedBytes();
    }
    return queued;
}

bool
BulkTransport::IsSacked(const Sender& flow, uint64_t segment) const
{
    return segment < flow.highestSacked &&
           flow.sacked[segment & (flow.sacked.size() - 1)] == kSacked;
}

uint64_t
BulkTransport::FackWindow(const Sender& flow) const
{
    // FACK's estimate of the data in the network: beyond the highest acknowledged segment,
    // plus retransmissions not yet acknowledged.
    return flow.high - std::min(flow.high, flow.highestSacked) + flow.retransmittedOut;
}

void
BulkTransport::MarkAcknowledged(Sender& flow, uint64_t segment)
{
    uint8_t& state = flow.sacked[segment & (flow.sacked.size() - 1)];
    flow.retransmittedOut -= state == kRetransmitted ? 1 : 0;
    state = kSacked;
}

bool
BulkTransport::CanSend(const Sender& flow) const
{
    // In recovery the FACK estimate of the data in flight, not next - una, meets the window.
    double window = std::min<double>(flow.cwnd, m_config.maxWindowSegments);
    if (flow.inRecovery ? FackWindow(flow) >= static_cast<uint64_t>(window) ||
                              flow.next >= flow.una + m_config.maxWindowSegments
                        : flow.next >= flow.una + static_cast<uint64_t>(window))
    {
        return false;
    }
    return flow.next < flow.high || NowPs() < m_config.stopPs;
}

void
BulkTransport::TrySend()
{
    if (!Host().IsUp() || m_senders.empty() || NowPs() < m_config.startPs)
    {
        return;
    }
    const auto flows = static_cast<uint32_t>(m_senders.size());
    uint32_t idle = 0; // consecutive flows that could not send
    while (idle < flows)
    {
        const uint64_t queued = NicQueuedBytes();
        if (queued >= m_config.nicLimitBytes)
        {
            if (!m_wakeEvent.IsRunning())
            {
                const uint64_t excess = queued - m_config.nicLimitBytes + 1;
                const auto drainPs = static_cast<int64_t>(excess * 8 * 1'000'000'000'000ULL /
                                                          Host().Port(0).RateBps());
                m_wakeEvent = ns3::Simulator::Schedule(Ps(std::max<int64_t>(1, drainPs)),
                                                       &BulkTransport::TrySend, this);
            }
            return;
        }
        Sender& flow = m_senders[m_nextSender];
        m_nextSender = (m_nextSender + 1) % flows;
        while (flow.next < flow.high && IsSacked(flow, flow.next))
        {
            ++flow.next; // resending after a timeout: the receiver has this one
        }
        if (!CanSend(flow))
        {
            ++idle;
            continue;
        }
        idle = 0;
        if (flow.next < flow.high)
        {
            ++m_stats->retransmissions;
        }
        SendSegment(flow, flow.next);
        ++flow.next;
        flow.high = std::max(flow.high, flow.next);
        if (flow.rtoDeadlinePs < 0)
        {
            ArmRto(flow);
        }
    }
}

void
BulkTransport::SendSegment(Sender& flow, uint64_t segment)
{
    uint8_t header[kHeaderBytes] = {};
    header[0] = kData;
    StoreBe32(header + 4, flow.id);
    StoreBe64(header + 8, segment);
    StoreBe64(header + 16, static_cast<uint64_t>(NowPs()));
    ++m_stats->segmentsSent;
    Send(flow.dst, Port(), header, kHeaderBytes, kHeaderBytes + m_config.segmentBytes,
         m_config.priority, m_config.dctcp ? kEcnEct0 : kEcnNotEct);
}

void
BulkTransport::DoReceive(const Datagram& datagram)
{
    if (datagram.materialised < kHeaderBytes)
    {
        return;
    }
    const uint8_t* h = datagram.bytes;
    uint32_t flowId = LoadBe32(h + 4);
    uint64_t sequence = LoadBe64(h + 8);
    auto stampPs = static_cast<int64_t>(LoadBe64(h + 16));
    if (h[0] == kData)
    {
        OnData(flowId, datagram.srcHost, sequence, stampPs, datagram.congestionExperienced);
        return;
    }
    auto it = m_senderById.find(flowId);
    if (it != m_senderById.end())
    {
        OnAck(m_senders[it->second], sequence, LoadBe64(h + 24), stampPs, h[1] != 0);
    }
}

void
BulkTransport::OnData(uint32_t flowId, uint32_t srcHost, uint64_t segment, int64_t echoPs,
                      bool ce)
{
    auto it = m_receivers.find(flowId);
    if (it == m_receivers.end())
    {
        return;
    }
    Receiver& flow = it->second;
    const uint64_t mask = flow.received.size() - 1;
    if (segment >= flow.next && segment - flow.next <= mask)
    {
        flow.received[segment & mask] = 1;
        const uint64_t before = flow.next;
        while (flow.received[flow.next & mask] != 0)
        {
            flow.received[flow.next & mask] = 0;
            ++flow.next;
        }
        m_stats->bytesDelivered += (flow.next - before) * m_config.segmentBytes;
    }
    uint8_t header[kHeaderBytes] = {};
    header[0] = kAck;
    header[1] = ce ? 1 : 0; // ECN echo: every segment is ACKed, so the echo is exact
    StoreBe32(header + 4, flowId);
    StoreBe64(header + 8, flow.next);
    StoreBe64(header + 16, static_cast<uint64_t>(echoPs));
    StoreBe64(header + 24, segment);
    Send(srcHost, Port(), header, kHeaderBytes, kHeaderBytes, m_config.priority);
}

void
BulkTransport::UpdateRtt(Sender& flow, int64_t samplePs)
{
    // RFC 6298.
    if (flow.srttPs == 0)
    {
        flow.srttPs = samplePs;
        flow.rttvarPs = samplePs / 2;
    }
    else
    {
        int64_t error = flow.srttPs - samplePs;
        flow.rttvarPs += ((error < 0 ? -error : error) - flow.rttvarPs) / 4;
        flow.srttPs += (samplePs - flow.srttPs) / 8;
    }
    flow.rtoPs = std::max(m_config.minRtoPs, flow.srttPs + 4 * flow.rttvarPs);
}

bool
BulkTransport::RetransmitNextLoss(Sender& flow)
{
    // FACK: a hole is lost once kDuplicateThreshold segments above it were acknowledged.
    if (flow.highestSacked < kDuplicateThreshold)
    {
        return false;
    }
    const uint64_t lossLimit = flow.highestSacked - kDuplicateThreshold;
    for (uint64_t segment = std::max(flow.retransmitNext, flow.una); segment < lossLimit;
         ++segment)
    {
        flow.retransmitNext = segment + 1;
        uint8_t& state = flow.sacked[segment & (flow.sacked.size() - 1)];
        if (state == kOutstanding)
        {
            state = kRetransmitted;
            ++flow.retransmittedOut;
            ++m_stats->retransmissions;
            SendSegment(flow, segment);
            return true;
        }
    }
    return false;
}

void
BulkTransport::OnAck(Sender& flow, uint64_t ack, uint64_t arrived, int64_t echoPs, bool ecnEcho)
{
    if (ack > flow.high || arrived >= flow.high)
    {
        return;
    }
    UpdateRtt(flow, NowPs() - echoPs);
    if (m_config.dctcp)
    {
        UpdateDctcp(flow, ack > flow.una ? ack - flow.una : 0, ecnEcho);
    }
    const uint64_t mask = flow.sacked.size() - 1;
    if (arrived >= ack)
    {
        MarkAcknowledged(flow, arrived);
    }
    for (uint64_t segment = flow.una; segment < ack; ++segment)
    {
        MarkAcknowledged(flow, segment);
        flow.sacked[segment & mask] = kOutstanding; // the ring slot's next use
    }
    flow.highestSacked = std::max({flow.highestSacked, ack, arrived + 1});

    if (ack > flow.una)
    {
        const auto acked = static_cast<double>(ack - flow.una);
        flow.una = ack;
        flow.next = std::max(flow.next, flow.una);
        flow.backoff = 0;
        if (flow.inRecovery)
        {
            if (ack >= flow.recover)
            {
                flow.inRecovery = false;
                flow.cwnd = flow.ssthresh;
            }
        }
        else if (flow.cwnd < flow.ssthresh)
        {
            flow.cwnd += acked;
        }
        else
        {
            flow.cwnd += acked / flow.cwnd;
        }
        flow.cwnd = std::min<double>(flow.cwnd, m_config.maxWindowSegments);
        flow.rtoDeadlinePs = -1;
        if (flow.una < flow.high)
        {
            ArmRto(flow);
        }
    }
    else if (!flow.inRecovery && flow.una >= flow.recover &&
             flow.highestSacked >= flow.una + 1 + kDuplicateThreshold &&
             !IsSacked(flow, flow.una))
    {
        auto inFlight = static_cast<double>(flow.high - flow.una);
        flow.ssthresh = std::max(2.0, inFlight / 2);
        flow.cwnd = flow.ssthresh;
        flow.recover = flow.high;
        flow.inRecovery = true;
        flow.retransmitNext = flow.una;
        ++m_stats->fastRetransmits;
        flow.rtoDeadlinePs = -1;
        ArmRto(flow);
    }
    // In recovery, retransmissions go first while the window has room; then new data.
    while (flow.inRecovery && FackWindow(flow) < static_cast<uint64_t>(flow.cwnd) &&
           RetransmitNextLoss(flow))
    {
    }
    TrySend();
}

void
BulkTransport::UpdateDctcp(Sender& flow, uint64_t newlyAcked, bool ecnEcho)
{
    // RFC 8257 section 3.3, counting segments: one ACK per segment, so an ACK that advances
    // nothing (a segment above a hole) still counts one.
    const uint64_t segments = std::max<uint64_t>(1, newlyAcked);
    m_stats->ecnEchoes += ecnEcho ? 1 : 0;
    flow.ackedInWindow += segments;
    flow.markedInWindow += ecnEcho ? segments : 0;
    if (flow.una + newlyAcked <= flow.windowEnd)
    {
        return;
    }
    const double marked =
        static_cast<double>(flow.markedInWindow) / static_cast<double>(flow.ackedInWindow);
    flow.alpha = (1 - m_config.dctcpGain) * flow.alpha + m_config.dctcpGain * marked;
    if (flow.markedInWindow > 0 && !flow.inRecovery)
    {
        flow.cwnd = std::max(2.0, flow.cwnd * (1 - flow.alpha / 2));
        flow.ssthresh = flow.cwnd;
    }
    flow.windowEnd = flow.high;
    flow.ackedInWindow = 0;
    flow.markedInWindow = 0;
}

void
BulkTransport::ArmRto(Sender& flow)
{
    // One pending event per flow: it is moved only when the deadline comes earlier; a later
    // deadline is picked up when the event fires, so an ACK costs no scheduler operation.
    const int64_t deadline = NowPs() + (flow.rtoPs << flow.backoff);
    const bool pending = flow.rtoEvent.IsRunning();
    const int64_t firesPs = pending ? static_cast<int64_t>(flow.rtoEvent.GetTs()) : -1;
    flow.rtoDeadlinePs = deadline;
    if (!pending || firesPs > deadline)
    {
        flow.rtoEvent.Cancel();
        flow.rtoEvent = ns3::Simulator::Schedule(Ps(deadline - NowPs()),
                                                 &BulkTransport::RtoExpired, this,
                                                 static_cast<uint32_t>(&flow - m_senders.data()));
    }
}

void
BulkTransport::RtoExpired(uint32_t index)
{
    Sender& flow = m_senders[index];
    if (flow.rtoDeadlinePs < 0 || !Host().IsUp())
    {
        return;
    }
    if (NowPs() < flow.rtoDeadlinePs)
    {
        flow.rtoEvent = ns3::Simulator::Schedule(Ps(flow.rtoDeadlinePs - NowPs()),
                                                 &BulkTransport::RtoExpired, this, index);
        return;
    }
    ++m_stats->timeouts;
    flow.ssthresh = std::max(2.0, static_cast<double>(flow.high - flow.una) / 2);
    flow.cwnd = 1;
    flow.next = flow.una; // resend what the scoreboard does not hold
    for (uint64_t segment = flow.una; segment < flow.high; ++segment)
    {
        uint8_t& state = flow.sacked[segment & (flow.sacked.size() - 1)];
        state = state == kRetransmitted ? kOutstanding : state;
    }
    flow.retransmittedOut = 0;
    flow.inRecovery = false;
    flow.recover = flow.high;
    flow.backoff = std::min(flow.backoff + 1, kMaxBackoff);
    flow.rtoDeadlinePs = -1;
    ArmRto(flow);
    TrySend();
}

void
BulkTransport::DoCrash()
{
    m_wakeEvent.Cancel();
    for (Sender& flow : m_senders)
    {
        flow.rtoEvent.Cancel();
        flow.rtoDeadlinePs = -1;
    }
}

void
BulkTransport::DoRecover()
{
    for (Sender& flow : m_senders)
    {
        if (flow.una < flow.high)
        {
            ArmRto(flow);
        }
    }
    TrySend();
}

} // namespace incsim
