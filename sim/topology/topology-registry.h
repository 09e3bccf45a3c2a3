#ifndef INCSIM_TOPOLOGY_TOPOLOGY_REGISTRY_H
#define INCSIM_TOPOLOGY_TOPOLOGY_REGISTRY_H

#include "sim/core/registry.h"
#include "sim/scenario/schema.h"
#include "sim/topology/topology.h"

#include <functional>
#include <string>

namespace incsim
{

/// A named topology generator. `params` describes /topology/params; `build` receives the
/// validated params and the scenario's /links defaults, and returns the graph.
struct TopologyGenerator
{
    std::string description;
    std::function<Spec()> params;
    std::function<Topology(const ParamView& params, const LinkParams& linkDefaults)> build;
};

Registry<TopologyGenerator>& TopologyGenerators();

} // namespace incsim

#endif
