#ifndef INCSIM_BENCH_MEMORY_BENCH_H
#define INCSIM_BENCH_MEMORY_BENCH_H

#include <cstdint>
#include <iosfwd>
#include <vector>

namespace incsim::bench
{

/// Heap and RSS growth while building one incsim World (topology included, nothing run).
struct WorldFootprint
{
    uint32_t k = 0;
    uint32_t hostsPerEdge = 0;
    uint64_t hosts = 0;
    uint64_t switches = 0;
    int64_t heapBytes = 0; ///< mallinfo2() uordblks + hblkhd, after minus before
    int64_t rssBytes = 0;  ///< /proc/self/statm resident after minus before
    /// Of heapBytes, the routing state alone, measured by building it again on its own: the
    /// world's EcmpRoutes plus every switch's L3EcmpPipeline tables.
    int64_t routingBytes = 0;
};

/// Per-host and per-switch cost at one k, from a World with k/2 hosts per edge switch and one
/// with 1: per host = delta heap / delta hosts; per switch = (heap - hosts * per host) / switches.
struct MemoryRow
{
    uint32_t k = 0;
    WorldFootprint full;
    WorldFootprint thin;
    double heapPerHost = 0;
    double heapPerSwitch = 0;
    double routingPerHost = 0;
    double routingPerSwitch = 0;
    double rssPerHost = 0;
    double rssPerSwitch = 0;
};

WorldFootprint MeasureWorld(uint32_t k, uint32_t hostsPerEdge);
MemoryRow MeasureMemory(uint32_t k);
void PrintMemoryTable(std::ostream& out, const std::vector<MemoryRow>& rows);

} // namespace incsim::bench

#endif
