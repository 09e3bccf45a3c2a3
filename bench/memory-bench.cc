#include "bench/memory-bench.h"

#include "protocols/udp/udp-protocol.h"
#include "sim/runner/build-topology.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/switch/ecmp-route-installer.h"
#include "sim/topology/routing.h"
#include "sim/trace/trace-outputs.h"
#include "topologies/register.h"

#include <SwitchPrograms.h>

#include <ns3/simulator.h>

#include <fmt/format.h>
#include <malloc.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <ostream>

namespace incsim::bench
{
namespace
{

/// Bytes in use from the allocator: arena chunks (uordblks) plus chunks big enough to be
/// mmapped (hblkhd). Counting both keeps the result independent of glibc's dynamic mmap
/// threshold, which moves as earlier worlds free their large vectors.
int64_t
HeapInUse()
{
    struct mallinfo2 info = mallinfo2();
    return static_cast<int64_t>(info.uordblks + info.hblkhd);
}

int64_t
ResidentBytes()
{
    long pages = 0;
    long resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r"))
    {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
        {
            resident = 0;
        }
        std::fclose(f);
    }
    return static_cast<int64_t>(resident) * sysconf(_SC_PAGESIZE);
}

/// Heap taken by the routing state of a World on `topology`, built the way World builds it.
int64_t
RoutingBytes(const Topology& topology)
{
    int64_t heap0 = HeapInUse();
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    const p4rt::GeneratedProgram forward =
        p4rt::FindGeneratedProgram(p4gen::SwitchPrograms(), "forward");
    std::vector<std::unique_ptr<p4rt::V1Program>> programs;
    programs.reserve(topology.Switches().size());
    for (uint32_t node : topology.Switches())
    {
        programs.push_back(forward.create());
        EcmpRouteInstaller(node, topology.NumPorts(node), EcmpMode::PerFlow, 1)
            .InstallRoutes(routes, programs.back()->Control());
    }
    return HeapInUse() - heap0;
}

} // namespace

WorldFootprint
MeasureWorld(uint32_t k, uint32_t hostsPerEdge)
{
    RegisterTopologyGenerators();
    RegisterUdpProtocol();
    nlohmann::json doc = {
        {"duration", "1ms"}, // never run, but long enough for a frame to cross the world
        {"topology",
         {{"generator", "fat-tree"}, {"params", {{"k", k}, {"hosts_per_edge", hostsPerEdge}}}}},
        {"protocol", {{"name", "udp"}}},
        {"outputs", {{"traces", nlohmann::json::array()}}}};
    Scenario scenario = ParseScenario(doc, "bench-memory", ".", {});
    TraceOutputs traces("/nonexistent-incsim-bench", {}); // no trace enabled: never opened

    WorldFootprint footprint;
    footprint.k = k;
    footprint.hostsPerEdge = hostsPerEdge;
    malloc_trim(0);
    int64_t heap0 = HeapInUse();
    int64_t rss0 = ResidentBytes();
    {
        auto world = std::make_unique<World>(scenario, BuildTopology(scenario), traces);
        footprint.heapBytes = HeapInUse() - heap0;
        footprint.rssBytes = ResidentBytes() - rss0;
        footprint.hosts = world->NumHosts();
        footprint.switches = world->Switches().size();
    }
    ns3::Simulator::Destroy();
    footprint.routingBytes = RoutingBytes(BuildTopology(scenario));
    return footprint;
}

MemoryRow
MeasureMemory(uint32_t k)
{
    // One throwaway world first, so that one-time costs (TypeId registration, the frame
    // pool, ns-3's singletons) are not charged to the switches of the first measurement.
    static const bool warmedUp = (MeasureWorld(2, 1), true);
    (void)warmedUp;
    MemoryRow row;
    row.k = k;
    // Thin first: the RSS delta of the larger world then includes fresh pages only.
    row.thin = MeasureWorld(k, 1);
    row.full = MeasureWorld(k, k / 2);
    double dHosts = static_cast<double>(row.full.hosts - row.thin.hosts);
    row.heapPerHost = (row.full.heapBytes - row.thin.heapBytes) / dHosts;
    row.rssPerHost = (row.full.rssBytes - row.thin.rssBytes) / dHosts;
    row.heapPerSwitch = (row.full.heapBytes - row.full.hosts * row.heapPerHost) / row.full.switches;
    row.routingPerHost = (row.full.routingBytes - row.thin.routingBytes) / dHosts;
    row.routingPerSwitch =
        (row.full.routingBytes - row.full.hosts * row.routingPerHost) / row.full.switches;
    row.rssPerSwitch = (row.full.rssBytes - row.full.hosts * row.rssPerHost) / row.full.switches;
    return row;
}

void
PrintMemoryTable(std::ostream& out, const std::vector<MemoryRow>& rows)
{
    out << fmt::format("{:>3} {:>10} {:>6} {:>8} {:>11} {:>11} {:>11}\n", "k", "hosts/edge",
                       "hosts", "switches", "heap B", "routing B", "RSS B");
    for (const MemoryRow& row : rows)
    {
        for (const WorldFootprint* f : {&row.thin, &row.full})
        {
            out << fmt::format("{:>3} {:>10} {:>6} {:>8} {:>11} {:>11} {:>11}\n", f->k,
                               f->hostsPerEdge, f->hosts, f->switches, f->heapBytes,
                               f->routingBytes, f->rssBytes);
        }
    }
    out << "\nper-unit cost: per host = delta heap / delta hosts (the two rows of a k);\n"
           "per switch = (heap - hosts * per host) / switches\n";
    out << fmt::format("{:>3} {:>12} {:>16} {:>14} {:>18} {:>12} {:>14}\n", "k", "B/host",
                       "of which routing", "B/switch", "of which routing", "RSS B/host",
                       "RSS B/switch");
    for (const MemoryRow& row : rows)
    {
        out << fmt::format("{:>3} {:>12.0f} {:>16.0f} {:>14.0f} {:>18.0f} {:>12.0f} {:>14.0f}\n",
                           row.k, row.heapPerHost, row.routingPerHost, row.heapPerSwitch,
                           row.routingPerSwitch, row.rssPerHost, row.rssPerSwitch);
    }
}

} // namespace incsim::bench
