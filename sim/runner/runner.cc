#include "sim/runner/runner.h"

#include "sim/runner/build-topology.h"
#include "sim/runner/faults.h"
#include "sim/runner/protocol.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/network-tracer.h"
#include "sim/trace/trace-outputs.h"

#include <ns3/object-factory.h>
#include <ns3/simulator.h>
#include <ns3/object-factory.h>

#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <fstream>
#include <set>
#include <sys/resource.h>

namespace incsim
{

std::string
IncsimVersion()
{
    return std::string(INCSIM_VERSION) + "+" + INCSIM_GIT_SHA;
}

namespace
{

void
UseScheduler(const std::string& name)
{
    static const std::map<std::string, std::string> kTypes = {
        {"calendar", "ns3::CalendarScheduler"},
        {"heap", "ns3::HeapScheduler"},
        {"map", "ns3::MapScheduler"},
        {"priority-queue", "ns3::PriorityQueueScheduler"}};
    ns3::ObjectFactory factory;
    factory.SetTypeId(kTypes.at(name));
    ns3::Simulator::SetScheduler(factory);
}

void
WriteJson(const std::string& path, const nlohmann::json& value)
{
    std::ofstream out(path);
    out << value.dump(2) << "\n";
    if (!out)
    {
        throw std::runtime_error("cannot write " + path);
    }
}

long
PeakRssKb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

} // namespace

RunSummary
RunScenario(const Scenario& scenario, const RunOptions& options)
{
    namespace fs = std::filesystem;
    fs::create_directories(options.outDir);
    WriteJson(options.outDir + "/scenario.resolved.json", scenario.Resolved());

    Topology topology = BuildTopology(scenario);
    std::vector<FaultEvent> faults = ResolveFaults(scenario, topology);

    ParamView outputs = scenario.Section("outputs");
    std::set<std::string> enabled;
    for (size_t i = 0; i < outputs.Get("traces").Size(); ++i)
    {
        enabled.insert(outputs.Get("traces").At(i).AsString());
    }
    TraceOutputs traces(options.outDir, enabled);

    ParamView protocolSection = scenario.Section("protocol");
    const std::string& protocolName = protocolSection.String("name");
    RunSummary summary;
    summary.runDir = options.outDir;
    UseScheduler(scenario.Section("simulator").String("scheduler"));
    {
        World world(scenario, std::move(topology), traces);
        std::unique_ptr<Protocol> protocol = Protocols().Get(protocolName).create();
        protocol->Install(world, protocolSection.Get("params"), scenario.Section("workload"));
        NetworkTracer tracer(world);
        ScheduleFaults(world, faults);

        spdlog::info("running {} ({} nodes, {} links) for {}ns",
                     scenario.File(),
                     world.GetTopology().NumNodes(),
                     world.GetTopology().NumLinks(),
                     scenario.DurationNs());
        auto start = std::chrono::steady_clock::now();
        {
            ProgressReporter progress(world.DurationPs(),
                                      options.progress.value_or(
                                          ParseProgressMode(outputs.String("progress"))));
            ns3::Simulator::Stop(ns3::NanoSeconds(scenario.DurationNs()));
            ns3::Simulator::Run();
        }
        summary.wallSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        summary.events = ns3::Simulator::GetEventCount();
        summary.simulatedNs = ns3::Simulator::Now().GetTimeStep() / 1000;

        nlohmann::json protocolMetrics = nlohmann::json::object();
        protocol->CollectMetrics(protocolMetrics);
        summary.metrics = {{"network", world.NetworkMetrics()}, {protocolName, protocolMetrics}};
        world.WriteLinkTrace();
    }
    std::vector<std::string> files = traces.Files();
    traces.Close();
    ns3::Simulator::Destroy();
    summary.peakRssKb = PeakRssKb();

    WriteJson(options.outDir + "/metrics.json", summary.metrics);
    nlohmann::json run = {{"scenario", scenario.File()},
                          {"seed", scenario.Seed()},
                          {"version", IncsimVersion()},
                          {"git_sha", INCSIM_GIT_SHA},
                          {"wall_seconds", summary.wallSeconds},
                          {"events", summary.events},
                          {"simulated_ns", summary.simulatedNs},
                          {"peak_rss_kb", summary.peakRssKb},
                          {"traces", files}};
    WriteJson(options.outDir + "/run.json", run);
    return summary;
}

} // namespace incsim
