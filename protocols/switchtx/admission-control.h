#ifndef INCSIM_SWITCHTX_ADMISSION_CONTROL_H
#define INCSIM_SWITCHTX_ADMISSION_CONTROL_H

#include "sim/trace/trace-schema.h"

#include <cstdint>

namespace incsim::switchtx
{

/// Listing 1's alpha: the MPL halves when an epoch's throughput falls below 0.9 of the last.
constexpr double kMplAlpha = 0.9;

/// One thread's dynamic MPL: Listing 1 of §3.4.2, an epoch-based AIMD. At the end of each
/// epoch the thread feeds it the epoch's global throughput and whether it saw a packet loss
/// in it (switchtx-spec [D] 14: any control-message timeout); the MPL resets to 1 on a loss,
/// grows (doubling below slow_start, then +1) while throughput does not fall below alpha times
/// the last epoch's, and halves when it does. The epoch after a reset or a halving always
/// grows, without comparing throughput (the restart branch).
class AdmissionControl
{
  public:
    /// Listing 1's branches, in its order.
    enum class Branch : uint8_t
    {
        None,      ///< no epoch has ended yet
        Reset,     ///< loss: slow_start = max(MPL / 2, 1), MPL = 1
        Restart,   ///< the epoch after a reset or decrease: grow
        Increase,  ///< T_i > alpha T_{i-1}: grow
        Decrease   ///< otherwise: MPL /= 2 (0 becomes 1), restart
    };
    static const char* BranchName(Branch branch);

    /// `maxMpl` is Listing 1's MAXMPL: slow_start starts at its half, and it also caps the
    /// MPL (a thread has that many client slots, hence txn ids and switch slots).
    AdmissionControl(uint32_t maxMpl, double alpha);

    /// The end of epoch i: its global throughput T_i (any unit, compared with T_{i-1} only)
    /// and whether the thread lost a packet in it. Returns the branch taken.
    Branch EndEpoch(double throughput, bool loss);

    uint32_t Mpl() const { return m_mpl; }
    uint32_t SlowStart() const { return m_slowStart; }
    bool Restarting() const { return m_restart; }

  private:
    void Grow();

    uint32_t m_maxMpl;
    double m_alpha;
    uint32_t m_mpl = 1;  // Listing 1's init: restart, MPL = 1, slow_start = MAXMPL / 2
    uint32_t m_slowStart;
    bool m_restart = true;
    double m_lastThroughput = 0;
};

/// The `switchtx_mpl` trace: each thread's MPL at the end of each epoch (Fig. 13).
const TraceSchema& MplTrace();

} // namespace incsim::switchtx

#endif
