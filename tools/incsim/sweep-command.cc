#include "commands.h"
#include "exit-codes.h"

#include "tools/experiment/process.h"
#include "tools/experiment/slurm-backend.h"
#include "tools/experiment/sweep-runner.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>

namespace incsim::cli
{

bool
ShowProgress(const std::string& mode)
{
    return mode == "always" ||
           (mode == "auto" && isatty(STDERR_FILENO) && std::getenv("CI") == nullptr);
}

void
AddSweepRunOptions(CLI::App& command, experiment::SweepOptions& options)
{
    command.add_option("--db", options.database, "Results database (SQLite)");
    command.add_option("--jobs,-j", options.jobs, "Runs at once (default: one per core)")
        ->check(CLI::Range(1u, 4096u));
    command.add_option("--backend", options.backend, "local or slurm")
        ->check(CLI::IsMember({"local", "slurm"}));
}

void
ThrowIfIncomplete(const experiment::SweepReport& report)
{
    if (report.interrupted)
    {
        throw ExitStatus{kExitInterrupted};
    }
    if (report.failed > 0)
    {
        throw ExitStatus{kExitRunsFailed};
    }
}

void
AddSweepCommand(CLI::App& app)
{
    struct SweepArgs
    {
        std::string file;
        experiment::SweepOptions options;
        std::string progress = "auto";
    };
    auto args = std::make_shared<SweepArgs>();
    CLI::App* sweep = app.add_subcommand(
        "sweep", "Run a parameter sweep into the results database (resumable)");
    sweep->add_option("sweep", args->file, "Sweep JSON file")->required();
    AddSweepRunOptions(*sweep, args->options);
    sweep->add_option("--out", args->options.outDir, "Where run directories go");
    sweep->add_flag("--dry-run", args->options.dryRun,
                    "Expand the sweep and check every run's scenario; run nothing");
    sweep->add_option("--progress", args->progress, "auto, always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    sweep->callback([args] {
        const experiment::SweepSpec spec = experiment::LoadSweep(args->file);
        experiment::SweepOptions options = args->options;
        options.incsimBinary = experiment::SelfExecutable();
        options.sourceDir = INCSIM_SOURCE_DIR;
        options.progress = ShowProgress(args->progress);
        const experiment::SweepReport report = experiment::RunSweep(spec, options);
        if (options.dryRun)
        {
            fmt::print("{}: {} runs, every scenario valid\n", spec.file, report.total);
            return;
        }
        fmt::print("{}: {} runs: {} already in {}, {} recovered from disk, {} ran ok, {} failed{}\n",
                   spec.name, report.total, report.skipped, options.database, report.recovered,
                   report.ok, report.failed, report.interrupted ? " (interrupted)" : "");
        for (const std::string& metric : report.missingMetrics)
        {
            fmt::print(stderr, "warning: {}: /metrics: no run reported \"{}\" (see `incsim "
                               "results {} --metric NAME` and the runs' metrics.json)\n",
                       spec.file, metric, options.database);
        }
        ThrowIfIncomplete(report);
    });

    // What each Slurm array task runs (see tools/experiment/slurm-backend.h); not for people.
    struct TaskArgs
    {
        std::string tasks;
        size_t index = 0;
    };
    auto task = std::make_shared<TaskArgs>();
    CLI::App* sweepTask = app.add_subcommand("sweep-task", "");
    sweepTask->group("");  // hidden
    sweepTask->add_option("tasks", task->tasks)->required();
    sweepTask->add_option("index", task->index)->required();
    sweepTask->callback([task] {
        const int status = experiment::RunSweepTask(experiment::SelfExecutable(), task->tasks, task->index);
        if (status != 0)
        {
            throw ExitStatus{status};
        }
    });
}

} // namespace incsim::cli
