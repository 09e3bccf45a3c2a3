#include "bench/memory-bench.h"

#include "protocols/udp/udp-protocol.h"
#include "sim/runner/build-topology.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace-outputs.h"
#include "topologies/register.h"

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

int64_t
HeapInUse()
{
    return static_cast<int64_t>(mallinfo2().uordblks);
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

} // namespace

WorldFootprint
MeasureWorld(uint32_t k, uint32_t hostsPerEdge)
{
    RegisterTopologyGenerators();
    RegisterUdpProtocol();
    nlohmann::json doc = {
        {"duration", "1us"},
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
    return footprint;
}

MemoryRow
MeasureMemory(uint32_t k)
{
    MemoryRow row;
    row.k = k;
    // Thin first: the RSS delta of the larger world then includes fresh pages only.
    row.thin = MeasureWorld(k, 1);
    row.full = MeasureWorld(k, k / 2);
    double dHosts = static_cast<double>(row.full.hosts - row.thin.hosts);
    row.heapPerHost = (row.full.heapBytes - row.thin.heapBytes) / dHosts;
    row.rssPerHost = (row.full.rssBytes - row.thin.rssBytes) / dHosts;
    row.heapPerSwitch = (row.full.heapBytes - row.full.hosts * row.heapPerHost) / row.full.switches;
    row.rssPerSwitch = (row.full.rssBytes - row.full.hosts * row.rssPerHost) / row.full.switches;
    return row;
}

void
PrintMemoryTable(std::ostream& out, const std::vector<MemoryRow>& rows)
{
    out << fmt::format("{:>3} {:>5} {:>8} {:>7} {:>8} {:>12} {:>12} {:>11} {:>11}\n",
                       "k", "h/e", "hosts", "switch", "world", "heap B", "rss B",
                       "heap/host", "heap/switch");
    for (const MemoryRow& row : rows)
    {
        for (const WorldFootprint* f : {&row.thin, &row.full})
        {
            out << fmt::format("{:>3} {:>5} {:>8} {:>7} {:>8} {:>12} {:>12}\n",
                               f->k, f->hostsPerEdge, f->hosts, f->switches, "", f->heapBytes,
                               f->rssBytes);
        }
        out << fmt::format("{:>3} {:>5} {:>8} {:>7} {:>8} {:>12} {:>12} {:>11.0f} {:>11.0f}\n",
                           row.k, "", "", "", "per-unit", "", "", row.heapPerHost,
                           row.heapPerSwitch);
        out << fmt::format("{:>3} {:>5} {:>8} {:>7} {:>8} {:>12} {:>12} {:>11.0f} {:>11.0f}   (RSS)\n",
                           row.k, "", "", "", "", "", "", row.rssPerHost, row.rssPerSwitch);
    }
}

} // namespace incsim::bench
