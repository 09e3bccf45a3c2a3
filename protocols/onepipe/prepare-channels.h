#ifndef INCSIM_ONEPIPE_PREPARE_CHANNELS_H
#define INCSIM_ONEPIPE_PREPARE_CHANNELS_H

#include "sim/host/reliable-channel.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace incsim::onepipe
{

/// One packet of a reliable message: what a prepare segment carries. A recall (failure
/// handling's Recall step) is a segment too, on the same channel behind the message it names.
struct Segment
{
    uint64_t ts = 0;
    uint32_t sequence = 0;
    uint16_t fragment = 0;
    uint16_t fragments = 1;
    uint32_t messageBytes = 0;
    uint32_t payloadBytes = 0; ///< this fragment's share of the message
    uint64_t tag = 0;          ///< the message's application word (Outgoing::tag)
    bool recall = false;       ///< drop message `sequence` from the receive buffer
};

/// A reliable-1Pipe sender's prepare phase (paper 5.1): one ReliableChannel (go-back-N, the
/// protocol-neutral reliable transport) per destination process, made at the first message to
/// it, and which of the sender's scatterings still wait for ACKs. The sender's commit barrier
/// comes from here: every scattering below OldestUnacked() is held by all its receivers.
///
/// Failure handling (paper 5.2, Recall): Abort(dst) drops the channel to a failed process and
/// names the scatterings that still waited for its ACKs; Recall sends a recall for one of
/// their messages to another receiver. An aborted scattering stays pending (holding the
/// commit barrier below it) until every recall is ACKed.
class PrepareChannels
{
  public:
    using Channel = ReliableChannel<Segment>;
    /// The hooks of the channel to `dst` (how segments and ACKs go on the wire, and delivery
    /// at the receiver).
    using HooksFor = std::function<Channel::Hooks(uint32_t dst)>;
    static constexpr uint64_t kNone = ~uint64_t{0};

    /// A message of a pending scattering.
    struct Message
    {
        uint32_t dst;
        uint32_t sequence;
        uint64_t tag; ///< Outgoing::tag, for the send-failure callback
    };

    /// `stallRounds`: retransmission rounds without an ACK before a channel calls its
    /// `stalled` hook (controller forwarding; 0: never).
    PrepareChannels(HooksFor hooksFor, const RetransmitTimeout& timeout, uint32_t stallRounds);
    /// The channels hold on to the sender's round-trip estimate: not copied, not moved.
    PrepareChannels(const PrepareChannels&) = delete;
    PrepareChannels& operator=(const PrepareChannels&) = delete;

    /// A scattering with timestamp `ts` starts; its segments follow with Send.
    void BeginScattering(uint64_t ts);
    /// Sends a segment of the current scattering to `dst` (never a process aborted).
    void Send(uint32_t dst, const Segment& segment);
    /// The receiver `dst` acknowledged every segment below `next` (`sequenceError`: it answered
    /// a later segment, ReliableChannel). Returns whether the oldest un-ACKed scattering
    /// changed (the commit barrier may advance).
    bool ReceiveAck(uint32_t dst, uint32_t next, bool sequenceError, uint64_t echo);
    /// The channel to `dst`, null before the first message to it or after Abort(dst).
    Channel* Find(uint32_t dst) const;
    /// The timestamp of the oldest scattering not yet ACKed by all its receivers, or kNone.
    uint64_t OldestUnacked() const { return m_pending.empty() ? kNone : m_pending.front().ts; }
    /// The counters of every channel there was, summed (those Abort dropped included).
    Channel::Counters Totals() const;

    /// `dst` failed: drops its channel and appends to `aborted` the scatterings (by number)
    /// that still waited for its ACKs and were not aborted before, and to `recalls` the
    /// messages (by sequence) whose recalls to `dst` were not ACKed (`dst` may hold them: the
    /// controller keeps these recalls for its recovery). Call Settle afterwards.
    void Abort(uint32_t dst, std::vector<uint64_t>& aborted, std::vector<uint32_t>& recalls);
    /// The timestamp and messages of pending scattering `scattering`.
    uint64_t TimestampOf(uint64_t scattering) const { return At(scattering).ts; }
    std::vector<Message> MessagesOf(uint64_t scattering) const;
    /// Sends a recall of `message` (of aborted scattering `scattering`) on its channel.
    void Recall(uint64_t scattering, const Message& message);
    /// Retires the scatterings nobody waits for any more; returns whether the oldest changed.
    bool Settle();
    /// Recalls sent and not yet ACKed.
    uint64_t RecallsOutstanding() const { return m_recallsOutstanding; }

  private:
    /// A channel entry's scattering number, with this bit set for a recall.
    static constexpr uint64_t kRecallBit = uint64_t{1} << 63;

    struct Pending
    {
        uint64_t ts;
        uint32_t unacked;      ///< segments (prepares and recalls) not yet ACKed
        uint32_t messages = 0; ///< how many of m_messages are its, from firstMessage
        uint64_t firstMessage = 0;
        bool aborted = false;
    };
    struct Link
    {
        std::unique_ptr<Channel> channel;
        /// Per un-ACKed segment, in channel order: its scattering's number (| kRecallBit).
        std::deque<uint64_t> scatterings;
    };

    Pending& At(uint64_t scattering) { return m_pending[scattering - m_firstPending]; }
    const Pending& At(uint64_t scattering) const
    {
        return m_pending[scattering - m_firstPending];
    }
    /// One entry of a channel's queue left it (ACKed or dropped with the channel).
    void Retire(uint64_t entry);

    HooksFor m_hooksFor;
    RetransmitTimeout m_timeout;
    /// The sender's round trips, for its channels without a sample of their own (one per
    /// destination; at a new destination, or a sparse one, the sender's NIC and network are
    /// what it knows). Its first sample re-arms every channel (ReliableChannel::Rearm).
    RttEstimate m_rtt;
    uint32_t m_stallRounds;
    std::vector<Link> m_links; ///< by destination process
    std::deque<Pending> m_pending; ///< scatterings m_firstPending, m_firstPending + 1, ...
    uint64_t m_firstPending = 0;
    /// The messages of the pending scatterings: m_firstMessage, m_firstMessage + 1, ...
    std::deque<Message> m_messages;
    uint64_t m_firstMessage = 0;
    uint64_t m_recallsOutstanding = 0;
    Channel::Counters m_aborted; ///< of the channels Abort dropped
};

} // namespace incsim::onepipe

#endif
