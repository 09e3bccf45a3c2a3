// incsim itself, driven the way the CLI drives it: a scenario document through ParseScenario
// and RunScenario, into a temporary run directory.

#include "bench/variants.h"

#include "protocols/udp/udp-protocol.h"
#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"
#include "topologies/register.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace incsim::bench
{
namespace
{

std::string
MakeTempDir()
{
    std::string pattern = (std::filesystem::temp_directory_path() / "incsim-bench-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
    {
        throw std::runtime_error("cannot create a temporary directory");
    }
    return pattern;
}

} // namespace

VariantResult
RunIncsim(const TrafficSpec& spec, int64_t simTimeNs)
{
    RegisterTopologyGenerators();
    RegisterUdpProtocol();
    nlohmann::json doc = {
        {"name", "bench"},
        {"seed", spec.seed},
        {"duration", std::to_string(simTimeNs) + "ns"},
        {"topology", {{"generator", "fat-tree"}, {"params", {{"k", spec.k}}}}},
        {"links",
         {{"rate", std::to_string(spec.rateBps) + "bps"},
          {"delay", std::to_string(spec.delayNs) + "ns"},
          {"buffer", "512KiB"}}},
        // The references have no switch latency; folded into link latency, it costs no event
        // either way, but zero keeps the three timelines identical.
        {"switch", {{"pipeline_delay", "0ns"}}},
        {"protocol", {{"name", "udp"}}},
        {"workload",
         {{"pattern", "all-to-all"},
          {"message_size", std::to_string(spec.messageBytes) + "B"},
          {"load", spec.load},
          {"arrivals", "constant"}}},
        {"outputs", {{"traces", nlohmann::json::array()}, {"progress", "never"}}}};
    Scenario scenario = ParseScenario(doc, "bench", ".", {});

    RunOptions options;
    options.outDir = MakeTempDir();
    options.progress = ProgressMode::Never;
    RunSummary summary = RunScenario(scenario, options); // destroys the simulator
    std::filesystem::remove_all(options.outDir);

    const nlohmann::json& network = summary.metrics["network"];
    const nlohmann::json& udp = summary.metrics["udp"];
    VariantResult result;
    result.name = "incsim";
    result.simulatedNs = summary.simulatedNs;
    result.hops = network["frames_delivered"].get<uint64_t>();
    result.framesSent = udp["fragments_sent"].get<uint64_t>();
    result.framesReceived = udp["fragments_received"].get<uint64_t>();
    for (const auto& [reason, count] : network["drops"].items())
    {
        result.drops += count.get<uint64_t>();
    }
    result.events = summary.events;
    result.wallSeconds = summary.wallSeconds;
    return result;
}

} // namespace incsim::bench
