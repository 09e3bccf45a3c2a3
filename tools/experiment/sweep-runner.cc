#include "tools/experiment/sweep-runner.h"

#include "tools/experiment/local-backend.h"
#include "tools/experiment/results-db.h"
#include "tools/experiment/run-job.h"
#include "tools/experiment/slurm-backend.h"

#include "sim/core/diagnostics.h"
#include "sim/runner/validation.h"
#include "sim/runner/version.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <map>
#include <thread>

namespace incsim::experiment
{

namespace
{

/// The runs of the sweep with their scenario hashes, ids and directories.
std::vector<RunJob>
PlanJobs(const SweepSpec& sweep, const SweepOptions& options, const std::string& codeVersion)
{
    const nlohmann::json base = ReadJsonFile(sweep.scenarioPath);
    const std::string baseDir = std::filesystem::path(sweep.scenarioPath).parent_path().string();
    const std::string versionTag = TextHash(codeVersion).substr(0, 8);
    std::vector<RunJob> jobs;
    std::map<std::string, size_t> first;  // run id -> index of the run that has it
    for (PlannedRun& planned : ExpandSweep(sweep))
    {
        RunJob job;
        try
        {
            const Scenario scenario =
                ParseScenario(base, sweep.scenarioPath, baseDir.empty() ? "." : baseDir,
                              planned.overrides);
            job.scenarioHash = scenario.Identity();
            if (options.dryRun)
            {
                ValidateByAssembly(scenario);
            }
        }
        catch (const InputError& error)
        {
            throw InputError(sweep.file, "",
                             fmt::format("the run with {} is not a valid scenario: {}",
                                         PointText(planned), error.what()));
        }
        catch (const ConfigError& error)
        {
            throw ConfigError(fmt::format("{}: the run with {} cannot be simulated: {}",
                                          sweep.file, PointText(planned), error.what()));
        }
        job.runId = job.scenarioHash + "-" + versionTag;
        // Absolute paths: Slurm tasks may start elsewhere.
        job.runDir = std::filesystem::absolute(options.outDir + "/" + sweep.name + "/" + job.runId)
                         .lexically_normal()
                         .string();
        job.args = {"run",
                    std::filesystem::absolute(sweep.scenarioPath).lexically_normal().string(),
                    "--out", job.runDir, "--progress", "never"};
        for (const std::string& override : planned.overrides)
        {
            job.args.push_back("--set");
            job.args.push_back(override);
        }
        if (const auto seen = first.find(job.runId); seen != first.end())
        {
            throw InputError(sweep.file, "/vary",
                             fmt::format("the runs with {} and with {} are the same scenario",
                                         PointText(jobs[seen->second].planned),
                                         PointText(planned)));
        }
        first.emplace(job.runId, jobs.size());
        job.planned = std::move(planned);
        jobs.push_back(std::move(job));
    }
    return jobs;
}

/// OUT/<sweep>/sweep.log: one JSON object per line, flushed at once; not inherited by the
/// workers (close-on-exec).
class EventLog
{
  public:
    explicit EventLog(const std::string& path)
        : m_path(path),
          m_file(std::fopen(path.c_str(), "ae"))
    {
        if (!m_file)
        {
            throw OutputError::FromErrno(path, errno);
        }
    }
    ~EventLog() { std::fclose(m_file); }
    EventLog(const EventLog&) = delete;
    EventLog& operator=(const EventLog&) = delete;

    void Write(const std::string& event, const RunJob& job, const std::string& status = "")
    {
        nlohmann::json line = {{"event", event}, {"run", job.runId}};
        if (!status.empty())
        {
            line["status"] = status;
        }
        errno = 0;
        if (std::fputs((line.dump() + "\n").c_str(), m_file) < 0 || std::fflush(m_file) != 0)
        {
            throw OutputError::FromErrno(m_path, errno);
        }
    }

