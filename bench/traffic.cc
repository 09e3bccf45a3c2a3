#include "bench/traffic.h"

#include "sim/scenario/schema.h"
#include "sim/topology/topology-registry.h"
#include "topologies/register.h"

#include <nlohmann/json.hpp>

namespace incsim::bench
{

int64_t
TrafficSpec::IntervalPs() const
{
    double seconds = WireBytes() * 8.0 / (static_cast<double>(rateBps) * load);
    return static_cast<int64_t>(seconds * 1e12);
}

Topology
BuildBenchTopology(const TrafficSpec& spec, int hostsPerEdge)
{
    RegisterTopologyGenerators();
    nlohmann::json params = {{"k", spec.k}};
    if (hostsPerEdge > 0)
    {
        params["hosts_per_edge"] = hostsPerEdge;
    }
    const TopologyGenerator& generator = TopologyGenerators().Get("fat-tree");
    nlohmann::json resolved = generator.params().Resolve(params, "bench", "/topology/params");
    LinkParams link;
    link.rateBps = spec.rateBps;
    link.delayNs = spec.delayNs;
    link.bufferBytes = 512 * 1024;
    return generator.build(ParamView(&resolved, "bench", "/topology/params"), link);
}

} // namespace incsim::bench
