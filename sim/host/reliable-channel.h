#ifndef INCSIM_HOST_RELIABLE_CHANNEL_H
#define INCSIM_HOST_RELIABLE_CHANNEL_H

#include "sim/core/sim-time.h"

#include <ns3/event-id.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace incsim
{

/// How a ReliableChannel times its retransmissions.
///
/// Fixed (RDMA RC's transport timer): when the oldest unacknowledged segment has waited
/// `minPs` since the acknowledgement before it, the whole window is sent again (go-back-N).
///
/// Adaptive (a software transport, as TCP with timestamps, RFC 6298 and RFC 7323): every
/// segment carries its send time, which its acknowledgement echoes, so every acknowledgement
/// is an unambiguous round-trip sample, even of a segment sent twice. Each channel keeps its
/// own estimate (SRTT, RTTVAR; gains 1/8, 1/4) and its timeout RTO = SRTT + 4 RTTVAR, at least
/// `minPs` and at most `maxPs`. Before its first sample a channel uses its sender's estimate
/// (RttEstimate, shared by the sender's channels, fed by all their samples; as TCP caches
/// round trips for new connections). Before the sender has any sample the timeout is `maxPs`
/// (RFC 6298 2.1's conservative initial timeout: a queue longer than any guess would make
/// every first segment time out while it waits), and the sender's first sample re-arms its
/// channels' timers (Rearm), so a loss before it costs until that sample, not `maxPs`.
/// The timer runs for the oldest segment from when it was sent (its age, as RACK's, RFC
/// 8985): an acknowledgement does not restart it (RFC 6298 5.3's restart halved 1Pipe's
/// throughput at 1% link loss in Fig. 15b). A timeout is a loss, since the estimate
/// covers the round trip's variation: the window goes again, as the go-back-N receiver
/// dropped what followed the lost segment (RDMA RC's recovery); the timeout keeps the
/// estimate (a loss costs a round trip, or "multiple RTTs if retransmissions are lost",
/// paper 7.2), which every acknowledgement corrects. An acknowledgement that passes the
/// resent oldest and echoes an earlier copy shows the timeout was spurious (RFC 3522's
/// detection; counted). Before the timeout, 2 SRTT after the oldest's send (RFC 8985's tail
/// loss probe, once per acknowledgement that moves), the newest segment goes again: if it
/// was lost with nothing after it, that repairs it; if an earlier one was lost, the probe
/// arrives out of order and its sequence error starts the fast retransmission; if nothing
/// was lost, it costs one duplicate. A lost segment that no later one follows (a tail, or
/// the last before an idle pause) is so repaired in about 3 round trips, not a timeout.
struct RetransmitTimeout
{
    int64_t minPs = 0;
    int64_t maxPs = 0;
    bool adaptive = false;

    static RetransmitTimeout Fixed(int64_t ps) { return {ps, ps, false}; }
    static RetransmitTimeout Adaptive(int64_t minPs, int64_t maxPs)
    {
        return {minPs, maxPs, true};
    }
};

/// One direction of a reliable connection, as RDMA RC gives it: every message is delivered
/// once, in the order sent, whatever the network loses, duplicates or reorders. Go-back-N,
/// as RC NICs do: the receiver accepts only the next sequence number and acknowledges
/// cumulatively (every segment it gets, so a lost ACK is repaired by the next); the sender
/// keeps unacknowledged messages and sends them again when the retransmission timer runs out
/// (RetransmitTimeout says which and when), or all at once on a sequence error: an
/// acknowledgement the receiver sent for a segment beyond the next it expects, naming the
/// oldest (RoCE's sequence-error NAK), so the oldest was lost. That fast retransmission happens
/// once per oldest message, so the duplicates it causes do not trigger more; the timer covers a
/// loss with nothing after it. A duplicate segment is acknowledged too (its first
/// acknowledgement may have been lost) but is no sequence error: a copy the timer sent while
/// the first was only delayed in a queue would otherwise come back as a signal to resend the
/// whole window again, and under congestion every timeout would start a go-back-N storm.
///
/// Protocol-neutral: the caller says how a data segment (sequence number and message) and an
/// acknowledgement go on the wire, and receives messages through `deliver`. The channel is
/// one object for both ends, so the message travels by reference: a segment's frame
/// materialises only the caller's headers and the sequence number, and the receiver reads the
/// message from the sender's window, where it stays until acknowledged (hence until received).
/// Window slots are reused (Message is copy-assigned into them), so the steady state sends
/// without allocating beyond what Message's own assignment does.
/// RFC 6298's round-trip estimate (2.2-2.3): SRTT and RTTVAR with gains 1/8 and 1/4.
struct RttEstimate
{
    int64_t srttPs = -1; ///< -1 before the first sample
    int64_t rttvarPs = 0;

    bool Known() const { return srttPs >= 0; }
    void Sample(int64_t rttPs)
    {
        if (srttPs < 0)
        {
            srttPs = rttPs;
            rttvarPs = rttPs / 2;
            return;
        }
        const int64_t error = srttPs > rttPs ? srttPs - rttPs : rttPs - srttPs;
        rttvarPs += (error - rttvarPs) / 4;
        srttPs += (rttPs - srttPs) / 8;
    }
    /// RTO = SRTT + 4 RTTVAR within [minPs, maxPs].
    int64_t RtoPs(const RetransmitTimeout& timeout) const
    {
        return std::clamp(srttPs + 4 * rttvarPs, timeout.minPs, timeout.maxPs);
    }
};

template <typename Message>
class ReliableChannel
{
  public:
    struct Hooks
    {
        /// Sends a data segment toward the receiver (may be lost), with `stamp`, the send time
        /// (ns) that the receiver's ReceiveData takes back (adaptive timeouts only; the fixed
        /// timer reads no stamp, and its wire may leave it out).
        std::function<void(uint32_t seq, const Message& message, uint64_t stamp)> transmit;
        /// Sends an acknowledgement toward the sender: every sequence number below `next`
        /// was delivered; `sequenceError`: it answers a segment beyond `next`; `echo`: that
        /// segment's stamp, for the sender's ReceiveAck (may be lost).
        std::function<void(uint32_t next, bool sequenceError, uint64_t echo)> transmitAck;
        /// At the receiver: the next message, once, in order; valid during the call.
        std::function<void(const Message& message)> deliver;
        /// Optional, at the sender: the timer sent the oldest message again `stallRounds`
        /// times in a row without an acknowledgement moving (RC's retry count). Called again
        /// after every further `stallRounds`; retransmission goes on. The caller may take
        /// another way (1Pipe asks its controller to forward, ReceiveForwarded).
        std::function<void()> stalled;
    };

    struct Counters
    {
        uint64_t sent = 0;
        uint64_t delivered = 0;
        uint64_t retransmitted = 0;  ///< segments sent again (after a timeout or a repeat ACK)
        uint64_t fastRetransmits = 0;  ///< go-back-N rounds started by a sequence error
        uint64_t probes = 0;         ///< adaptive: tail loss probes (the newest sent again)
        uint64_t timeouts = 0;       ///< the retransmission timer ran out
        /// Adaptive: timeouts whose earlier copy was acknowledged (only delayed, RFC 3522).
        uint64_t spuriousTimeouts = 0;
        uint64_t duplicates = 0;     ///< segments received again, dropped
        uint64_t outOfOrder = 0;     ///< segments beyond the next expected, dropped
        uint64_t forwarded = 0;      ///< delivered by ReceiveForwarded

        Counters& operator+=(const Counters& other)
        {
            sent += other.sent;
            delivered += other.delivered;
            retransmitted += other.retransmitted;
            fastRetransmits += other.fastRetransmits;
            probes += other.probes;
            timeouts += other.timeouts;
            spuriousTimeouts += other.spuriousTimeouts;
            duplicates += other.duplicates;
            outOfOrder += other.outOfOrder;
            forwarded += other.forwarded;
            return *this;
        }
    };

    /// A stamp that is no send time: an acknowledgement that came another way
    /// (ReceiveForwarded) and measures no round trip.
    static constexpr uint64_t kNoStamp = ~uint64_t{0};

    /// `stallRounds`: timer rounds without progress before `hooks.stalled` (0: never).
    /// `sender`: adaptive, the estimate the sender's channels share (it must outlive this).
    ReliableChannel(Hooks hooks, const RetransmitTimeout& timeout, uint32_t stallRounds = 0,
                    RttEstimate* sender = nullptr)
        : m_hooks(std::move(hooks)),
          m_timeout(timeout),
          m_sender(sender),
          m_stallRounds(stallRounds)
    {
    }
    /// A fixed timeout of `retransmitPs`.
    ReliableChannel(Hooks hooks, int64_t retransmitPs, uint32_t stallRounds = 0)
        : ReliableChannel(std::move(hooks), RetransmitTimeout::Fixed(retransmitPs), stallRounds)
    {
    }
    ~ReliableChannel() { m_timer.Cancel(); }
    ReliableChannel(const ReliableChannel&) = delete;
    ReliableChannel& operator=(const ReliableChannel&) = delete;

    /// The sender's host failed, or the receiver's is known to have: nothing is sent or resent
    /// any more (RC's QP goes to the error state). Segments already on the wire are still
    /// delivered if they arrive.
    void Close()
    {
        m_closed = true;
        m_timer.Cancel();
    }
    bool Closed() const { return m_closed; }

    /// Queues `message` for delivery and sends it (nothing, once closed).
    void Send(const Message& message)
    {
        if (m_closed)
        {
            return;
        }
        if (m_count == m_slots.size())
        {
            Grow();
        }
        const uint32_t seq = m_base + static_cast<uint32_t>(m_count);
        Message& slot = SlotOf(seq);
        slot = message;
        ++m_count;
        ++m_counters.sent;
        Transmit(seq);
        if (m_count == 1)
        {
            ArmTimer();
        }
    }

    /// At the receiver: a data segment arrived, sent at `stamp` (as transmit gave it).
    void ReceiveData(uint32_t seq, uint64_t stamp)
    {
        if (seq == m_expected)
        {
            ++m_expected;
            ++m_counters.delivered;
            m_hooks.deliver(SlotOf(seq));
        }
        else if (Before(seq, m_expected))
        {
            ++m_counters.duplicates;
        }
        else
        {
            ++m_counters.outOfOrder;
            m_hooks.transmitAck(m_expected, true, stamp);
            return;
        }
        m_hooks.transmitAck(m_expected, false, stamp);
    }

    /// At the sender: an acknowledgement arrived (`sequenceError` and `echo` as the receiver
    /// sent them; kNoStamp when it came another way).
    void ReceiveAck(uint32_t next, bool sequenceError, uint64_t echo)
    {
        if (m_closed)
        {
            return;
        }
        Measure(echo);
        const uint32_t end = m_base + static_cast<uint32_t>(m_count);
        if (sequenceError && next == m_base && m_count > 0 && OldestLost(echo))
        {
            // A later segment arrived before the oldest: it was lost (or overtaken).
            m_fastRetransmitted = true;
            m_probed = false;
            ++m_counters.fastRetransmits;
            m_recovering = false;
            m_timer.Cancel();
            Retransmit(m_base, end);
            ArmTimer();
            return;
        }
        if (!Before(m_base, next) || Before(end, next))
        {
            return;  // old or duplicate acknowledgement (or nonsense beyond what was sent)
        }
        m_count -= next - m_base;
        m_base = next;
        m_fastRetransmitted = false;
        m_probed = false;
        m_roundsWithoutProgress = 0;
        m_timer.Cancel();
        if (m_recovering)
        {
            // The oldest that the timer sent again is acknowledged now. Forwarded (no stamp):
            // which copy arrived is unknown.
            m_recovering = false;
            if (echo != kNoStamp && echo < m_recoveryStamp)
            {
                ++m_counters.spuriousTimeouts; // an earlier copy arrived: it was only delayed
            }
        }
        if (m_count > 0)
        {
            ArmTimer();
        }
    }

    /// At the receiver: the segments [from, to) came another way than the network (1Pipe's
    /// controller forwarding); delivers those not yet delivered, in order, and sends no
    /// acknowledgement. Returns the next sequence number expected, for the caller to carry
    /// back to the sender's ReceiveAck. Every sequence number in [from, to) must have been
    /// sent and not be acknowledged below `from` (the sender's window still holds it).
    uint32_t ReceiveForwarded(uint32_t from, uint32_t to)
    {
        while (!Before(m_expected, from) && Before(m_expected, to))
        {
            ++m_counters.delivered;
            ++m_counters.forwarded;
            m_hooks.deliver(SlotOf(m_expected++));
        }
        return m_expected;
    }

    /// Messages sent and not yet acknowledged.
    size_t InFlight() const { return m_count; }
    /// The oldest unacknowledged sequence number; those below End() are in flight.
    uint32_t Base() const { return m_base; }
    uint32_t End() const { return m_base + static_cast<uint32_t>(m_count); }
    /// The `i`th message in flight (from Base()), i < InFlight().
    const Message& InFlightAt(size_t i) const
    {
        return m_slots[(m_base + static_cast<uint32_t>(i)) & (m_slots.size() - 1)];
    }
    const Counters& GetCounters() const { return m_counters; }
    /// The retransmission timeout now: the channel's estimate, else its sender's, else the
    /// largest timeout.
    int64_t RtoPs() const
    {
        if (!m_timeout.adaptive)
        {
            return m_timeout.minPs;
        }
        const RttEstimate* estimate = Estimate();
        return estimate != nullptr ? estimate->RtoPs(m_timeout) : m_timeout.maxPs;
    }
    /// Adaptive: sets the timer again from the oldest's send time and the timeout as now
    /// estimated (the sender's first sample arrived; it may have run out already).
    void Rearm()
    {
        if (m_count > 0 && m_timeout.adaptive)
        {
            m_timer.Cancel();
            ArmTimer();
        }
    }
    /// Adaptive: the channel's smoothed round trip (RFC 6298's SRTT), or -1 before a sample.
    int64_t SrttPs() const { return m_rtt.srttPs; }

  private:
    static bool Before(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }

    Message& SlotOf(uint32_t seq) { return m_slots[seq & (m_slots.size() - 1)]; }

    void Grow()
    {
        std::vector<Message> bigger(m_slots.empty() ? 8 : m_slots.size() * 2);
        std::vector<uint64_t> biggerStamps(bigger.size());
        for (size_t i = 0; i < m_count; ++i)
        {
            const uint32_t seq = m_base + static_cast<uint32_t>(i);
            bigger[seq & (bigger.size() - 1)] = std::move(SlotOf(seq));
            biggerStamps[seq & (bigger.size() - 1)] = m_stamps[seq & (m_slots.size() - 1)];
        }
        m_slots.swap(bigger);
        m_stamps.swap(biggerStamps);
    }

    static uint64_t NowStamp() { return static_cast<uint64_t>(NowPs() / kPsPerNs); }

    /// Sends segment `seq` with its stamp, the send time.
    void Transmit(uint32_t seq)
    {
        const uint64_t stamp = NowStamp();
        m_stamps[seq & (m_slots.size() - 1)] = stamp;
        m_hooks.transmit(seq, SlotOf(seq), stamp);
    }

    /// RFC 6298, 2.2-2.3, on the round trip an echoed stamp measures (RFC 7323, 4.1).
    void Measure(uint64_t echo)
    {
        if (!m_timeout.adaptive || echo == kNoStamp || echo > NowStamp())
        {
            return;
        }
        const int64_t rttPs = static_cast<int64_t>(NowStamp() - echo) * kPsPerNs;
        m_rtt.Sample(rttPs);
        if (m_sender != nullptr)
        {
            m_sender->Sample(rttPs);
        }
    }

    /// A sequence error names the oldest, answering a segment sent at `echo`: is the oldest's
    /// last copy lost? Adaptive: yes if that segment was sent after it (RACK's rule, RFC
    /// 8985: on one path a later send that arrives first passed it), so a resent oldest lost
    /// again is resent at the next sequence error, and the errors that copies sent before it
    /// cause do not resend it again. Fixed (no send times): once per oldest.
    bool OldestLost(uint64_t echo) const
    {
        if (!m_timeout.adaptive || echo == kNoStamp)
        {
            return !m_fastRetransmitted;
        }
        return echo >= OldestStamp();
    }

    /// Adaptive: the channel's estimate once it has a sample, else its sender's once that has
    /// one, else null.
    const RttEstimate* Estimate() const
    {
        if (m_rtt.Known())
        {
            return &m_rtt;
        }
        return m_sender != nullptr && m_sender->Known() ? m_sender : nullptr;
    }

    /// When the oldest's last copy was sent, ns.
    uint64_t OldestStamp() const { return m_stamps[m_base & (m_slots.size() - 1)]; }

    /// Adaptive: when the oldest was sent (its last copy), ps.
    int64_t OldestSentPs() const
    {
        return static_cast<int64_t>(OldestStamp()) * kPsPerNs;
    }

    /// Adaptive: how long the timer still has to run for the oldest, from when it was sent.
    int64_t RemainingPs() const { return OldestSentPs() + RtoPs() - NowPs(); }

    /// Adaptive: how long until the tail loss probe is due (2 SRTT from the oldest's send),
    /// or -1 when none is: no round trip measured, probed already since the last
    /// acknowledgement that moved, or not before the timeout.
    int64_t ProbeRemainingPs() const
    {
        const RttEstimate* estimate = Estimate();
        if (m_probed || estimate == nullptr || 2 * estimate->srttPs >= RtoPs())
        {
            return -1;
        }
        return std::max<int64_t>(OldestSentPs() + 2 * estimate->srttPs - NowPs(), 0);
    }

    void ArmTimer()
    {
        if (m_closed)
        {
            return;
        }
        int64_t delayPs = RtoPs();
        if (m_timeout.adaptive)
        {
            const int64_t probePs = ProbeRemainingPs();
            delayPs = std::max<int64_t>(RemainingPs(), 0);
            if (probePs >= 0 && probePs < delayPs)
            {
                delayPs = probePs;
            }
        }
        m_timer = ns3::Simulator::Schedule(Ps(delayPs), &ReliableChannel::Timeout, this);
    }

    void Timeout()
    {
        if (m_timeout.adaptive && RemainingPs() > 0)
        {
            if (ProbeRemainingPs() == 0)
            {
                m_probed = true;
                ++m_counters.probes;
                ++m_counters.retransmitted;
                Transmit(m_base + static_cast<uint32_t>(m_count) - 1);
            }
            // The timeout is still ahead (after the probe, or the estimate grew since the
            // timer was set).
            ArmTimer();
            return;
        }
        ++m_counters.timeouts;
        Retransmit(m_base, m_base + static_cast<uint32_t>(m_count));
        if (m_timeout.adaptive && !m_recovering)
        {
            m_recovering = true;
            m_recoveryStamp = OldestStamp();
        }
        ArmTimer();
        if (m_stallRounds > 0 && ++m_roundsWithoutProgress % m_stallRounds == 0 &&
            m_hooks.stalled)
        {
            m_hooks.stalled();
        }
    }

    /// Sends the segments [from, to) again.
    void Retransmit(uint32_t from, uint32_t to)
    {
        for (uint32_t seq = from; Before(seq, to); ++seq)
        {
            ++m_counters.retransmitted;
            Transmit(seq);
        }
    }

    Hooks m_hooks;
    RetransmitTimeout m_timeout;
    RttEstimate m_rtt;             ///< adaptive: the channel's own
    RttEstimate* m_sender;         ///< adaptive: its sender's, or null
    /// Adaptive, after a timeout until the oldest is acknowledged: the stamp of the oldest's
    /// first resent copy.
    bool m_recovering = false;
    uint64_t m_recoveryStamp = 0;
    uint32_t m_stallRounds;
    uint32_t m_roundsWithoutProgress = 0; ///< timer rounds since the last acknowledgement moved
    std::vector<Message> m_slots;  ///< the window: a ring of power-of-two size
    std::vector<uint64_t> m_stamps; ///< per slot: when its last copy was sent (ns)
    uint32_t m_base = 0;           ///< oldest unacknowledged sequence number
    size_t m_count = 0;            ///< unacknowledged messages
    bool m_fastRetransmitted = false;  ///< a repeated ACK already resent from m_base
    bool m_probed = false;         ///< adaptive: a probe went since the last ACK that moved
    bool m_closed = false;
    uint32_t m_expected = 0;       ///< receiver: the next sequence number to deliver
    ns3::EventId m_timer;
    Counters m_counters;
};

} // namespace incsim

#endif
