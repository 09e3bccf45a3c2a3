#ifndef INCSIM_RUNNER_MEMORY_ESTIMATE_H
#define INCSIM_RUNNER_MEMORY_ESTIMATE_H

#include "sim/topology/topology-registry.h"

#include <cstdint>
#include <optional>
#include <string>

namespace incsim
{

/// Memory a World of a given size takes, estimated from the per-unit costs that
/// bench/memory-bench.cc measures (README, "Memory of a built world"), before anything is built.
struct MemoryEstimate
{
    uint64_t totalBytes = 0;
    /// The route table (EcmpRoutes): 4 bytes per (node, destination host), twice when faults make
    /// the world recompute routes while the old table still exists.
    uint64_t routeBytes = 0;
};

/// `reroutes`: the scenario has faults, so routes are recomputed during the run.
MemoryEstimate EstimateWorldMemory(const TopologySize& size, bool reroutes);

/// Memory this process may still take, and what limits it: MemAvailable of /proc/meminfo,
/// lowered to what the cgroup (v2 memory.max less memory.current) or the address-space limit
/// (ulimit -v, less what the process has mapped) leaves.
struct AvailableMemory
{
    uint64_t bytes = 0;
    std::string limitedBy; ///< e.g. "available on this machine"
};

/// nullopt when none of the limits can be read.
std::optional<AvailableMemory> AvailableMemoryBytes();

/// "19.2 GB", "512.0 MB": bytes for a person to read.
std::string FormatMemory(uint64_t bytes);

} // namespace incsim

#endif