  private:
    std::string m_path;
    std::FILE* m_file;
};

std::string
FormatSeconds(double seconds)
{
    const auto s = static_cast<long>(seconds + 0.5);
    return s >= 3600 ? fmt::format("{}h{:02}m", s / 3600, s / 60 % 60)
                     : fmt::format("{}m{:02}s", s / 60, s % 60);
}

} // namespace

std::string
CodeVersion()
{
    return IncsimVersion();
}

SweepReport
RunSweep(const SweepSpec& sweep, const SweepOptions& options)
{
    const std::string codeVersion = CodeVersion();
    RequireFreshP4Build(CompiledSwitchPrograms(), options.sourceDir);
    std::vector<RunJob> jobs = PlanJobs(sweep, options, codeVersion);
    if (options.dryRun)
    {
        SweepReport report;
        report.total = jobs.size();
        return report;
    }
    ResultsDb db(options.database);
    db.RecordSweep(sweep.name, sweep.file, sweep.parameters, sweep.metrics);
    std::filesystem::create_directories(options.outDir + "/" + sweep.name);
    EventLog log(options.outDir + "/" + sweep.name + "/sweep.log");

    SweepReport report;
    report.total = jobs.size();
    std::vector<RunJob> pending;
    for (RunJob& job : jobs)
    {
        if (db.HasFinished(job.scenarioHash, codeVersion))
        {
            db.AddToSweep(sweep.name, job.runId, job.planned.point);
            ++report.skipped;
        }
        else if (RunDirectoryFinished(job, codeVersion))
        {
            log.Write("recovered", job, "ok");
            db.RecordRun(CollectRun(sweep, codeVersion, job, RunEnd::Exited));
            ++report.recovered;
        }
        else
        {
            pending.push_back(std::move(job));
        }
    }

    const auto started = std::chrono::steady_clock::now();
    size_t finished = 0;
    const auto showProgress = [&](bool final) {
        if (!options.progress)
        {
            return;
        }
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const size_t done = report.skipped + report.recovered + finished;
        std::string eta = "?";
        if (finished > 0)
        {
            eta = FormatSeconds(elapsed / finished * (pending.size() - finished));
        }
        fmt::print(stderr, "\r[{}] {}/{} done, {} failed, {} elapsed, ETA {}   {}", sweep.name,
                   done, report.total, report.failed, FormatSeconds(elapsed), eta,
                   final ? "\n" : "");
        std::fflush(stderr);
    };

    const auto onDone = [&](const RunJob& job, RunEnd end) {
        if (end == RunEnd::Interrupted)
        {
            log.Write("interrupted", job);
            return;
        }
        const RunRecord record = CollectRun(sweep, codeVersion, job, end);
        // Logged before it is recorded: a run killed in between is recovered from its
        // directory, never run again.
        log.Write("end", job, record.status);
        db.RecordRun(record);
        ++finished;
        (record.status == "ok" ? report.ok : report.failed) += 1;
        showProgress(false);
    };

    const auto onStart = [&](const RunJob& job) { log.Write("start", job); };
    showProgress(false);
    if (options.backend == "local")
    {
        const unsigned jobsAtOnce =
            options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
        LocalBackend backend(options.incsimBinary, jobsAtOnce, sweep.timeoutNs);
        report.interrupted = !backend.Run(pending, onStart, onDone);
    }
    else if (options.backend == "slurm")
    {
        // Each submission gets its own directory of task scripts and Slurm output files.
        const std::string slurmDir = options.outDir + "/" + sweep.name + "/slurm";
        size_t batch = 0;
        while (std::filesystem::exists(fmt::format("{}/batch-{}", slurmDir, batch)))
        {
            ++batch;
        }
        SlurmBackend backend(options.incsimBinary, fmt::format("{}/batch-{}", slurmDir, batch),
                             sweep.timeoutNs);
        report.interrupted = !backend.Run(pending, onStart, onDone);
    }
    else
    {
        throw std::invalid_argument("unknown backend '" + options.backend + "'");
    }
    showProgress(true);
    for (const std::string& metric : sweep.metrics)
    {
        if (db.CountMetric(sweep.name, metric) == 0 &&
            report.ok + report.skipped + report.recovered > 0)
        {
            report.missingMetrics.push_back(metric);
        }
    }
    return report;
}

} // namespace incsim::experiment
