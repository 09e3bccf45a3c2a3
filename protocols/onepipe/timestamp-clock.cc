#include "protocols/onepipe/timestamp-clock.h"

#include "sim/host/host-clock.h"

#include <algorithm>
#include <cmath>

namespace incsim::onepipe
{

TimestampClock::TimestampClock(HostClock* clock, bool logical, double gainPerNs)
    : m_clock(clock),
      m_logical(logical),
      m_gain(gainPerNs)
{
}

double
TimestampClock::LogicalAt(int64_t localNs) const
{
    return m_baseLogicalNs + m_rate * static_cast<double>(localNs - m_baseLocalNs);
}

void
TimestampClock::Settle(int64_t localNs)
{
    if (!m_started)
    {
        // Joins with the local clock's reading: no synchronisation with other hosts.
        m_started = true;
        m_baseLocalNs = localNs;
        m_baseLogicalNs = static_cast<double>(std::max<int64_t>(localNs, 0));
    }
    if (m_rate != 1.0 && localNs >= m_slewEndLocalNs)
    {
        m_baseLogicalNs = LogicalAt(m_slewEndLocalNs);
        m_baseLocalNs = m_slewEndLocalNs;
        m_rate = 1.0;
    }
}

uint64_t
TimestampClock::Now()
{
    const int64_t local = m_clock->NowNs();
    uint64_t value;
    if (!m_logical)
    {
        value = static_cast<uint64_t>(std::max<int64_t>(local + m_joinOffsetNs, 0));
    }
    else
    {
        Settle(local);
        value = static_cast<uint64_t>(std::max(0.0, LogicalAt(local)));
    }
    m_last = std::max(m_last, value);
    return m_last;
}

bool
TimestampClock::AdvanceTo(uint64_t floor)
{
    if (Now() >= floor)
    {
        return false;
    }
    if (m_logical)
    {
        m_baseLocalNs = m_clock->NowNs();
        m_baseLogicalNs = static_cast<double>(floor);
    }
    m_last = floor;
    return true;
}

bool
TimestampClock::Join(uint64_t ts)
{
    if (Now() >= ts)
    {
        return false;
    }
    if (m_logical)
    {
        return AdvanceTo(ts);
    }
    m_joinOffsetNs = static_cast<int64_t>(ts) - m_clock->NowNs();
    m_last = ts;
    return true;
}

int64_t
TimestampClock::LocalNsUntil(uint64_t target)
{
    if (Now() >= target)
    {
        return 0;
    }
    const int64_t local = m_clock->NowNs();
    if (!m_logical)
    {
        // A physical clock raised to a barrier stands still until the oscillator catches up.
        return std::max<int64_t>(1, static_cast<int64_t>(target) - local - m_joinOffsetNs);
    }
    const double remaining = static_cast<double>(target) - LogicalAt(local);
    double localNs = remaining;
    if (m_rate != 1.0)
    {
        // At the slew's rate until it ends, then at the oscillator's.
        const double slewLeft = static_cast<double>(m_slewEndLocalNs - local);
        localNs = remaining <= m_rate * slewLeft ? remaining / m_rate
                                                 : slewLeft + (remaining - m_rate * slewLeft);
    }
    return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(localNs)));
}

void
TimestampClock::Feedback(int64_t deltaNs)
{
    if (!m_logical || !m_started || m_gain <= 0)
    {
        return;
    }
    const int64_t local = m_clock->NowNs();
    Settle(local);
    m_baseLogicalNs = LogicalAt(local);
    m_baseLocalNs = local;
    m_rate = std::clamp(1.0 - m_gain * static_cast<double>(deltaNs), kMinRate, kMaxRate);
    m_slewEndLocalNs = local + static_cast<int64_t>(std::ceil(1.0 / m_gain));
}

} // namespace incsim::onepipe
