#ifndef INCSIM_CORE_SIM_TIME_H
#define INCSIM_CORE_SIM_TIME_H

#include <ns3/nstime.h>
#include <ns3/simulator.h>

#include <cstdint>

namespace incsim
{

// incsim runs ns-3 at picosecond resolution, so that serialisation times at 100Gbps and above
// (80ps per byte) are exact. Scenario files speak in ns and above.
constexpr int64_t kPsPerNs = 1000;

/// Sets ns-3's time resolution to picoseconds; must run before any ns3::Time is created.
/// Idempotent.
void EnsurePicosecondResolution();

inline int64_t
NowPs()
{
    return ns3::Simulator::Now().GetTimeStep();
}

inline ns3::Time
Ps(int64_t ps)
{
    return ns3::Time::From(ps);
}

} // namespace incsim

#endif
