#ifndef INCSIM_RUNNER_BUILD_TOPOLOGY_H
#define INCSIM_RUNNER_BUILD_TOPOLOGY_H

#include "sim/topology/topology.h"

namespace incsim
{

class Scenario;

/// The scenario's /links section as link defaults.
LinkParams LinkDefaults(const Scenario& scenario);

/// Runs the scenario's topology generator, or loads its topology file (relative to the
/// scenario's directory). Generator and file errors are InputErrors, and so is a topology
/// that would not fit in memory (refused before it is built when the generator can count its
/// size), has fewer than 2 hosts, is not connected, has a link too slow to send one frame
/// within the run, or no two hosts close enough to exchange a packet within it.
Topology BuildTopology(const Scenario& scenario);

} // namespace incsim

#endif
