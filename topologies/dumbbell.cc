#include "topologies/register.h"

#include <string>

namespace incsim
{
namespace
{

Topology
BuildDumbbell(const ParamView& params, const LinkParams& link)
{
    RequireGeneratedSize(params,
                         static_cast<double>(params.Int("left")) +
                             static_cast<double>(params.Int("right")),
                         2);
    const auto left = static_cast<uint32_t>(params.Int("left"));
    const auto right = static_cast<uint32_t>(params.Int("right"));
    LinkParams bottleneck = link;
    if (params.Has("bottleneck_rate"))
    {
        bottleneck.rateBps = params.RateBps("bottleneck_rate");
    }
    if (params.Has("bottleneck_delay"))
    {
        bottleneck.delayNs = params.DurationNs("bottleneck_delay");
    }

    Topology topology;
    for (uint32_t i = 0; i < left; ++i)
    {
        topology.AddNode("left-h" + std::to_string(i), NodeKind::Host, 0, 0);
    }
    for (uint32_t i = 0; i < right; ++i)
    {
        topology.AddNode("right-h" + std::to_string(i), NodeKind::Host, 0, 1);
    }
    const uint32_t leftSwitch = topology.AddNode("left", NodeKind::Switch, 1, 0);
    const uint32_t rightSwitch = topology.AddNode("right", NodeKind::Switch, 1, 1);
    for (uint32_t i = 0; i < left + right; ++i)
    {
        topology.AddLink(i, i < left ? leftSwitch : rightSwitch, link);
    }
    topology.AddLink(leftSwitch, rightSwitch, bottleneck);
    return topology;
}

} // namespace

TopologyGenerator
DumbbellGenerator()
{
    TopologyGenerator generator;
    generator.description =
        "Two switches (left, right) joined by one bottleneck link, with `left` hosts (left-h{i}) "
        "and `right` hosts (right-h{i}). Each switch's last port is the bottleneck.";
    generator.params = [] {
        return Spec::Object()
            .Field("left", Spec::Integer().Min(1), "hosts on the left switch", 4)
            .Field("right", Spec::Integer().Min(1), "hosts on the right switch", 4)
            .OptionalField("bottleneck_rate",
                           Spec::Rate().Above(0),
                           "rate of the bottleneck link (default /links/rate)")
            .OptionalField("bottleneck_delay",
                           Spec::Duration(),
                           "delay of the bottleneck link (default /links/delay)");
    };
    generator.build = BuildDumbbell;
    generator.size = [](const ParamView& params) {
        const auto hosts = static_cast<uint64_t>(params.Int("left") + params.Int("right"));
        return TopologySize{hosts, 2, hosts + 1};
    };
    return generator;
}

} // namespace incsim
