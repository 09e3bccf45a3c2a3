#ifndef INCSIM_ONEPIPE_TIMESTAMP_CLOCK_H
#define INCSIM_ONEPIPE_TIMESTAMP_CLOCK_H

#include <cstdint>

namespace incsim
{
class HostClock;
}

namespace incsim::onepipe
{

/// The timestamps a host puts on its 1Pipe packets (48-bit ns, never decreasing).
///
/// Physical: the host's local clock, synchronised and skewed per the scenario's /hosts/clock.
/// Logical (the total-order-scattering abstract, Sec. 2): no synchronisation; the clock runs
/// with the local oscillator, and each ACK's feedback delta (how far this host's messages sat
/// above the receiver's barrier, relative to that receiver's average) sets its rate to
/// 1 - gain * delta for the next 1 / gain ns, which slews the delta away; then the rate is 1
/// again. The rate stays within [kMinRate, kMaxRate]. (The abstract's c := c - gain * delta
/// accumulates the rate instead; that loop has no damping and its phases oscillate ever wider,
/// see docs/onepipe.md.)
///
/// Both clocks keep Lamport's rule for a receiver (AdvanceTo): once the host has received a
/// barrier B, the clock reads at least B, so every timestamp it delivers (below B) is below
/// its clock and below everything it sends afterwards. While a host is part of the barrier
/// the rule never moves its clock (the barrier is a minimum over its own past timestamps); it
/// matters for a host that the switches do not wait for, e.g. one rejoining after a failure.
class TimestampClock
{
  public:
    static constexpr double kMinRate = 0.5;
    static constexpr double kMaxRate = 2.0;

    TimestampClock() = default;
    TimestampClock(HostClock* clock, bool logical, double gainPerNs);

    uint64_t Now();
    /// From now on the clock reads at least `floor` (a logical clock jumps there and runs on).
    /// Returns whether that moved the clock.
    bool AdvanceTo(uint64_t floor);
    /// The join of the total-order-scattering abstract: from now on the clock reads at least
    /// `ts` and runs on from there at its rate (a physical clock keeps the jump as an offset
    /// to its oscillator). Returns whether that moved the clock.
    bool Join(uint64_t ts);
    /// Local ns until the clock reads `target` at its current rate (0 if it already does).
    int64_t LocalNsUntil(uint64_t target);
    /// Logical clocks only; ignored by a physical clock.
    void Feedback(int64_t deltaNs);
    /// The logical clock's current rate against the local oscillator (1 for a physical clock).
    double Rate() const { return m_rate; }
    bool Logical() const { return m_logical; }

  private:
    /// Starts a logical clock at its first reading, and ends a slew that is over.
    void Settle(int64_t localNs);
    double LogicalAt(int64_t localNs) const;

    HostClock* m_clock = nullptr;
    bool m_logical = false;
    double m_gain = 0;
    double m_rate = 1.0;
    int64_t m_baseLocalNs = 0;
    double m_baseLogicalNs = 0;
    /// Local time at which the current slew ends and the rate returns to 1.
    int64_t m_slewEndLocalNs = 0;
    bool m_started = false;
    uint64_t m_last = 0;
    /// Physical: what joins added to the local clock.
    int64_t m_joinOffsetNs = 0;
};

} // namespace incsim::onepipe

#endif
