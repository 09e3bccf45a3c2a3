#include "tools/experiment/slurm-backend.h"

#include "sim/core/diagnostics.h"

#include "sim/core/output-file.h"
#include "sim/runner/run-directory.h"

#include "tools/experiment/process.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace incsim::experiment
{

namespace
{

std::string
Trim(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    {
        text.pop_back();
    }
    return text;
}

std::optional<std::string>
EndOf(const RunJob& job)
{
    const auto end = TryReadJson(job.runDir + "/end.json");
    if (!end || !end->contains("end"))
    {
        return std::nullopt;
    }
    return (*end)["end"].get<std::string>();
}

/// `text` for bash, in single quotes.
std::string
ShellQuote(const std::string& text)
{
    std::string out = "'";
    for (char c : text)
    {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

/// Whether Slurm still has the job pending or running. Only a clean empty answer or Slurm
/// saying it does not know the id (it forgets jobs minutes after they end) counts as gone;
/// any other failure (slurmctld restarting) means "ask again".
std::optional<bool>
JobActive(const std::string& jobId)
{
    const auto [status, output] = CaptureProcess({"squeue", "-h", "-j", jobId, "-o", "%i"});
    if (status == 0)
    {
        return !Trim(output).empty();
    }
    if (output.find("Invalid job id") != std::string::npos)
    {
        return false;
    }
    return std::nullopt;
}

/// Arrays an earlier sweep submitted into `slurmDir` and left behind (the sweep was killed):
/// cancelled, and waited for, so that no old task writes into a run directory again.
void
CancelEarlierBatches(const std::string& slurmDir)
{
    namespace fs = std::filesystem;
    if (!fs::exists(slurmDir))
    {
        return;
    }
    for (const auto& entry : fs::directory_iterator(slurmDir))
    {
        std::ifstream in(entry.path() / "jobid");
        std::string jobId;
        if (!(in >> jobId) || JobActive(jobId) == std::optional<bool>(false))
        {
            continue;
        }
        CaptureProcess({"scancel", jobId});
        for (int i = 0; i < 120 && JobActive(jobId) != std::optional<bool>(false); ++i)
        {
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
        }
        if (JobActive(jobId) != std::optional<bool>(false))
        {
            throw ExternalError("Slurm job " + jobId + " of an earlier run of this sweep " +
                                     "is still running after scancel; cancel it and retry");
        }
    }
}

} // namespace

SlurmBackend::SlurmBackend(std::string incsimBinary, std::string batchDir,
                           std::optional<int64_t> timeoutNs)
    : m_binary(std::move(incsimBinary)),
      m_batchDir(std::move(batchDir)),
      m_timeoutNs(timeoutNs)
{
}

bool
SlurmBackend::Run(const std::vector<RunJob>& jobs, const LocalBackend::Started& started,
                  const LocalBackend::Done& done)
{
    if (jobs.empty())
    {
        return true;
    }
    namespace fs = std::filesystem;
    CancelEarlierBatches(fs::path(m_batchDir).parent_path().string());
    fs::create_directories(m_batchDir);
    const std::string batch = fs::absolute(m_batchDir).string();
    if (batch.find_first_of(" \t\n%") != std::string::npos)
    {
        throw ExternalError("Slurm output directory '" + batch +
                                 "' has a space or '%' in its path; choose another --out");
    }
    const size_t perTask = (jobs.size() + kMaxTasks - 1) / kMaxTasks;
    const size_t tasks = (jobs.size() + perTask - 1) / perTask;
    nlohmann::json taskList = nlohmann::json::array();
    std::vector<size_t> taskOf(jobs.size());
    for (size_t t = 0; t < tasks; ++t)
    {
        nlohmann::json runs = nlohmann::json::array();
        for (size_t i = t * perTask; i < std::min(jobs.size(), (t + 1) * perTask); ++i)
        {
            PrepareRunDirectory(jobs[i].runDir);
            runs.push_back({{"run_dir", fs::absolute(jobs[i].runDir).string()},
                            {"args", jobs[i].args}});
            taskOf[i] = t;
        }
        taskList.push_back({{"runs", runs}});
    }
    nlohmann::json tasksDoc = {{"timeout_ns", m_timeoutNs ? *m_timeoutNs : 0},
                               {"tasks", taskList}};
    WriteTextFile(batch + "/tasks.json", tasksDoc.dump(1));
    std::string timeLimit;
    if (m_timeoutNs)
    {
        // Each task's runs one after another, rounded up to Slurm's whole minutes, plus one.
        constexpr int64_t kMinuteNs = 60'000'000'000;
        const int64_t total = *m_timeoutNs * static_cast<int64_t>(perTask);
        timeLimit = fmt::format("#SBATCH --time={}\n", (total + kMinuteNs - 1) / kMinuteNs + 1);
    }
    WriteTextFile(
        batch + "/array.sh",
        "#!/bin/bash\n#SBATCH --job-name=incsim-sweep\n" +
            fmt::format("#SBATCH --array=0-{}\n", tasks - 1) +
            fmt::format("#SBATCH --output={}/task-%a.out\n", batch) +
            fmt::format("#SBATCH --error={}/task-%a.err\n", batch) + timeLimit +
            "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n" +
            fmt::format("exec {} sweep-task {} \"$SLURM_ARRAY_TASK_ID\"\n", ShellQuote(m_binary),
                        ShellQuote(batch + "/tasks.json")));
    std::pair<int, std::string> submitted;
    try
    {
        submitted = CaptureProcess({"sbatch", "--parsable", batch + "/array.sh"});
    }
    catch (const std::runtime_error&)
    {
        throw ExternalError("cannot run sbatch: is Slurm installed (./tools/setup-debian.sh) "
                                 "and SLURM_CONF set?");
    }
    const auto& [status, output] = submitted;
    if (status != 0)
    {
        throw ExternalError(fmt::format("sbatch failed (status {}): {}", status,
                                             Trim(output)));
    }
    const std::string jobId = Trim(output.substr(0, output.find(';')));
    WriteTextFile(batch + "/jobid", jobId + "\n");
    for (const RunJob& job : jobs)
    {
        started(job);
    }

    // Whatever ends this function early (a signal, an exception) cancels the array.
    StopRequests stop;
    struct CancelOnUnwind
    {
        const std::string& id;
        bool armed = true;
        ~CancelOnUnwind()
        {
            if (armed)
            {
                CaptureProcess({"scancel", id});
            }
        }
    } cancel{jobId};

    std::vector<bool> reported(jobs.size(), false);
    size_t remaining = jobs.size();
    std::optional<std::chrono::steady_clock::time_point> goneSince;
    bool interrupted = false;
    while (remaining > 0)
    {
        if (StopRequests::Requested())
        {
            for (size_t i = 0; i < jobs.size(); ++i)
            {
                if (!reported[i])
                {
                    done(jobs[i], RunEnd::Interrupted);
                }
            }
            interrupted = true;
            break;
        }
        // A run is over when its task wrote end.json for it.
        for (size_t i = 0; i < jobs.size(); ++i)
        {
            if (!reported[i])
            {
                if (const auto end = EndOf(jobs[i]))
                {
                    reported[i] = true;
                    --remaining;
                    done(jobs[i], *end == "timeout"  ? RunEnd::TimedOut
                                  : *end == "exited" ? RunEnd::Exited
                                                     : RunEnd::Failed);
                }
            }
        }
        if (remaining == 0)
        {
            break;
        }
        if (!goneSince && JobActive(jobId) == std::optional<bool>(false))
        {
            goneSince = std::chrono::steady_clock::now();
        }
        // The array has left the queue. Give a shared file system a few seconds to show the
        // last end.json files, then what did not end by itself was stopped.
        if (goneSince && std::chrono::steady_clock::now() - *goneSince > std::chrono::seconds(3))
        {
            for (size_t i = 0; i < jobs.size(); ++i)
            {
                if (!reported[i] && !EndOf(jobs[i]))
                {
                    const std::string err =
                        FileTail(fmt::format("{}/task-{}.err", batch, taskOf[i]), 5);
                    const bool timeLimit = err.find("TIME LIMIT") != std::string::npos;
                    std::ofstream(jobs[i].runDir + "/stderr.txt", std::ios::app)
                        << "slurm task " << taskOf[i] << ": " << err;
                    reported[i] = true;
                    --remaining;
                    done(jobs[i], timeLimit ? RunEnd::TimedOut : RunEnd::Failed);
                }
            }
            continue;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    cancel.armed = interrupted;
    return !interrupted;
}

int
RunSweepTask(const std::string& incsimBinary, const std::string& tasksFile, size_t index)
{
    std::ifstream in(tasksFile);
    const nlohmann::json document = nlohmann::json::parse(in);
    const auto& tasks = document.at("tasks");
    if (index >= tasks.size())
    {
        throw ExternalError(fmt::format("{}: no task {}", tasksFile, index));
    }
    std::vector<RunJob> jobs;
    for (const auto& run : tasks[index].at("runs"))
    {
        RunJob job;
        job.runDir = run.at("run_dir").get<std::string>();
        job.args = run.at("args").get<std::vector<std::string>>();
        jobs.push_back(job);
    }
    const int64_t timeout = document.value("timeout_ns", int64_t{0});
    LocalBackend backend(incsimBinary, 1,
                         timeout > 0 ? std::optional<int64_t>(timeout) : std::nullopt);
    const bool complete = backend.Run(
        jobs, [](const RunJob&) {},
        [](const RunJob& job, RunEnd end) {
            if (end != RunEnd::Interrupted)
            {
                const char* how = end == RunEnd::TimedOut ? "timeout"
                                  : end == RunEnd::Exited ? "exited"
                                                          : "failed";
                WriteTextFile(job.runDir + "/end.json", nlohmann::json{{"end", how}}.dump());
            }
        });
    return complete ? 0 : 130;
}

} // namespace incsim::experiment
