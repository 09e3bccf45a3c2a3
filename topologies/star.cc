#include "topologies/register.h"

#include <string>

namespace incsim
{
namespace
{

Topology
BuildStar(const ParamView& params, const LinkParams& link)
{
    RequireGeneratedSize(params, static_cast<double>(params.Int("hosts")), 1);
    const auto hosts = static_cast<uint32_t>(params.Int("hosts"));
    Topology topology;
    for (uint32_t i = 0; i < hosts; ++i)
    {
        topology.AddNode("h" + std::to_string(i), NodeKind::Host, 0);
    }
    const uint32_t center = topology.AddNode("s0", NodeKind::Switch, 1);
    for (uint32_t i = 0; i < hosts; ++i)
    {
        topology.AddLink(i, center, link);
    }
    return topology;
}

} // namespace

TopologyGenerator
StarGenerator()
{
    TopologyGenerator generator;
    generator.description = "One switch (s0) with `hosts` hosts (h{i}); port i leads to h{i}.";
    generator.params = [] {
        return Spec::Object().Field("hosts", Spec::Integer().Min(2), "number of hosts", 8);
    };
    generator.build = BuildStar;
    generator.size = [](const ParamView& params) {
        const auto hosts = static_cast<uint64_t>(params.Int("hosts"));
        return TopologySize{hosts, 1, hosts};
    };
    return generator;
}

} // namespace incsim
