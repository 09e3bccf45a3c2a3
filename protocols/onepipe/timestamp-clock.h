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
/// Logical (the total-order-scattering abstract, Sec. 2): no synchronisation; the clock runs at
/// `rate` times the local oscillator, and each ACK's feedback delta (how far this host's
/// messages sat above the receiver's barrier, relative to that receiver's average) adjusts the
/// rate: rate := rate - gain * delta. The rate stays within [kMinRate, kMaxRate].
class TimestampClock
{
  public:
    static constexpr double kMinRate = 0.5;
    static constexpr double kMaxRate = 2.0;

    TimestampClock() = default;
    TimestampClock(HostClock* clock, bool logical, double gainPerNs);

    uint64_t Now();
    /// Logical clocks only; ignored by a physical clock.
    void Feedback(int64_t deltaNs);
    double Rate() const { return m_rate; }
    bool Logical() const { return m_logical; }

  private:
    double LogicalAt(int64_t localNs) const;

    HostClock* m_clock = nullptr;
    bool m_logical = false;
    double m_gain = 0;
    double m_rate = 1.0;
    int64_t m_baseLocalNs = 0;
    double m_baseLogicalNs = 0;
    bool m_started = false;
    uint64_t m_last = 0;
};

} // namespace incsim::onepipe

#endif
