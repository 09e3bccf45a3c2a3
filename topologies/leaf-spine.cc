#include "topologies/register.h"
#include "topologies/uplink-rate.h"

#include <string>
#include <vector>

namespace incsim
{
namespace
{

Topology
BuildLeafSpine(const ParamView& params, const LinkParams& link)
{
    RequireGeneratedSize(params,
                         static_cast<double>(params.Int("leaves")) *
                             static_cast<double>(params.Int("hosts_per_leaf")),
                         static_cast<double>(params.Int("leaves")) +
                             static_cast<double>(params.Int("spines")));
    const auto leaves = static_cast<uint32_t>(params.Int("leaves"));
    const auto spines = static_cast<uint32_t>(params.Int("spines"));
    const auto hostsPerLeaf = static_cast<uint32_t>(params.Int("hosts_per_leaf"));
    // Uplinks share the leaf's host traffic, divided by the oversubscription ratio.
    const LinkParams uplink = OversubscribedUplink(params, link, hostsPerLeaf, spines);

    Topology topology;
    std::vector<uint32_t> hosts;
    for (uint32_t i = 0; i < leaves * hostsPerLeaf; ++i)
    {
        hosts.push_back(topology.AddNode("h" + std::to_string(i),
                                         NodeKind::Host,
                                         0,
                                         static_cast<int>(i / hostsPerLeaf)));
    }
    std::vector<uint32_t> leafIds;
    for (uint32_t i = 0; i < leaves; ++i)
    {
        leafIds.push_back(
            topology.AddNode("leaf" + std::to_string(i), NodeKind::Switch, 1, static_cast<int>(i)));
    }
    std::vector<uint32_t> spineIds;
    for (uint32_t i = 0; i < spines; ++i)
    {
        spineIds.push_back(topology.AddNode("spine" + std::to_string(i), NodeKind::Switch, 2));
    }
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        topology.AddLink(hosts[i], leafIds[i / hostsPerLeaf], link);
    }
    for (uint32_t leaf : leafIds)
    {
        for (uint32_t spine : spineIds)
        {
            topology.AddLink(leaf, spine, uplink);
        }
    }
    return topology;
}

} // namespace

TopologyGenerator
LeafSpineGenerator()
{
    TopologyGenerator generator;
    generator.description =
        "Two-tier leaf-spine: leaves (leaf{i}) with hosts_per_leaf hosts (h{i}) each, every leaf "
        "linked to every spine (spine{j}). Host links use the /links rate R; each uplink runs at "
        "hosts_per_leaf * R / (spines * oversubscription), rounded to whole bps.";
    generator.params = [] {
        return Spec::Object()
            .Field("leaves", Spec::Integer().Min(1), "leaf (ToR) switches", 4)
            .Field("spines", Spec::Integer().Min(1), "spine switches", 2)
            .Field("hosts_per_leaf", Spec::Integer().Min(1), "hosts under each leaf", 8)
            .Field("oversubscription",
                   Spec::Number().Above(0),
                   "host bandwidth / uplink bandwidth at a leaf",
                   1.0);
    };
    generator.build = BuildLeafSpine;
    generator.size = [](const ParamView& params) {
        const auto leaves = static_cast<uint64_t>(params.Int("leaves"));
        const auto spines = static_cast<uint64_t>(params.Int("spines"));
        const uint64_t hosts = leaves * static_cast<uint64_t>(params.Int("hosts_per_leaf"));
        return TopologySize{hosts, leaves + spines, hosts + leaves * spines};
    };
    return generator;
}

} // namespace incsim
