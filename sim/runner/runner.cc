#include "sim/runner/runner.h"

#include "sim/core/sim-time.h"
#include "sim/runner/simulation.h"
#include "sim/runner/version.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace-outputs.h"

#include <ns3/simulator.h>

#include <filesystem>
#include <fstream>
#include <sys/resource.h>

namespace incsim
{

namespace
{

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
    std::filesystem::create_directories(options.outDir);
    WriteJson(options.outDir + "/scenario.resolved.json", scenario.Resolved());

    RunSummary summary;
    summary.runDir = options.outDir;
    std::vector<std::string> files;
    {
        Simulation simulation(scenario, options.outDir);
        ProgressMode progress = options.progress.value_or(
            ParseProgressMode(scenario.Section("outputs").String("progress")));
        summary.wallSeconds = simulation.Run(progress);
        summary.events = ns3::Simulator::GetEventCount();
        summary.simulatedNs = ns3::Simulator::Now().GetTimeStep() / kPsPerNs;
        summary.metrics = simulation.Metrics();
        simulation.CloseTraces();
        files = simulation.Traces().Files();
    }
    summary.peakRssKb = PeakRssKb();

    WriteJson(options.outDir + "/metrics.json", summary.metrics);
    nlohmann::json run = {{"scenario", scenario.File()},
                          {"seed", scenario.Seed()},
                          {"version", IncsimVersion()},
                          {"git_sha", IncsimGitSha()},
                          {"wall_seconds", summary.wallSeconds},
                          {"events", summary.events},
                          {"simulated_ns", summary.simulatedNs},
                          {"peak_rss_kb", summary.peakRssKb},
                          {"traces", files}};
    WriteJson(options.outDir + "/run.json", run);
    return summary;
}

} // namespace incsim
