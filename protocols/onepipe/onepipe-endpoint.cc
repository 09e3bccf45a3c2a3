#include "protocols/onepipe/onepipe-endpoint.h"

#include "protocols/onepipe/onepipe-wire.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/headers.h"
#include "sim/trace/csv-writer.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace incsim::onepipe
{

namespace
{
constexpr uint32_t kMaxAcksPerPacket = 200;
/// Weight of a new sample in a receiver's average slack (logical clock feedback).
constexpr double kSlackAverageGain = 1.0 / 16;
/// The application word (Outgoing::tag): the first bytes of a message's first fragment.
constexpr uint32_t kTagBytes = 8;

uint64_t
PartialKey(uint32_t src, uint32_t sequence)
{
    return (static_cast<uint64_t>(src) << 32) | sequence;
}
} // namespace

const char*
ToString(FailureReason reason)
{
    switch (reason)
    {
    case FailureReason::Timeout:
        return "timeout";
    case FailureReason::Nak:
        return "nak";
    case FailureReason::Nic:
        return "nic_full";
    case FailureReason::Recalled:
        return "recalled";
    }
    return "unknown";
}

NS_OBJECT_ENSURE_REGISTERED(OnePipeEndpoint);

ns3::TypeId
OnePipeEndpoint::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::onepipe::OnePipeEndpoint")
                                 .SetParent<Endpoint>()
                                 .SetGroupName("Incsim")
                                 .AddConstructor<OnePipeEndpoint>();
    return tid;
}

OnePipeEndpoint::OnePipeEndpoint() = default;
OnePipeEndpoint::~OnePipeEndpoint() = default;

void
OnePipeEndpoint::Configure(OnePipeHost& host, uint32_t processId, Stats* stats,
                           const Traces& traces, const Peers* peers)
{
    m_host = &host;
    m_processId = processId;
    m_stats = stats;
    m_traces = traces;
    m_peers = peers;
    m_psn.assign(stats->sendPs.size(), 0);
    m_failedFrom.assign(stats->sendPs.size(), PrepareChannels::kNone);
    m_pendingAcks.resize(stats->sendPs.size());
    m_packet.resize(Frame::kCapacity);
    m_channelNumber.assign(stats->sendPs.size(), 0);
    if (host.Config().reliable)
    {
        m_prepare = std::make_unique<PrepareChannels>(
            [this](uint32_t dst) { return PrepareHooks(dst); }, host.Config().retransmit,
            host.Config().forwardAfter);
    }
}

bool
OnePipeEndpoint::SendPacket(uint32_t dst, const uint8_t* bytes, uint32_t materialised,
                            uint32_t payload)
{
    const uint32_t perHost = m_host->Config().processesPerHost;
    ++m_stats->packetsSent;
    return Send(dst / perHost, static_cast<uint16_t>(kPortBase + dst % perHost), bytes,
                materialised, payload, m_host->Config().priority);
}

void
OnePipeEndpoint::NotifyTransmitted()
{
    if (m_onTransmitted)
    {
        ns3::Simulator::Schedule(Ps(NicBacklogPs()), m_onTransmitted);
    }
}

void
OnePipeEndpoint::CheckTags(const std::vector<Outgoing>& scattering)
{
    for (const Outgoing& message : scattering)
    {
        if (message.tag != 0 && message.bytes < kTagBytes)
        {
            throw std::logic_error("OnePipeEndpoint: a message with a tag needs at least 8 bytes");
        }
    }
}

void
OnePipeEndpoint::UnreliableSend(const std::vector<Outgoing>& scattering)
{
    if (scattering.empty())
    {
        return;
    }
    CheckTags(scattering);
    m_stats->messagesOffered += scattering.size();
    const int64_t cost = MessageCostPs() * static_cast<int64_t>(scattering.size());
    if (cost > 0)
    {
        Charge(cost, [this, scattering, apiPs = NowPs()]() mutable {
            Transmit(std::move(scattering), apiPs);
        });
        return;
    }
    Transmit(scattering, NowPs());
}

