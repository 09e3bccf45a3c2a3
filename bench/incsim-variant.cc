// incsim itself: a scenario document through ParseScenario and a Simulation, as RunScenario
// builds it, timed around Simulator::Run alone, as the references are.

#include "bench/variants.h"

#include "protocols/udp/udp-protocol.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario.h"
#include "topologies/register.h"

#include <ns3/global-value.h>
#include <ns3/string.h>

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace incsim::bench
{
namespace
{

/// incsim's name for the scheduler that ns-3's "SchedulerType" global names, so that incsim
/// runs on the same scheduler as the references.
std::string
SchedulerName()
{
    static const std::map<std::string, std::string> kNames = {
        {"ns3::CalendarScheduler", "calendar"},
        {"ns3::HeapScheduler", "heap"},
        {"ns3::MapScheduler", "map"},
        {"ns3::PriorityQueueScheduler", "priority-queue"}};
    ns3::StringValue type;
    ns3::GlobalValue::GetValueByName("SchedulerType", type);
    return kNames.at(type.Get());
}

} // namespace

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
        {"outputs", {{"traces", nlohmann::json::array()}, {"progress", "never"}}},
        {"simulator", {{"scheduler", SchedulerName()}}}};
}

VariantResult
RunIncsim(const TrafficSpec& spec, int64_t simTimeNs)
{
    RegisterTopologyGenerators();
    RegisterUdpProtocol();
    Scenario scenario = ParseScenario(IncsimScenario(spec, simTimeNs), "bench", ".", {});

    VariantResult result;
    result.name = "incsim";
    {
        // No trace is enabled, so the run directory is never written.
        Simulation simulation(scenario, "/nonexistent-incsim-bench");
        TimedSimulatorRun(simTimeNs, result);

        nlohmann::json metrics = simulation.Metrics();
        const nlohmann::json& network = metrics["network"];
        const nlohmann::json& udp = metrics["udp"];
        result.hops = network["frames_delivered"].get<uint64_t>();
        result.framesSent = udp["fragments_sent"].get<uint64_t>();
        result.framesReceived = udp["fragments_received"].get<uint64_t>();
        for (const auto& [reason, count] : network["drops"].items())
        {
            result.drops += count.get<uint64_t>();
        }
    }
    return result;
}

} // namespace incsim::bench
