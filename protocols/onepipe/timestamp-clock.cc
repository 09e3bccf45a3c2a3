#include "protocols/onepipe/timestamp-clock.h"

#include "sim/host/host-clock.h"

#include <algorithm>

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

uint64_t
TimestampClock::Now()
{
    int64_t local = m_clock->NowNs();
    uint64_t value;
    if (!m_logical)
    {
        value = static_cast<uint64_t>(std::max<int64_t>(local, 0));
    }
    else
    {
        if (!m_started)
        {
            // Joins with the local clock's reading: no synchronisation with other hosts.
            m_started = true;
            m_baseLocalNs = local;
            m_baseLogicalNs = static_cast<double>(std::max<int64_t>(local, 0));
        }
        value = static_cast<uint64_t>(std::max(0.0, LogicalAt(local)));
    }
    m_last = std::max(m_last, value);
    return m_last;
}

void
TimestampClock::Feedback(int64_t deltaNs)
{
    if (!m_logical || !m_started)
    {
        return;
    }
    int64_t local = m_clock->NowNs();
    m_baseLogicalNs = LogicalAt(local);
    m_baseLocalNs = local;
    m_rate = std::clamp(m_rate - m_gain * static_cast<double>(deltaNs), kMinRate, kMaxRate);
}

} // namespace incsim::onepipe