void
OnePipeEndpoint::ReliableSend(const std::vector<Outgoing>& scattering)
{
    if (!m_prepare)
    {
        throw std::logic_error("OnePipeEndpoint::ReliableSend needs service \"reliable\"");
    }
    if (m_declaredFailed || m_joining)
    {
        return; // the process is failed until it has rejoined
    }
    // A destination the controller announced failed is left out, as the application's
    // process-failure callback would stop sending to it.
    const auto failed = [this](const Outgoing& message) { return PeerFailed(message.dst); };
    if (std::any_of(scattering.begin(), scattering.end(), failed))
    {
        std::vector<Outgoing> live;
        std::remove_copy_if(scattering.begin(), scattering.end(), std::back_inserter(live),
                            failed);
        ReliableSend(live);
        return;
    }
    if (scattering.empty())
    {
        NotifyTransmitted(); // nothing left to send
        return;
    }
    CheckTags(scattering);
    m_stats->messagesOffered += scattering.size();
    const int64_t cost = MessageCostPs() * static_cast<int64_t>(scattering.size());
    if (cost > 0)
    {
        Charge(cost, [this, scattering, apiPs = NowPs()]() {
            TransmitReliable(scattering, apiPs);
        });
        return;
    }
    TransmitReliable(scattering, NowPs());
}

void
OnePipeEndpoint::TransmitReliable(const std::vector<Outgoing>& scattering, int64_t apiPs)
{
    const uint32_t perFragment =
        m_host->Config().maxPayload - Header::kBytes - MessageHeader::kBytes;
    // One timestamp for the whole scattering, at or above the clock, so above every commit
    // barrier this host has announced, and above the process's previous one: (sender, ts)
    // names a scattering (recalls and the checker's atomicity go by it), and two sends whose
    // CPU cost ends at once would read the same clock.
    if (m_host->Timestamp() <= m_lastScatteringTs)
    {
        m_host->Clock().AdvanceTo(m_lastScatteringTs + 1);
    }
    const uint64_t ts = m_host->Timestamp();
    m_lastScatteringTs = ts;
    m_prepare->BeginScattering(ts);
    for (const Outgoing& message : scattering)
    {
        if (PeerFailed(message.dst))
        {
            continue; // announced failed during the send CPU cost
        }
        const uint32_t sequence = m_nextSequence++;
        if (!m_outstanding.empty())
        {
            // Best-effort sends of this process wait for ACKs by sequence: keep the reliable
            // ones' places (closed) so that sequences still index m_outstanding.
            m_outstanding.push_back(Outstanding{ts, 0, message.dst, false, message.tag});
        }
        m_stats->sendPs[m_processId].push_back(apiPs);
        LogSend(*m_stats, m_traces, m_processId, sequence, message.dst, ts, message.bytes);
        const uint32_t fragments =
            std::max<uint32_t>(1, (message.bytes + perFragment - 1) / perFragment);
        for (uint32_t f = 0; f < fragments; ++f)
        {
            const uint32_t chunk = std::min(perFragment, message.bytes - f * perFragment);
            m_prepare->Send(message.dst,
                            Segment{ts, sequence, static_cast<uint16_t>(f),
                                    static_cast<uint16_t>(fragments), message.bytes, chunk,
                                    message.tag});
        }
    }
    NotifyTransmitted();
}

PrepareChannels::Channel::Hooks
OnePipeEndpoint::PrepareHooks(uint32_t dst)
{
    OnePipeEndpoint* receiver = PeekPointer((*m_peers)[dst]);
    const uint32_t src = m_processId;
    PrepareChannels::Channel::Hooks hooks;
    hooks.transmit = [this, dst](uint32_t seq, const Segment& segment, uint64_t stamp) {
        SendSegment(dst, seq, segment, stamp);
    };
    hooks.transmitAck = [receiver, src](uint32_t next, bool sequenceError, uint64_t echo) {
        receiver->SendPrepareAck(src, next, sequenceError, echo);
    };
    hooks.deliver = [receiver, src](const Segment& segment) { receiver->Prepared(src, segment); };
    hooks.stalled = [this, dst] { RequestForward(dst); };
    m_channelNumber[dst] = ++m_channelsMade; // PrepareChannels makes the channel now
    return hooks;
}

void
OnePipeEndpoint::SendSegment(uint32_t dst, uint32_t seq, const Segment& segment,
                             uint64_t stamp)
{
    if (!Host().IsUp())
    {
        return;
    }
    // No barrier: switches forward prepare segments untouched (a retransmission's barrier
    // would be old). The commit barrier's field carries the send time, which the ACK echoes
    // (the channel's round-trip samples, RetransmitTimeout).
    Header header;
    header.messageTs = segment.ts;
    header.commitBarrier = stamp;
    header.psn = seq;
    header.opcode = Opcode::Prepare;
    header.flags = segment.fragment + 1 == segment.fragments ? kFlagEndOfMessage : 0;
    header.Write(m_packet.data());
    MessageHeader body{segment.sequence, segment.fragment, segment.fragments,
                       segment.messageBytes};
    body.Write(m_packet.data() + Header::kBytes);
    const uint32_t headers = Header::kBytes + MessageHeader::kBytes;
    // A recall is the same segment without payload (the channel's slot says which it is).
    SendPacket(dst, m_packet.data(), headers, headers + segment.payloadBytes);
}

