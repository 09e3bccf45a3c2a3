#include "topologies/register.h"

#include <string>
#include <vector>

namespace incsim
{
namespace
{

Topology
BuildFatTree(const ParamView& params, const LinkParams& link)
{
    const double kAsGiven = static_cast<double>(params.Int("k"));
    RequireGeneratedSize(params,
                         kAsGiven * (kAsGiven / 2) *
                             (params.Has("hosts_per_edge")
                                  ? static_cast<double>(params.Int("hosts_per_edge"))
                                  : kAsGiven / 2),
                         kAsGiven * kAsGiven * 5 / 4);
    const auto k = static_cast<uint32_t>(params.Int("k"));
    const uint32_t half = k / 2;
    const auto hostsPerEdge =
        params.Has("hosts_per_edge") ? static_cast<uint32_t>(params.Int("hosts_per_edge")) : half;

    Topology topology;
    // Hosts first, so a host's node id equals its host index.
    std::vector<uint32_t> hosts;
    for (uint32_t i = 0; i < k * half * hostsPerEdge; ++i)
    {
        const auto pod = static_cast<int>(i / (half * hostsPerEdge));
        hosts.push_back(topology.AddNode("h" + std::to_string(i), NodeKind::Host, 0, pod));
    }
    std::vector<uint32_t> edges;
    std::vector<uint32_t> aggs;
    for (uint32_t p = 0; p < k; ++p)
    {
        const std::string pod = std::to_string(p);
        for (uint32_t i = 0; i < half; ++i)
        {
            edges.push_back(topology.AddNode("e" + pod + "_" + std::to_string(i),
                                             NodeKind::Switch,
                                             1,
                                             static_cast<int>(p)));
        }
        for (uint32_t i = 0; i < half; ++i)
        {
            aggs.push_back(topology.AddNode("a" + pod + "_" + std::to_string(i),
                                            NodeKind::Switch,
                                            2,
                                            static_cast<int>(p)));
        }
    }
    std::vector<uint32_t> cores;
    for (uint32_t i = 0; i < half * half; ++i)
    {
        cores.push_back(topology.AddNode("c" + std::to_string(i), NodeKind::Switch, 3));
    }

    // Links bottom-up, so every switch numbers its down ports before its up ports.
    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        topology.AddLink(hosts[i], edges[i / hostsPerEdge], link);
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t a = 0; a < half; ++a)
            {
                topology.AddLink(edges[p * half + e], aggs[p * half + a], link);
            }
        }
    }
    // Aggregation switch i of every pod connects to core switches i*k/2 .. i*k/2 + k/2 - 1.
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t j = 0; j < half; ++j)
            {
                topology.AddLink(aggs[p * half + a], cores[a * half + j], link);
            }
        }
    }
    return topology;
}

TopologySize
FatTreeSize(const ParamView& params)
{
    const auto k = static_cast<uint64_t>(params.Int("k"));
    const uint64_t half = k / 2;
    const auto hostsPerEdge =
        params.Has("hosts_per_edge") ? static_cast<uint64_t>(params.Int("hosts_per_edge")) : half;
    TopologySize size;
    size.hosts = k * half * hostsPerEdge;
    size.switches = k * half * 2 + half * half;
    size.links = size.hosts + 2 * k * half * half;
    return size;
}

} // namespace

TopologyGenerator
FatTreeGenerator()
{
    TopologyGenerator generator;
    generator.description =
        "k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 edge switches (e{pod}_{i}) "
        "and k/2 aggregation switches (a{pod}_{i}), k^2/4 core switches (c{i}), and k^3/4 hosts "
        "(h{i}) at full bisection. Layers: edge 1, aggregation 2, core 3; group = pod.";
    generator.params = [] {
        return Spec::Object()
            .Field("k", Spec::Integer().Min(2).Even(), "switch radix (even)", 4)
            .OptionalField("hosts_per_edge",
                           Spec::Integer().Min(1),
                           "hosts under each edge switch (default k/2; more oversubscribes)");
    };
    generator.build = BuildFatTree;
    generator.size = FatTreeSize;
    return generator;
}

} // namespace incsim
