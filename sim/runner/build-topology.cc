#include "sim/runner/build-topology.h"

#include "sim/core/diagnostics.h"
#include "sim/core/units.h"
#include "sim/net/headers.h"
#include "sim/runner/memory-estimate.h"
#include "sim/scenario/scenario.h"
#include "sim/topology/topology-checks.h"
#include "sim/topology/topology-file.h"
#include "sim/topology/topology-registry.h"

#include <fmt/format.h>

#include <limits>
#include <string>
#include <vector>

namespace incsim
{

namespace
{

/// Where a problem with the topology is reported: the topology file, or the scenario's
/// /topology section.
struct TopologySource
{
    std::string file;
    std::string path;
};

/// "h1, h2, s0" for the first few of `nodes`, then how many more.
std::string
NodeList(const Topology& topology, const std::vector<uint32_t>& nodes)
{
    constexpr size_t kShown = 8;
    std::string text;
    for (size_t i = 0; i < nodes.size() && i < kShown; ++i)
    {
        text += (i == 0 ? "" : ", ") + topology.Node(nodes[i]).name;
    }
    if (nodes.size() > kShown)
    {
        text += fmt::format(" and {} more", nodes.size() - kShown);
    }
    return text;
}

/// Refuses, before it is built, a world that would not fit in memory (or in 32-bit node ids).
void
CheckWorldFits(const Scenario& scenario, const TopologySize& size, const TopologySource& source)
{
    constexpr uint64_t kMaxIds = std::numeric_limits<uint32_t>::max();
    if (size.hosts + size.switches >= kMaxIds || size.links >= kMaxIds)
    {
        throw InputError(source.file, source.path,
                         fmt::format("{} nodes and {} links are more than incsim's 32-bit node "
                                     "and link ids can number",
                                     size.hosts + size.switches, size.links));
    }
    const ParamView simulator = scenario.Section("simulator");
    const bool reroutes = scenario.Section("faults").Size() > 0;
    const MemoryEstimate estimate = EstimateWorldMemory(size, reroutes);
    std::string limitText;
    uint64_t limit = 0;
    if (simulator.Has("memory_limit"))
    {
        limit = simulator.SizeBytes("memory_limit");
        limitText = fmt::format("/simulator/memory_limit ({})", simulator.String("memory_limit"));
    }
    else if (auto available = AvailableMemoryBytes())
    {
        limit = available->bytes;
        limitText = fmt::format("the {} {}", FormatMemory(limit), available->limitedBy);
    }
    else
    {
        return; // nothing to compare with
    }
    if (estimate.totalBytes <= limit)
    {
        return;
    }
    throw InputError(
        source.file, source.path,
        fmt::format("a world of {} hosts, {} switches and {} links needs about {} of memory ({} "
                    "of it routes: 4 bytes per node and destination host{}), more than {}; set "
                    "/simulator/memory_limit to a larger size to build it anyway",
                    size.hosts, size.switches, size.links, FormatMemory(estimate.totalBytes),
                    FormatMemory(estimate.routeBytes),
                    reroutes ? ", twice while faults recompute them" : "", limitText));
}

/// Hosts that cannot all reach each other, or cannot exchange one frame within the run, make
/// a run whose results mean nothing (no_route drops, latencies of nothing): refuse them.
/// `file` is the topology file, or empty for a generator (problems then point at its params).
void
CheckTopologyCarriesTraffic(const Scenario& scenario, const Topology& topology,
                            const std::string& file)
{
    const std::string paramsPath = "/topology/params";
    auto where = [&](const std::string& filePath) {
        return file.empty() ? TopologySource{scenario.File(), paramsPath}
                            : TopologySource{file, filePath};
    };
    const size_t hosts = topology.Hosts().size();
    if (hosts < 2)
    {
        const TopologySource at = where("/nodes");
        throw InputError(at.file, at.path,
                         fmt::format("the topology has {} host{}; traffic needs at least 2",
                                     hosts,
                                     hosts == 1 ? " (" + NodeList(topology, topology.Hosts()) + ")"
                                                : "s"));
    }
    const std::vector<uint32_t> cutOff = HostsCutOffFromFirstHost(topology);
    if (!cutOff.empty())
    {
        const TopologySource at = where("/links");
        throw InputError(at.file, at.path,
                         fmt::format("the topology is not connected: {} cannot reach {} (paths "
                                     "run through switches only)",
                                     NodeList(topology, cutOff),
                                     topology.Node(topology.Hosts().front()).name));
    }

    const int64_t durationNs = scenario.DurationNs();
    const ParamView links = scenario.Section("links");
    const uint64_t frameBytes = links.SizeBytes("mtu") + kEthernetHeaderBytes + kWireOverheadBytes;
    const uint64_t defaultRate = links.RateBps("rate");
    for (uint32_t id = 0; id < topology.NumLinks(); ++id)
    {
        const LinkInfo& link = topology.Link(id);
        const long double sendNs = frameBytes * 8.0L * 1e9L / link.params.rateBps;
        if (sendNs <= durationNs)
        {
            continue;
        }
        // The rate is the scenario's /links/rate unless the topology set its own; a file's
        // links are numbered as in the file.
        const TopologySource at = link.params.rateBps == defaultRate
                                      ? TopologySource{scenario.File(), "/links/rate"}
                                      : where(fmt::format("/links/{}", id));
        throw InputError(
            at.file, at.path,
            fmt::format("link {}-{} at {} needs {} to send one {}-byte frame (/links/mtu {} with "
                        "Ethernet framing), longer than the whole run (/duration {})",
                        topology.Node(link.a).name, topology.Node(link.b).name,
                        FormatRate(link.params.rateBps),
                        FormatDuration(static_cast<int64_t>(sendNs)), frameBytes,
                        links.String("mtu"), scenario.Section("duration").AsString()));
    }

    const std::optional<ClosestHosts> closest = FindClosestHosts(topology);
    if (closest && closest->delayNs >= durationNs)
    {
        throw InputError(
            scenario.File(), "/duration",
            fmt::format("no packet can cross the network within the run: the closest hosts, {} "
                        "and {}, are {} apart by propagation delay alone, and the run lasts {}",
                        topology.Node(closest->a).name, topology.Node(closest->b).name,
                        FormatDuration(closest->delayNs),
                        scenario.Section("duration").AsString()));
    }
}

TopologySize
SizeOf(const Topology& topology)
{
    return TopologySize{topology.Hosts().size(), topology.Switches().size(), topology.NumLinks()};
}

} // namespace

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
    ParamView section = scenario.Section("topology");
    LinkParams defaults = LinkDefaults(scenario);
    if (section.Has("file"))
    {
        // A file's size is bounded by the file, so it is counted after it is read.
        const std::string path = scenario.ResolvePath(section.String("file"));
        Topology topology;
        try
        {
            topology = LoadTopologyFile(path, defaults);
        }
        catch (const InputError& error)
        {
            // As for /switch/entries: the scenario names the file, the error says what is
            // wrong with it (missing, unreadable, or where inside it).
            throw InputError(scenario.File(), "/topology/file", error.what());
        }
        CheckWorldFits(scenario, SizeOf(topology), {scenario.File(), "/topology/file"});
        CheckTopologyCarriesTraffic(scenario, topology, path);
        return topology;
    }
    const TopologyGenerator& generator = TopologyGenerators().Get(section.String("generator"));
    const ParamView params = section.Get("params");
    const TopologySource source{scenario.File(), params.Path()};
    if (generator.size)
    {
        CheckWorldFits(scenario, generator.size(params), source);
    }
    Topology topology = generator.build(params, defaults);
    if (!generator.size)
    {
        CheckWorldFits(scenario, SizeOf(topology), source);
    }
    CheckTopologyCarriesTraffic(scenario, topology, "");
    return topology;
}

} // namespace incsim
