#include "sim/runner/network-metrics.h"

#include "sim/host/host-node.h"
#include "sim/net/drop-reason.h"
#include "sim/net/egress-port.h"
#include "sim/net/link.h"
#include "sim/runner/world.h"
#include "sim/switch/switch-device.h"
#include "sim/trace/trace-outputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <numeric>

namespace incsim
{

nlohmann::json
NetworkMetrics(const World& world)
{
    const Topology& topology = world.GetTopology();
    uint64_t delivered = 0;
    uint64_t txBytes = 0;
    std::array<uint64_t, static_cast<size_t>(DropReason::Count)> drops{};
    double maxUtil = 0;
    double sumUtil = 0;
    double seconds = world.DurationPs() / 1e12;
    for (uint32_t id = 0; id < topology.NumLinks(); ++id)
    {
        for (int side = 0; side < 2; ++side)
        {
            const Link::Counters& c = world.GetLink(id).GetCounters(side);
            delivered += c.deliveredFrames;
            txBytes += c.txBytes;
            drops[static_cast<size_t>(DropReason::LinkLoss)] += c.lossDrops;
            drops[static_cast<size_t>(DropReason::LinkDown)] += c.downDrops;
            double util = c.txBytes * 8.0 / (topology.Link(id).params.rateBps * seconds);
            maxUtil = std::max(maxUtil, util);
            sumUtil += util;
        }
    }
    for (uint32_t node = 0; node < topology.NumNodes(); ++node)
    {
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            const EgressPort::Counters& counters = world.PortOf(node, port).GetCounters();
            drops[static_cast<size_t>(DropReason::BufferFull)] += counters.bufferDrops;
            for (size_t r = 0; r < drops.size(); ++r)
            {
                drops[r] += counters.flushDrops[r];
            }
        }
    }
    auto addNodeDrops = [&drops](const NetworkNode& node) {
        for (size_t r = 0; r < drops.size(); ++r)
        {
            drops[r] += node.Drops()[r];
        }
    };
    for (const auto& device : world.Switches())
    {
        addNodeDrops(*device);
    }
    for (uint32_t h = 0; h < world.NumHosts(); ++h)
    {
        addNodeDrops(world.Host(h));
    }
    nlohmann::json dropJson = nlohmann::json::object();
    for (size_t r = 0; r < drops.size(); ++r)
    {
        dropJson[ToString(static_cast<DropReason>(r))] = drops[r];
    }
    size_t directions = size_t{topology.NumLinks()} * 2;
    return {{"frames_delivered", delivered},
            {"wire_bytes", txBytes},
            {"drops", dropJson},
            {"link_utilization_max", maxUtil},
            {"link_utilization_mean", directions ? sumUtil / directions : 0.0}};
}

void
WriteLinkTrace(const World& world)
{
    CsvWriter* csv = world.Traces().Open(CoreTrace("links"));
    if (csv == nullptr)
    {
        return;
    }
    const Topology& topology = world.GetTopology();
    double seconds = world.DurationPs() / 1e12;
    for (uint32_t id = 0; id < topology.NumLinks(); ++id)
    {
        const LinkInfo& info = topology.Link(id);
        const uint32_t nodes[2] = {info.a, info.b};
        const uint32_t ports[2] = {info.portA, info.portB};
        for (int side = 0; side < 2; ++side)
        {
            const Link::Counters& c = world.GetLink(id).GetCounters(side);
            const EgressPort::Counters& q = world.PortOf(nodes[side], ports[side]).GetCounters();
            csv->Row(id,
                     topology.Node(nodes[side]).name,
                     ports[side],
                     topology.Node(nodes[1 - side]).name,
                     ports[1 - side],
                     info.params.rateBps,
                     info.params.delayNs,
                     c.txFrames,
                     c.txBytes,
                     c.deliveredFrames,
                     c.lossDrops,
                     c.downDrops,
                     q.bufferDrops,
                     std::accumulate(q.flushDrops.begin(), q.flushDrops.end(), uint64_t{0}),
                     q.maxQueuedBytes,
                     fmt::format("{:.6f}", c.txBytes * 8.0 / (info.params.rateBps * seconds)));
        }
    }
}

} // namespace incsim
