// incsim itself: a scenario document through ParseScenario, then the steps of RunScenario
// (topology, World, protocol install, Simulator::Run, metrics) done here, so that the timer
// covers Simulator::Run alone, as for the references. No trace is enabled, so nothing is
// written to disk.

#include "bench/variants.h"

#include "protocols/udp/udp-protocol.h"
#include "sim/runner/build-topology.h"
#include "sim/runner/protocol.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace-outputs.h"
#include "topologies/register.h"

#include <ns3/simulator.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace incsim::bench
{
namespace
{

nlohmann::json
IncsimScenario(const TrafficSpec& spec, int64_t simTimeNs)
{
    return {
        {"name", "bench"},
        {"seed", spec.seed},
        {"duration", std::to_string(simTimeNs) + "ns"},
        {"topology", {{"generator", "fat-tree"}, {"params", {{"k", spec.k}}}}},
        {"links",
         {{"rate", std::to_string(spec.rateBps) + "bps"},
          {"delay", std::to_string(spec.delayNs) + "ns"},
          {"buffer", "512KiB"}}},
        // The references have no switch latency. incsim folds it into link latency, so it
        // costs no event either way, but zero keeps the three timelines identical.
        {"switch", {{"pipeline_delay", "0ns"}}},
        {"protocol", {{"name", "udp"}}},
        {"workload",
         {{"pattern", "all-to-all"},
          {"message_size", std::to_string(spec.messageBytes) + "B"},
          {"load", spec.load},
          {"arrivals", "constant"}}},
        {"outputs", {{"traces", nlohmann::json::array()}, {"progress", "never"}}}};
}

} // namespace

VariantResult
RunIncsim(const TrafficSpec& spec, int64_t simTimeNs)
{
    RegisterTopologyGenerators();
    RegisterUdpProtocol();
    Scenario scenario = ParseScenario(IncsimScenario(spec, simTimeNs), "bench", ".", {});
    TraceOutputs traces("/nonexistent-incsim-bench", {}); // nothing enabled: never opened

    VariantResult result;
    result.name = "incsim";
    {
        World world(scenario, BuildTopology(scenario), traces);
        ParamView protocolSection = scenario.Section("protocol");
        std::unique_ptr<Protocol> protocol = Protocols().Get("udp").create();
        protocol->Install(world, protocolSection.Get("params"), scenario.Section("workload"));

        TimedSimulatorRun(simTimeNs, result);

        nlohmann::json network = world.NetworkMetrics();
        nlohmann::json udp;
        protocol->CollectMetrics(udp);
        result.hops = network["frames_delivered"].get<uint64_t>();
        result.framesSent = udp["fragments_sent"].get<uint64_t>();
        result.framesReceived = udp["fragments_received"].get<uint64_t>();
        for (const auto& [reason, count] : network["drops"].items())
        {
            result.drops += count.get<uint64_t>();
        }
    }
    ns3::Simulator::Destroy();
    return result;
}

} // namespace incsim::bench