void
OnePipeEndpoint::SendPrepareAck(uint32_t src, uint32_t next, bool sequenceError,
                                uint64_t echo)
{
    if (!Host().IsUp())
    {
        return;
    }
    Header header;
    header.messageTs = m_host->Timestamp();
    header.barrier = m_host->LinkBarrier(header.messageTs);
    header.commitBarrier = echo;
    header.psn = next;
    header.opcode = Opcode::PrepareAck;
    header.flags = sequenceError ? kFlagSequenceError : 0;
    header.Write(m_packet.data());
    ++m_stats->acksSent;
    SendPacket(src, m_packet.data(), Header::kBytes, Header::kBytes);
}

void
OnePipeEndpoint::ReceivePrepare(uint32_t src, const Header& header)
{
    if (src >= m_peers->size() || !m_prepare)
    {
        return;
    }
    PrepareChannels::Channel* channel = (*m_peers)[src]->m_prepare->Find(m_processId);
    if (channel != nullptr)
    {
        channel->ReceiveData(header.psn, header.commitBarrier);
    }
}

void
OnePipeEndpoint::ReceivePrepareAck(uint32_t src, const Header& header)
{
    if (!m_prepare)
    {
        return;
    }
    if (m_prepare->ReceiveAck(src, header.psn, (header.flags & kFlagSequenceError) != 0,
                             header.commitBarrier))
    {
        m_host->CommitMayAdvance();
    }
    CompleteIfRecalled();
}

void
OnePipeEndpoint::Prepared(uint32_t src, const Segment& segment)
{
    if (segment.recall)
    {
        const uint32_t sequence = segment.sequence;
        DropReady([src, sequence](const Ready& message) {
            return message.src == src && message.sequence == sequence;
        });
        return;
    }
    if (segment.fragment + 1 != segment.fragments)
    {
        return; // a channel delivers in order: the message is whole at its last fragment
    }
    if (segment.ts >= m_failedFrom[src] && m_controllerMode != ControllerMode::SkipDiscard)
    {
        return; // Discard: its sender failed before it was committed
    }
    if (m_traces.prepares)
    {
        m_traces.prepares->Row(m_processId, src, segment.sequence, segment.ts,
                               NowPs() / kPsPerNs);
    }
    const Ready ready{segment.ts, src, segment.sequence, segment.messageBytes, segment.tag};
    if (!m_host->Config().ordered)
    {
        Deliver(ready, 0); // the unordered transport's reliable channels: on arrival
        return;
    }
    PushReady(ready);
}

void
OnePipeEndpoint::Transmit(std::vector<Outgoing> scattering, int64_t apiPs)
{
    const HostConfig& config = m_host->Config();
    const uint32_t perFragment = config.maxPayload - Header::kBytes - MessageHeader::kBytes;
    const int64_t now = NowPs();
    // One timestamp for the whole scattering, taken as it leaves: every packet sent before it
    // carried a barrier at or below it.
    const uint64_t ts = m_host->Timestamp();
    for (const Outgoing& message : scattering)
    {
        const uint32_t sequence = m_nextSequence++;
        if (m_outstanding.empty())
        {
            m_firstOutstanding = sequence; // reliable sends may have taken the ones between
        }
        m_stats->sendPs[m_processId].push_back(apiPs);
        const uint32_t fragments =
            std::max<uint32_t>(1, (message.bytes + perFragment - 1) / perFragment);
        bool sent = Host().IsUp();
        for (uint32_t f = 0; f < fragments && sent; ++f)
        {
            Header header;
            header.messageTs = ts;
            header.barrier = m_host->LinkBarrier(ts);
            header.psn = m_psn[message.dst]++;
            header.opcode = Opcode::Data;
            header.flags = f + 1 == fragments ? kFlagEndOfMessage : 0;
            header.Write(m_packet.data());
            MessageHeader body{sequence, static_cast<uint16_t>(f), static_cast<uint16_t>(fragments),
                               message.bytes};
            body.Write(m_packet.data() + Header::kBytes);
            const uint32_t chunk = std::min(perFragment, message.bytes - f * perFragment);
            uint32_t materialised = Header::kBytes + MessageHeader::kBytes;
            if (f == 0 && chunk >= kTagBytes)
            {
                StoreBe64(m_packet.data() + materialised, message.tag);
                materialised += kTagBytes;
            }
            sent = SendPacket(message.dst, m_packet.data(), materialised,
                              Header::kBytes + MessageHeader::kBytes + chunk);
        }
        LogSend(*m_stats, m_traces, m_processId, sequence, message.dst, ts, message.bytes);
        m_outstanding.push_back(
            Outstanding{ts, now + config.ackTimeoutPs, message.dst, true, message.tag});
        if (!sent)
        {
            Fail(sequence, m_outstanding.back(), FailureReason::Nic);
        }
    }
    if (!m_timeoutEvent.IsRunning() && !m_outstanding.empty())
    {
        m_timeoutEvent = ns3::Simulator::Schedule(Ps(config.ackTimeoutPs),
                                                  &OnePipeEndpoint::CheckTimeouts, this);
    }
    NotifyTransmitted();
}

