#include "sim/runner/build-topology.h"

#include "sim/scenario/scenario.h"
#include "sim/topology/topology-file.h"
#include "sim/topology/topology-registry.h"

namespace incsim
{

LinkParams
LinkDefaults(const Scenario& scenario)
{
    ParamView links = scenario.Section("links");
    LinkParams params;
    params.rateBps = links.RateBps("rate");
    params.delayNs = links.DurationNs("delay");
    params.bufferBytes = links.SizeBytes("buffer");
    params.lossRate = links.Number("loss");
    return params;
}

Topology
BuildTopology(const Scenario& scenario)
{
    ParamView topology = scenario.Section("topology");
    LinkParams defaults = LinkDefaults(scenario);
    if (topology.Has("file"))
    {
        return LoadTopologyFile(scenario.ResolvePath(topology.String("file")), defaults);
    }
    const TopologyGenerator& generator = TopologyGenerators().Get(topology.String("generator"));
    return generator.build(topology.Get("params"), defaults);
}

} // namespace incsim
