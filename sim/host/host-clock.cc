#include "sim/host/host-clock.h"

#include "sim/core/rng.h"
#include "sim/core/sim-time.h"

#include <algorithm>
#include <cmath>

namespace incsim
{

double
Sample(const DistributionParams& d, Rng& rng)
{
    switch (d.type)
    {
    case DistributionParams::Type::Constant:
        return d.a;
    case DistributionParams::Type::Uniform:
        return d.a + (d.b - d.a) * rng.Uniform();
    case DistributionParams::Type::Normal:
        return rng.Normal(d.a, d.b);
    case DistributionParams::Type::Exponential:
        return rng.Exponential(d.a);
    }
    return d.a;
}

HostClock::HostClock(const Config& config, uint64_t seed, uint32_t hostIndex)
    : m_seed(seed),
      m_host(hostIndex),
      m_residual(config.residualSkew),
      m_syncPeriodPs(config.syncPeriodNs * kPsPerNs)
{
    Rng rng(seed, "clock", hostIndex);
    m_initialOffsetNs = Sample(config.offset, rng);
    m_driftPpm = Sample(config.driftPpm, rng);
}

double
HostClock::ResidualAt(int64_t epoch) const
{
    Rng rng(Mix64(m_seed ^ Mix64(m_host)) ^ StableHash("clock-sync"), "epoch", epoch);
    return Sample(m_residual, rng);
}

double
HostClock::ErrorNs(int64_t truePs) const
{
    if (m_syncPeriodPs <= 0)
    {
        return m_initialOffsetNs + m_driftPpm * 1e-6 * (truePs / 1e3);
    }
    int64_t epoch = truePs / m_syncPeriodPs;
    double base = epoch == 0 ? m_initialOffsetNs : ResidualAt(epoch);
    int64_t sinceSyncPs = truePs - epoch * m_syncPeriodPs;
    return base + m_driftPpm * 1e-6 * (sinceSyncPs / 1e3);
}

int64_t
HostClock::LocalNs(int64_t truePs) const
{
    return truePs / kPsPerNs + static_cast<int64_t>(std::llround(ErrorNs(truePs)));
}

int64_t
HostClock::NowNs()
{
    m_lastReadNs = std::max(m_lastReadNs, LocalNs(NowPs()));
    return m_lastReadNs;
}

} // namespace incsim
