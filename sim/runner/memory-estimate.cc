#include "sim/runner/memory-estimate.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace incsim
{

namespace
{

// Per-unit heap costs of a built World, fitted to bench/memory-bench.cc on fat-trees of k = 8,
// 16 and 24 (README, "Memory of a built world"): a host's node, NIC port, CPU, clock, endpoint
// and its share of the switches' route entries; a switch's device and P4 program instance
// (tables, registers, scratch); each switch port's egress queues and link end. With the route
// table they come within -1% to +11% of the measured heap; the process base makes the
// estimate err on the large side (k=32: 472 MB estimated, 428 MB peak RSS measured).
constexpr uint64_t kBytesPerHost = 4608;
constexpr uint64_t kBytesPerSwitch = 12 * 1024;
constexpr uint64_t kBytesPerSwitchPort = 1024;
constexpr uint64_t kRouteSlotBytes = 4;
// The process before any world: ns-3, the registries, the frame pool.
constexpr uint64_t kBaseBytes = 64ull << 20;

/// The first number on the line of /proc/meminfo that starts with `key`, in bytes.
std::optional<uint64_t>
MemInfoBytes(const std::string& key)
{
    std::ifstream in("/proc/meminfo");
    std::string name;
    uint64_t kib = 0;
    std::string unit;
    while (in >> name >> kib >> unit)
    {
        if (name == key)
        {
            return kib * 1024;
        }
    }
    return std::nullopt;
}

std::optional<uint64_t>
ReadNumber(const std::string& path)
{
    std::ifstream in(path);
    uint64_t value = 0;
    if (in >> value)
    {
        return value;
    }
    return std::nullopt; // missing, or "max"
}

} // namespace

MemoryEstimate
EstimateWorldMemory(const TopologySize& size, bool reroutes)
{
    const uint64_t nodes = size.hosts + size.switches;
    // Every host has one NIC port per link; the other link ends are switch ports.
    const uint64_t switchPorts = 2 * size.links > size.hosts ? 2 * size.links - size.hosts : 0;
    MemoryEstimate estimate;
    estimate.routeBytes = kRouteSlotBytes * nodes * size.hosts * (reroutes ? 2 : 1);
    estimate.totalBytes = kBaseBytes + estimate.routeBytes + kBytesPerHost * size.hosts +
                          kBytesPerSwitch * size.switches + kBytesPerSwitchPort * switchPorts;
    return estimate;
}

std::optional<AvailableMemory>
AvailableMemoryBytes()
{
    std::optional<AvailableMemory> available;
    auto lower = [&available](uint64_t bytes, const char* limitedBy) {
        if (!available || bytes < available->bytes)
        {
            available = AvailableMemory{bytes, limitedBy};
        }
    };
    if (const auto memAvailable = MemInfoBytes("MemAvailable:"))
    {
        lower(*memAvailable, "available on this machine");
    }
    const std::optional<uint64_t> limit = ReadNumber("/sys/fs/cgroup/memory.max");
    const std::optional<uint64_t> used = ReadNumber("/sys/fs/cgroup/memory.current");
    if (limit && used)
    {
        lower(*limit > *used ? *limit - *used : 0, "left under the cgroup's memory.max");
    }
    rlimit addressSpace{};
    const std::optional<uint64_t> mappedPages = ReadNumber("/proc/self/statm");
    if (getrlimit(RLIMIT_AS, &addressSpace) == 0 && addressSpace.rlim_cur != RLIM_INFINITY &&
        mappedPages)
    {
        const uint64_t mapped = *mappedPages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
        lower(addressSpace.rlim_cur > mapped ? addressSpace.rlim_cur - mapped : 0,
              "left under the address-space limit (ulimit -v)");
    }
    return available;
}

std::string
FormatMemory(uint64_t bytes)
{
    if (bytes >= 1'000'000'000)
    {
        return fmt::format("{:.1f} GB", bytes / 1e9);
    }
    return fmt::format("{:.1f} MB", bytes / 1e6);
}

} // namespace incsim
