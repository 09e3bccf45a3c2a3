#ifndef INCSIM_HOST_RELIABLE_CHANNEL_H
#define INCSIM_HOST_RELIABLE_CHANNEL_H

#include "sim/core/sim-time.h"

#include <ns3/event-id.h>
#include <ns3/simulator.h>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace incsim
{

/// One direction of a reliable connection, as RDMA RC gives it: every message is delivered
/// once, in the order sent, whatever the network loses, duplicates or reorders. Go-back-N,
/// as RC NICs do: the receiver accepts only the next sequence number and acknowledges
/// cumulatively (every segment it gets, so a lost ACK is repaired by the next); the sender
/// keeps unacknowledged messages and sends them all again when the oldest has waited
/// `retransmitPs` without an acknowledgement, or at once on a sequence error: an
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
template <typename Message>
class ReliableChannel
{
  public:
    struct Hooks
    {
        /// Sends a data segment toward the receiver (may be lost).
        std::function<void(uint32_t seq, const Message& message)> transmit;
        /// Sends an acknowledgement toward the sender: every sequence number below `next`
        /// was delivered; `sequenceError`: it answers a segment beyond `next` (may be lost).
        std::function<void(uint32_t next, bool sequenceError)> transmitAck;
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
        uint64_t duplicates = 0;     ///< segments received again, dropped
        uint64_t outOfOrder = 0;     ///< segments beyond the next expected, dropped
        uint64_t forwarded = 0;      ///< delivered by ReceiveForwarded
    };

    /// `stallRounds`: timer rounds without progress before `hooks.stalled` (0: never).
    ReliableChannel(Hooks hooks, int64_t retransmitPs, uint32_t stallRounds = 0)
        : m_hooks(std::move(hooks)),
          m_retransmitPs(retransmitPs),
          m_stallRounds(stallRounds)
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
        m_hooks.transmit(seq, slot);
        if (m_count == 1)
        {
            ArmTimer();
        }
    }

    /// At the receiver: a data segment arrived.
    void ReceiveData(uint32_t seq)
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
            m_hooks.transmitAck(m_expected, true);
            return;
        }
        m_hooks.transmitAck(m_expected, false);
    }

    /// At the sender: an acknowledgement arrived (`sequenceError` as the receiver sent it).
    void ReceiveAck(uint32_t next, bool sequenceError)
    {
        if (m_closed)
        {
            return;
        }
        const uint32_t end = m_base + static_cast<uint32_t>(m_count);
        if (sequenceError && next == m_base && m_count > 0 && !m_fastRetransmitted)
        {
            // A later segment arrived before the oldest: it was lost (or overtaken).
            m_fastRetransmitted = true;
            ++m_counters.fastRetransmits;
            m_timer.Cancel();
            Retransmit();
            return;
        }
        if (!Before(m_base, next) || Before(end, next))
        {
            return;  // old or duplicate acknowledgement (or nonsense beyond what was sent)
        }
        m_count -= next - m_base;
        m_base = next;
        m_fastRetransmitted = false;
        m_roundsWithoutProgress = 0;
        m_timer.Cancel();
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

  private:
    static bool Before(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }

    Message& SlotOf(uint32_t seq) { return m_slots[seq & (m_slots.size() - 1)]; }

    void Grow()
    {
        std::vector<Message> bigger(m_slots.empty() ? 8 : m_slots.size() * 2);
        for (size_t i = 0; i < m_count; ++i)
        {
            const uint32_t seq = m_base + static_cast<uint32_t>(i);
            bigger[seq & (bigger.size() - 1)] = std::move(SlotOf(seq));
        }
        m_slots.swap(bigger);
    }

    void ArmTimer()
    {
        if (m_closed)
        {
            return;
        }
        m_timer = ns3::Simulator::Schedule(Ps(m_retransmitPs), &ReliableChannel::Timeout,
                                           this);
    }

    void Timeout()
    {
        Retransmit();
        if (m_stallRounds > 0 && ++m_roundsWithoutProgress % m_stallRounds == 0 &&
            m_hooks.stalled)
        {
            m_hooks.stalled();
        }
    }

    void Retransmit()
    {
        for (size_t i = 0; i < m_count; ++i)
        {
            const uint32_t seq = m_base + static_cast<uint32_t>(i);
            ++m_counters.retransmitted;
            m_hooks.transmit(seq, SlotOf(seq));
        }
        ArmTimer();
    }

    Hooks m_hooks;
    int64_t m_retransmitPs;
    uint32_t m_stallRounds;
    uint32_t m_roundsWithoutProgress = 0; ///< timer rounds since the last acknowledgement moved
    std::vector<Message> m_slots;  ///< the window: a ring of power-of-two size
    uint32_t m_base = 0;           ///< oldest unacknowledged sequence number
    size_t m_count = 0;            ///< unacknowledged messages
    bool m_fastRetransmitted = false;  ///< a repeated ACK already resent from m_base
    bool m_closed = false;
    uint32_t m_expected = 0;       ///< receiver: the next sequence number to deliver
    ns3::EventId m_timer;
    Counters m_counters;
};

} // namespace incsim

#endif
