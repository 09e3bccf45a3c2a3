#include "topologies/register.h"
#include "topologies/uplink-rate.h"

#include <string>
#include <vector>

namespace incsim
{
namespace
{

constexpr uint32_t kPods = 2;
constexpr uint32_t kTorsPerPod = 2;
constexpr uint32_t kSpinesPerPod = 2;
constexpr uint32_t kCores = 2;
constexpr uint32_t kHostsPerTor = 8;

Topology
BuildOnePipeTestbed(const ParamView& params, const LinkParams& link)
{
    // Each ToR's hosts share its uplinks at the oversubscription ratio; a spine's two core
    // links carry what its two ToR links bring (1:1), so the ratio is the whole network's.
    const LinkParams uplink = OversubscribedUplink(params, link, kHostsPerTor, kSpinesPerPod);

    Topology topology;
    const uint32_t numTors = kPods * kTorsPerPod;
    std::vector<uint32_t> hosts;
    for (uint32_t i = 0; i < numTors * kHostsPerTor; ++i)
    {
        const auto pod = static_cast<int>(i / (kHostsPerTor * kTorsPerPod));
        hosts.push_back(topology.AddNode("h" + std::to_string(i), NodeKind::Host, 0, pod));
    }
    std::vector<uint32_t> tors;
    for (uint32_t i = 0; i < numTors; ++i)
    {
        tors.push_back(topology.AddNode("tor" + std::to_string(i),
                                        NodeKind::Switch,
                                        1,
                                        static_cast<int>(i / kTorsPerPod)));
    }
    std::vector<uint32_t> spines;
    for (uint32_t i = 0; i < kPods * kSpinesPerPod; ++i)
    {
        spines.push_back(topology.AddNode("spine" + std::to_string(i),
                                          NodeKind::Switch,
                                          2,
                                          static_cast<int>(i / kSpinesPerPod)));
    }
    std::vector<uint32_t> cores;
    for (uint32_t i = 0; i < kCores; ++i)
    {
        cores.push_back(topology.AddNode("core" + std::to_string(i), NodeKind::Switch, 3));
    }

    for (uint32_t i = 0; i < hosts.size(); ++i)
    {
        topology.AddLink(hosts[i], tors[i / kHostsPerTor], link);
    }
    for (uint32_t t = 0; t < numTors; ++t)
    {
        const uint32_t pod = t / kTorsPerPod;
        for (uint32_t s = 0; s < kSpinesPerPod; ++s)
        {
            topology.AddLink(tors[t], spines[pod * kSpinesPerPod + s], uplink);
        }
    }
    for (uint32_t spine : spines)
    {
        for (uint32_t core : cores)
        {
            topology.AddLink(spine, core, uplink);
        }
    }
    return topology;
}

} // namespace

TopologyGenerator
OnePipeTestbedGenerator()
{
    TopologyGenerator generator;
    generator.description =
        "The 1Pipe paper's testbed (SIGCOMM 2021, Sec. 7.1): a 3-layer tree of 4 ToR (tor{i}), "
        "4 spine (spine{i}) and 2 core (core{i}) switches with 8 hosts (h{i}) per ToR. Pod p holds "
        "tor{2p}, tor{2p+1}, spine{2p} and spine{2p+1}; each ToR links to both spines of its pod "
        "and each spine to both cores. Hosts are 1, 3 or 5 switches apart. Host links run at the "
        "/links rate R, switch links at 8R / (2 * oversubscription): the default 4 gives every "
        "link R (8 hosts over 2 uplinks per ToR); 1 is non-blocking, as in the paper.";
    generator.params = [] {
        return Spec::Object().Field("oversubscription",
                                    Spec::Number().Above(0),
                                    "host bandwidth / uplink bandwidth at a ToR; spines are 1:1",
                                    4.0);
    };
    generator.build = BuildOnePipeTestbed;
    return generator;
}

} // namespace incsim
