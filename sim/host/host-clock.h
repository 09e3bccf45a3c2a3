#ifndef INCSIM_HOST_HOST_CLOCK_H
#define INCSIM_HOST_HOST_CLOCK_H

#include "sim/schema/schema.h"

#include <cstdint>

namespace incsim
{

/// A host's local clock: true time plus an error that starts at an initial offset, grows with
/// the drift rate, and is reset at each synchronisation (every sync period) to a residual
/// skew drawn afresh. Errors are computed on demand from (seed, host, sync epoch), so the model
/// costs no simulator events and reading the clock never perturbs other random streams.
class HostClock
{
  public:
    struct Config
    {
        DistributionParams offset;        ///< ns
        DistributionParams driftPpm;      ///< parts per million
        DistributionParams residualSkew;  ///< ns
        int64_t syncPeriodNs = 0;         ///< 0: never synchronised
    };

    HostClock() = default;
    HostClock(const Config& config, uint64_t seed, uint32_t hostIndex);

    /// Local time in ns at true simulated time `truePs`.
    int64_t LocalNs(int64_t truePs) const;
    /// Local time now, never going backwards between reads (as a monotonic clock API would).
    int64_t NowNs();
    /// Clock error (local - true) in ns at `truePs`.
    double ErrorNs(int64_t truePs) const;

    double DriftPpm() const { return m_driftPpm; }

  private:
    double ResidualAt(int64_t epoch) const;

    uint64_t m_seed = 0;
    uint32_t m_host = 0;
    double m_initialOffsetNs = 0;
    double m_driftPpm = 0;
    DistributionParams m_residual;
    int64_t m_syncPeriodPs = 0;
    int64_t m_lastReadNs = INT64_MIN;
};

/// Draws one value from a distribution with the given stream.
class Rng;
double Sample(const DistributionParams& distribution, Rng& rng);

} // namespace incsim

#endif
