#include "sim/runner/runner.h"

#include "sim/core/diagnostics.h"
#include "sim/core/output-file.h"
#include "sim/core/sim-time.h"
#include "sim/runner/run-directory.h"
#include "sim/runner/simulation.h"
#include "sim/runner/version.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace-outputs.h"

#include "p4/runtime/v1model.h"

#include <ns3/simulator.h>

#include <fmt/format.h>

#include <sys/resource.h>

namespace incsim
{

namespace
{

void
WriteJson(const std::string& path, const nlohmann::json& value)
{
    WriteTextFile(path, value.dump(2) + "\n");
}

long
PeakRssKb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/// The P4 programs the run's switches execute, as run.json records them; refuses the run when
/// a program's source under `sourceDir` changed after the build.
nlohmann::json
CheckedPrograms(const World& world, const std::string& sourceDir)
{
    const std::vector<const p4rt::ProgramInfo*> inUse = world.ProgramsInUse();
    RequireFreshP4Build(inUse, sourceDir);
    nlohmann::json programs = nlohmann::json::array();
    for (const p4rt::ProgramInfo* info : inUse)
    {
        programs.push_back({{"name", info->name},
                            {"source", info->source},
                            {"code_hash", fmt::format("{:016x}", info->codeHash)}});
    }
    return programs;
}

} // namespace

RunSummary
RunScenario(const Scenario& scenario, const RunOptions& options)
{
    const std::string identity = scenario.Identity();
    PrepareRunDirectory(options.outDir);
    WriteJson(options.outDir + "/scenario.resolved.json", scenario.Resolved());

    RunSummary summary;
    summary.runDir = options.outDir;
    std::vector<std::string> files;
    nlohmann::json programs;
    {
        Simulation simulation(scenario, options.outDir);
        programs = CheckedPrograms(simulation.GetWorld(), options.sourceDir);
        ProgressMode progress = options.progress.value_or(
            scenario.Section("outputs").Choice("progress", ProgressModeChoices()));
        summary.wallSeconds = simulation.Run(progress);
        summary.events = simulation.EventCount();
        summary.simulatedNs = ns3::Simulator::Now().GetTimeStep() / kPsPerNs;
        summary.metrics = simulation.Metrics();
        simulation.CloseTraces();
        files = simulation.Traces().Files();
    }
    summary.peakRssKb = PeakRssKb();

    WriteJson(options.outDir + "/metrics.json", summary.metrics);
    nlohmann::json run = {{"scenario", scenario.File()},
                          {"identity", identity},
                          {"seed", scenario.Seed()},
                          {"version", IncsimVersion()},
                          {"git_sha", IncsimGitSha()},
                          {"p4_programs", programs},
                          {"wall_seconds", summary.wallSeconds},
                          {"events", summary.events},
                          {"simulated_ns", summary.simulatedNs},
                          {"peak_rss_kb", summary.peakRssKb},
                          {"traces", files}};
    WriteJson(options.outDir + "/run.json", run);
    return summary;
}

} // namespace incsim
