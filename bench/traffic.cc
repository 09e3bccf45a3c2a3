#include "bench/traffic.h"

#include "sim/schema/schema.h"
#include "sim/topology/topology-registry.h"
#include "topologies/register.h"

#include <ns3/nstime.h>
#include <ns3/simulator.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>

namespace incsim::bench
{

int64_t
TrafficSpec::IntervalPs() const
{
    double seconds = WireBytes() * 8.0 / (static_cast<double>(rateBps) * load);
    return static_cast<int64_t>(seconds * 1e12);
}

Topology
BuildBenchTopology(const TrafficSpec& spec, int hostsPerEdge)
{
    RegisterTopologyGenerators();
    nlohmann::json params = {{"k", spec.k}};
    if (hostsPerEdge > 0)
    {
        params["hosts_per_edge"] = hostsPerEdge;
    }
    const TopologyGenerator& generator = TopologyGenerators().Get("fat-tree");
    nlohmann::json resolved = generator.params().Resolve(params, "bench", "/topology/params");
    LinkParams link;
    link.rateBps = spec.rateBps;
    link.delayNs = spec.delayNs;
    link.bufferBytes = 512 * 1024;
    return generator.build(ParamView(&resolved, "bench", "/topology/params"), link);
}

namespace
{

double
ProcessCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

} // namespace

void
TimedSimulatorRun(int64_t simTimeNs, VariantResult& result)
{
    ns3::Simulator::Stop(ns3::NanoSeconds(simTimeNs));
    double cpu0 = ProcessCpuSeconds();
    auto wall0 = std::chrono::steady_clock::now();
    ns3::Simulator::Run();
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    result.cpuSeconds = ProcessCpuSeconds() - cpu0;
    result.events = ns3::Simulator::GetEventCount();
    result.simulatedNs = ns3::Simulator::Now().GetTimeStep() / 1000;
}

} // namespace incsim::bench