OnePipeEndpoint::Outstanding*
OnePipeEndpoint::FindOutstanding(uint32_t sequence)
{
    const uint32_t index = sequence - m_firstOutstanding;
    if (sequence < m_firstOutstanding || index >= m_outstanding.size())
    {
        return nullptr;
    }
    Outstanding& message = m_outstanding[index];
    return message.open ? &message : nullptr;
}

void
OnePipeEndpoint::Fail(uint32_t sequence, Outstanding& message, FailureReason reason)
{
    message.open = false;
    ReportFailure(sequence, message.dst, message.ts, message.tag, reason);
}

void
OnePipeEndpoint::ReportFailure(uint32_t sequence, uint32_t dst, uint64_t ts, uint64_t tag,
                               FailureReason reason)
{
    switch (reason)
    {
    case FailureReason::Timeout:
        ++m_stats->failuresTimeout;
        break;
    case FailureReason::Nak:
        ++m_stats->failuresNak;
        break;
    case FailureReason::Nic:
        ++m_stats->failuresNic;
        break;
    case FailureReason::Recalled:
        ++m_stats->failuresRecalled;
        break;
    }
    if (m_traces.failures)
    {
        m_traces.failures->Row(m_processId, sequence, dst, ts, ToString(reason),
                               NowPs() / kPsPerNs);
    }
    if (m_onSendFailure)
    {
        m_onSendFailure(ts, dst, sequence, tag, reason);
    }
}

void
OnePipeEndpoint::CheckTimeouts()
{
    const int64_t now = NowPs();
    while (!m_outstanding.empty() &&
           (!m_outstanding.front().open || m_outstanding.front().deadlinePs <= now))
    {
        if (m_outstanding.front().open)
        {
            Fail(m_firstOutstanding, m_outstanding.front(), FailureReason::Timeout);
        }
        m_outstanding.pop_front();
        ++m_firstOutstanding;
    }
    if (!m_outstanding.empty())
    {
        m_timeoutEvent = ns3::Simulator::Schedule(Ps(m_outstanding.front().deadlinePs - now),
                                                  &OnePipeEndpoint::CheckTimeouts, this);
    }
}

void
OnePipeEndpoint::DoReceive(const Datagram& datagram)
{
    if (datagram.materialised < Header::kBytes || datagram.srcPort < kPortBase ||
        m_host->LostOnReceive())
    {
        return;
    }
    const HostConfig& config = m_host->Config();
    const uint32_t src = datagram.srcHost * config.processesPerHost + (datagram.srcPort - kPortBase);
    if (src >= m_pendingAcks.size())
    {
        return; // no process of the run sends from there
    }
    const Header header = Header::Read(datagram.bytes);
    const uint8_t* body = datagram.bytes + Header::kBytes;
    const uint32_t length = datagram.materialised - Header::kBytes;
    switch (header.opcode)
    {
    case Opcode::Data:
        ReceiveData(src, header, body, length);
        break;
    case Opcode::Ack:
    case Opcode::Nak:
        ReceiveAcks(header, body, length);
        break;
    case Opcode::Prepare:
        ReceivePrepare(src, header);
        return; // carries no barrier
    case Opcode::PrepareAck:
        ReceivePrepareAck(src, header);
        break;
    default:
        break;
    }
    if (config.ordered && config.barrierInData)
    {
        m_host->ObserveBarrier(header.barrier);
    }
}

