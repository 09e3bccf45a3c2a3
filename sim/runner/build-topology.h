#ifndef INCSIM_RUNNER_BUILD_TOPOLOGY_H
#define INCSIM_RUNNER_BUILD_TOPOLOGY_H

#include "sim/topology/topology.h"

namespace incsim
{

class Scenario;

/// The scenario's /links section as link defaults.
LinkParams LinkDefaults(const Scenario& scenario);

/// Runs the scenario's topology generator, or loads its topology file (relative to the
/// scenario's directory). Generator and file errors are InputErrors.
Topology BuildTopology(const Scenario& scenario);

} // namespace incsim

#endif
