#ifndef INCSIM_RUNNER_FAULTS_H
#define INCSIM_RUNNER_FAULTS_H

#include "sim/scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace incsim
{

class Topology;
class World;

/// One entry of the scenario's /faults timeline, with names resolved against the topology.
struct FaultEvent
{
    int64_t atNs = 0;
    FaultAction action = FaultAction::LinkDown;
    std::optional<uint32_t> link; ///< for loss_rate, absent means every link
    uint32_t node = 0;
    double rate = 0;
};

/// Resolves node and link names; an unknown name or a missing link throws InputError at the
/// fault's JSON path. Faults at or after the end of the run are reported the same way.
std::vector<FaultEvent> ResolveFaults(const Scenario& scenario, const Topology& topology);

/// Schedules the timeline in the simulator; each fault is applied to `world` at its time.
void ScheduleFaults(World& world, const std::vector<FaultEvent>& faults);

} // namespace incsim

#endif