void
OnePipeEndpoint::ReceiveData(uint32_t src, const Header& header, const uint8_t* body,
                             uint32_t length)
{
    if (length < MessageHeader::kBytes)
    {
        return;
    }
    const MessageHeader message = MessageHeader::Read(body);
    if (m_host->Config().ordered && header.messageTs < m_host->Barrier())
    {
        // Below what this host may already have delivered: delivering it now could break the
        // order, so drop it and tell the sender (once per message, at its last fragment).
        ++m_stats->lateDrops;
        if (header.flags & kFlagEndOfMessage)
        {
            SendControl(src, Opcode::Nak, {message.sequence}, 0);
        }
        return;
    }
    const bool tagged = message.fragment == 0 && length >= MessageHeader::kBytes + kTagBytes;
    const uint64_t tag = tagged ? LoadBe64(body + MessageHeader::kBytes) : 0;
    if (message.fragments <= 1)
    {
        Complete(src, header.messageTs, message.sequence, message.messageBytes, tag);
        return;
    }
    const uint64_t key = PartialKey(src, message.sequence);
    auto [it, inserted] =
        m_partial.try_emplace(key, Partial{header.messageTs, 0, message.fragments,
                                           message.messageBytes, 0});
    if (tagged)
    {
        it->second.tag = tag;
    }
    if (++it->second.received == it->second.fragments)
    {
        const Partial whole = it->second;
        m_partial.erase(it);
        Complete(src, whole.ts, message.sequence, whole.bytes, whole.tag);
    }
}

void
OnePipeEndpoint::Complete(uint32_t src, uint64_t ts, uint32_t sequence, uint32_t bytes,
                          uint64_t tag)
{
    int64_t feedback = 0;
    if (m_host->Clock().Logical())
    {
        const double slack = static_cast<double>(ts) - static_cast<double>(m_host->Barrier());
        if (!m_haveSlack)
        {
            m_averageSlackNs = slack;
            m_haveSlack = true;
        }
        feedback = static_cast<int64_t>(slack - m_averageSlackNs);
        m_averageSlackNs += kSlackAverageGain * (slack - m_averageSlackNs);
    }
    QueueAck(src, sequence, feedback);
    const Ready ready{ts, src, sequence, bytes, tag};
    if (!m_host->Config().ordered)
    {
        Deliver(ready, 0);
        return;
    }
    PushReady(ready);
}

void
OnePipeEndpoint::DeliverBelow(uint64_t barrier)
{
    if (m_declaredFailed)
    {
        return; // held for recovery
    }
    while (!m_ready.empty() && m_ready.front().ts < barrier)
    {
        Deliver(PopReady(), barrier);
    }
    if (m_partial.empty())
    {
        return;
    }
    // A message still missing fragments can never complete now: its fragments are lost.
    for (auto it = m_partial.begin(); it != m_partial.end();)
    {
        if (it->second.ts < barrier)
        {
            ++m_stats->incompleteDrops;
            SendControl(static_cast<uint32_t>(it->first >> 32), Opcode::Nak,
                        {static_cast<uint32_t>(it->first)}, 0);
            it = m_partial.erase(it);
        }
        else
        {
            ++it;
        }
    }
}

