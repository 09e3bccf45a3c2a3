#ifndef INCSIM_TOPOLOGY_TOPOLOGY_REGISTRY_H
#define INCSIM_TOPOLOGY_TOPOLOGY_REGISTRY_H

#include "sim/core/registry.h"
#include "sim/schema/schema.h"
#include "sim/topology/topology.h"

#include <cstdint>
#include <functional>
#include <string>

namespace incsim
{

/// How big a topology is, counted without building it.
struct TopologySize
{
    uint64_t hosts = 0;
    uint64_t switches = 0;
    uint64_t links = 0;
};

/// A named topology generator. `params` describes /topology/params; `build` receives the
/// validated params and the scenario's /links defaults, and returns the graph. `size`, for
/// generators whose size grows with their params, counts what `build` would make, so that a
/// topology too large for memory is refused before it is built (BuildTopology).
struct TopologyGenerator
{
    std::string description;
    std::function<Spec()> params;
    std::function<Topology(const ParamView& params, const LinkParams& linkDefaults)> build;
    std::function<TopologySize(const ParamView& params)> size = {};
};

Registry<TopologyGenerator>& TopologyGenerators();

/// The most nodes a generator builds. Routes take 4 bytes per (node, host) pair and stop at
/// 4 GiB (EcmpRoutes::kMaxRouteSlots), about 32k nodes, so no run needs more; the limit turns
/// a typo such as k=4000 into an error instead of an allocation that never ends.
constexpr double kMaxGeneratedNodes = 1 << 17;

/// Throws InputError at `params` when a generator would build more than kMaxGeneratedNodes
/// nodes. Callers count in double, from the parameters as given, so that nothing wraps.
void RequireGeneratedSize(const ParamView& params, double hosts, double switches);

} // namespace incsim

#endif