void
OnePipeEndpoint::Deliver(const Ready& message, uint64_t barrier)
{
    auto record = [this, message, barrier]() {
        LogDelivery(*m_stats, m_traces, m_processId, message.src, message.sequence, message.ts,
                    m_host->Timestamp(), barrier);
        if (m_onReceive)
        {
            m_onReceive(Delivered{message.ts, message.src, message.sequence, message.bytes,
                                  message.tag});
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
OnePipeEndpoint::QueueAck(uint32_t src, uint32_t sequence, int64_t feedbackNs)
{
    PendingAcks& pending = m_pendingAcks[src];
    pending.sequences.push_back(sequence);
    pending.feedbackSumNs += static_cast<double>(feedbackNs);
    if (pending.sequences.size() >= kMaxAcksPerPacket)
    {
        FlushAcks(src);
    }
    else if (!pending.flush.IsRunning())
    {
        pending.flush = ns3::Simulator::Schedule(Ps(m_host->Config().ackDelayPs),
                                                 &OnePipeEndpoint::FlushAcks, this, src);
    }
}

void
OnePipeEndpoint::FlushAcks(uint32_t src)
{
    PendingAcks& pending = m_pendingAcks[src];
    pending.flush.Cancel();
    if (pending.sequences.empty())
    {
        return;
    }
    const double mean = pending.feedbackSumNs / static_cast<double>(pending.sequences.size());
    SendControl(src, Opcode::Ack, pending.sequences, static_cast<int32_t>(mean));
    ++m_stats->acksSent;
    pending.sequences.clear();
    pending.feedbackSumNs = 0;
}

void
OnePipeEndpoint::SendControl(uint32_t dst, Opcode opcode, const std::vector<uint32_t>& sequences,
                             int32_t feedbackNs)
{
    if (!Host().IsUp())
    {
        return;
    }
    Header header;
    header.messageTs = m_host->Timestamp();
    header.barrier = m_host->LinkBarrier(header.messageTs);
    header.opcode = opcode;
    header.Write(m_packet.data());
    AckHeader acks{feedbackNs, static_cast<uint16_t>(sequences.size())};
    acks.Write(m_packet.data() + Header::kBytes);
    uint32_t length = Header::kBytes + AckHeader::kBytes;
    for (uint32_t sequence : sequences)
    {
        StoreBe32(m_packet.data() + length, sequence);
        length += 4;
    }
    SendPacket(dst, m_packet.data(), length, length);
}

void
OnePipeEndpoint::ReceiveAcks(const Header& header, const uint8_t* body, uint32_t length)
{
    if (length < AckHeader::kBytes)
    {
        return;
    }
    const AckHeader acks = AckHeader::Read(body);
    const uint32_t count = std::min<uint32_t>(acks.count, (length - AckHeader::kBytes) / 4);
    for (uint32_t i = 0; i < count; ++i)
    {
        const uint32_t sequence = LoadBe32(body + AckHeader::kBytes + 4 * i);
        Outstanding* message = FindOutstanding(sequence);
        if (message == nullptr)
        {
            continue;
        }
        if (header.opcode == Opcode::Nak)
        {
            Fail(sequence, *message, FailureReason::Nak);
        }
        else
        {
            message->open = false;
        }
    }
    if (header.opcode == Opcode::Ack)
    {
        m_host->Clock().Feedback(acks.feedbackNs);
    }
}

void
OnePipeEndpoint::PushReady(const Ready& message)
{
    m_ready.push_back(message);
    std::push_heap(m_ready.begin(), m_ready.end(), std::greater<Ready>{});
}

OnePipeEndpoint::Ready
OnePipeEndpoint::PopReady()
{
    std::pop_heap(m_ready.begin(), m_ready.end(), std::greater<Ready>{});
    const Ready message = m_ready.back();
    m_ready.pop_back();
    return message;
}

template <typename Predicate>
void
OnePipeEndpoint::DropReady(Predicate drop)
{
    const auto kept = std::remove_if(m_ready.begin(), m_ready.end(), drop);
    if (kept == m_ready.end())
    {
        return;
    }
    m_ready.erase(kept, m_ready.end());
    std::make_heap(m_ready.begin(), m_ready.end(), std::greater<Ready>{});
}

void
OnePipeEndpoint::SetFailureHandling(ControllerMode mode, Completion completion, RecallSink recalls,
                                    ForwardSink forward)
{
    m_controllerMode = mode;
    m_completion = std::move(completion);
    m_recallSink = std::move(recalls);
    m_forwardSink = std::move(forward);
}

void
OnePipeEndpoint::RequestForward(uint32_t dst)
{
    const PrepareChannels::Channel* channel = m_prepare ? m_prepare->Find(dst) : nullptr;
    if (!m_forwardSink || channel == nullptr || m_declaredFailed || !Host().IsUp())
    {
        return;
    }
    m_forwardSink(
        ForwardRequest{m_processId, dst, m_channelNumber[dst], channel->Base(), channel->End()});
}

PrepareChannels::Channel*
OnePipeEndpoint::ForwardedChannel(const ForwardRequest& request) const
{
    if (!m_prepare || m_channelNumber[request.dst] != request.channel)
    {
        return nullptr;
    }
    return m_prepare->Find(request.dst);
}

std::optional<uint32_t>
OnePipeEndpoint::ReceiveForwarded(const ForwardRequest& request)
{
    if (!Host().IsUp() || !m_prepare || m_declaredFailed || m_processId != request.dst)
    {
        return std::nullopt;
    }
    PrepareChannels::Channel* channel = (*m_peers)[request.src]->ForwardedChannel(request);
    if (channel == nullptr)
    {
        return std::nullopt;
    }
    // The segments enter the channel in order as if they had come over the network: a
    // prepare is buffered under its own timestamp (its sender's commit barrier is still
    // below it, so nothing after it was delivered), a recall drops its message.
    return channel->ReceiveForwarded(request.from, request.to);
}

void
OnePipeEndpoint::ForwardedAck(const ForwardRequest& request, uint32_t next)
{
    if (!Host().IsUp() || ForwardedChannel(request) == nullptr)
    {
        return;
    }
    if (m_prepare->ReceiveAck(request.dst, next, false, PrepareChannels::Channel::kNoStamp))
    {
        m_host->CommitMayAdvance();
    }
    CompleteIfRecalled();
}

void
OnePipeEndpoint::DeclaredFailed()
{
    if (!m_prepare || m_declaredFailed)
    {
        return;
    }
    // The old identity's scatterings are void: the others discard what it sent at or above
    // its failure timestamp and hold the rest; nothing more goes out (a cut-off process
    // would otherwise retransmit to every receiver until the run ends).
    m_declaredFailed = true;
    m_countersBefore += m_prepare->Totals();
    m_prepare = std::make_unique<PrepareChannels>(
        [this](uint32_t dst) { return PrepareHooks(dst); }, m_host->Config().retransmit,
        m_host->Config().forwardAfter);
    m_noticePending = false;
    m_notice.clear();
    m_host->CommitMayAdvance();
}

uint64_t
OnePipeEndpoint::Silence()
{
    // Its part of the host's commit barrier as the host computes it: monotone, so no commit
    // barrier sent so far is above it.
    m_commitHold = std::min(m_host->Timestamp(), OldestUnacked());
    DeclaredFailed();
    return m_commitHold;
}

void
OnePipeEndpoint::ReleaseCommit()
{
    m_commitHold = PrepareChannels::kNone;
    m_host->CommitMayAdvance();
}

OnePipeEndpoint::Rejoin
OnePipeEndpoint::Recover(const RecoveryNotice& notice)
{
    for (const ProcessFailure& failure : notice.failuresSince)
    {
        const uint32_t process = failure.process;
        const uint64_t ts = failure.ts;
        DropReady([process, ts](const Ready& message) {
            return message.src == process && message.ts >= ts;
        });
    }
    if (m_controllerMode != ControllerMode::SkipRecoveryRecalls)
    {
        for (const UndeliveredRecall& recall : notice.recalls)
        {
            DropReady([&recall](const Ready& message) {
                return message.src == recall.src && message.sequence == recall.sequence;
            });
        }
    }
    // What is left the others delivered (or will): deliver it in timestamp order. No barrier
    // releases it; the trace's barrier column reads the maximum.
    m_partial.clear();
    m_declaredFailed = false;
    while (!m_ready.empty())
    {
        Deliver(PopReady(), kTimestampMask);
    }
    // The new identity: sends to the processes failed now are left out, and their late
    // prepares discarded, as for any correct process.
    std::fill(m_failedFrom.begin(), m_failedFrom.end(), PrepareChannels::kNone);
    for (const ProcessFailure& failure : notice.failedNow)
    {
        m_failedFrom[failure.process] = failure.ts;
    }
    for (uint32_t process : m_rejoinedMeanwhile)
    {
        m_failedFrom[process] = PrepareChannels::kNone;
    }
    m_rejoinedMeanwhile.clear();
    // It sends again once every other process knows the new identity (Admitted): one that
    // did not yet would discard its prepares as the failed identity's, and ACK them.
    m_joining = true;
    const Rejoin rejoin{m_host->Timestamp(), !m_crashed};
    m_crashed = false;
    return rejoin;
}

void
OnePipeEndpoint::Admitted()
{
    m_joining = false;
    if (m_onRejoin)
    {
        m_onRejoin();
    }
}

void
OnePipeEndpoint::PeerRejoined(uint32_t process)
{
    if (!m_prepare)
    {
        return;
    }
    m_failedFrom[process] = PrepareChannels::kNone;
    if (m_declaredFailed)
    {
        m_rejoinedMeanwhile.push_back(process); // its recovery notice may predate this
    }
}

void
OnePipeEndpoint::ProcessFailures(uint64_t epoch, const std::vector<ProcessFailure>& failures)
{
    if (!Host().IsUp() || !m_prepare || m_declaredFailed || m_unresponsive)
    {
        return; // a crashed process is failed itself; the controller learns it from a report
    }
    // All of the notice's failures first: a recall to a co-receiver failed in the same notice
    // is kept by the controller, not sent on a channel about to be dropped.
    for (const ProcessFailure& failure : failures)
    {
        m_failedFrom[failure.process] = failure.ts;
    }
    for (const ProcessFailure& failure : failures)
    {
        // Discard: nothing of the failed process at or above its failure timestamp was
        // delivered anywhere (the commit barrier is frozen below it until Resume).
        if (m_controllerMode != ControllerMode::SkipDiscard)
        {
            const uint32_t process = failure.process;
            const uint64_t ts = failure.ts;
            DropReady([process, ts](const Ready& message) {
                return message.src == process && message.ts >= ts;
            });
        }
        RecallFrom(failure.process);
    }
    if (m_prepare->Settle())
    {
        m_host->CommitMayAdvance();
    }
    if (!m_kept.empty() && m_recallSink)
    {
        // One message, ahead of the completion on the management network.
        m_recallSink(m_processId, std::move(m_kept));
    }
    m_kept.clear();
    m_notice.insert(m_notice.end(), failures.begin(), failures.end());
    m_noticeEpoch = epoch;
    m_noticePending = true;
    CompleteIfRecalled();
}

void
OnePipeEndpoint::RecallFrom(uint32_t failed)
{
    std::vector<uint64_t> aborted;
    std::vector<uint32_t> unackedRecalls;
    m_prepare->Abort(failed, aborted, unackedRecalls);
    // Recalls sent to it and not ACKed: it may hold those messages (the recall or its ACK
    // was lost), so the controller keeps the recalls for its recovery.
    for (uint32_t sequence : unackedRecalls)
    {
        m_kept.push_back(UndeliveredRecall{failed, m_processId, sequence});
    }
    for (uint64_t scattering : aborted)
    {
        const uint64_t ts = m_prepare->TimestampOf(scattering);
        for (const PrepareChannels::Message& message : m_prepare->MessagesOf(scattering))
        {
            ReportFailure(message.sequence, message.dst, ts, message.tag, FailureReason::Recalled);
            if (m_controllerMode == ControllerMode::SkipRecall)
            {
                continue;
            }
            // The live receivers drop it; for a failed one (it may hold the message, its ACK
            // lost) the controller keeps the recall until it recovers.
            if (!PeerFailed(message.dst))
            {
                m_prepare->Recall(scattering, message);
            }
            else
            {
                m_kept.push_back(UndeliveredRecall{message.dst, m_processId, message.sequence});
            }
        }
    }
}

void
OnePipeEndpoint::CompleteIfRecalled()
{
    if (!m_noticePending || m_prepare->RecallsOutstanding() > 0)
    {
        return;
    }
    m_noticePending = false;
    for (const ProcessFailure& failure : m_notice)
    {
        if (m_traces.callbacks)
        {
            m_traces.callbacks->Row(m_processId, failure.process, failure.ts, NowPs() / kPsPerNs);
        }
        if (m_onProcessFailure)
        {
            m_onProcessFailure(failure.process, failure.ts);
        }
    }
    m_notice.clear();
    if (m_completion)
    {
        m_completion(m_processId, m_noticeEpoch);
    }
}

void
OnePipeEndpoint::DoCrash()
{
    // A crash loses the receive buffer: the process rejoins with nothing to recover.
    m_crashed = true;
    DeclaredFailed();
    m_ready.clear();
    m_partial.clear();
    for (PendingAcks& pending : m_pendingAcks)
    {
        pending.flush.Cancel();
        pending.sequences.clear();
        pending.feedbackSumNs = 0;
    }
}

void
OnePipeEndpoint::DoDispose()
{
    m_timeoutEvent.Cancel();
    for (PendingAcks& pending : m_pendingAcks)
    {
        pending.flush.Cancel();
    }
    m_onReceive = nullptr;
    m_onSendFailure = nullptr;
    m_onProcessFailure = nullptr;
    m_onRejoin = nullptr;
    m_completion = nullptr;
    m_recallSink = nullptr;
    m_forwardSink = nullptr;
    m_prepare.reset();
    m_peers = nullptr;
    m_host = nullptr;
    Endpoint::DoDispose();
}

} // namespace incsim::onepipe
