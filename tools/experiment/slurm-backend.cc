#include "tools/experiment/slurm-backend.h"

#include "tools/experiment/process.h"

#include <fmt/format.h>

#include <signal.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <thread>

namespace incsim::experiment
{

namespace
{

volatile std::sig_atomic_t g_cancel = 0;

void
OnCancelSignal(int)
{
    g_cancel = 1;
}

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
    std::ifstream in(job.runDir + "/end.json");
    if (!in)
    {
        return std::nullopt;
    }
    const nlohmann::json end = nlohmann::json::parse(in, nullptr, false);
    if (end.is_discarded() || !end.contains("end"))
    {
        return std::nullopt;
    }
    return end["end"].get<std::string>();
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
    fs::create_directories(m_batchDir);
    const std::string batch = fs::absolute(m_batchDir).string();
    const size_t perTask = (jobs.size() + kMaxTasks - 1) / kMaxTasks;
    const size_t tasks = (jobs.size() + perTask - 1) / perTask;
    nlohmann::json taskList = nlohmann::json::array();
    std::vector<size_t> taskOf(jobs.size());
    for (size_t t = 0; t < tasks; ++t)
    {
        nlohmann::json runs = nlohmann::json::array();
        for (size_t i = t * perTask; i < std::min(jobs.size(), (t + 1) * perTask); ++i)
        {
            fs::create_directories(jobs[i].runDir);
            fs::remove(jobs[i].runDir + "/end.json");
            runs.push_back({{"run_dir", fs::absolute(jobs[i].runDir).string()},
                            {"args", jobs[i].args}});
            taskOf[i] = t;
        }
        taskList.push_back({{"runs", runs}});
    }
    nlohmann::json tasksDoc = {{"timeout_ns", m_timeoutNs ? *m_timeoutNs : 0},
                               {"tasks", taskList}};
    std::ofstream(batch + "/tasks.json") << tasksDoc.dump(1);
    std::string timeLimit;
    if (m_timeoutNs)
    {
        // Each task's runs one after another, plus a minute of slack; Slurm counts minutes.
        const int64_t minutes = (*m_timeoutNs * static_cast<int64_t>(perTask)) / 60'000'000'000 + 1;
        timeLimit = fmt::format("#SBATCH --time={}\n", minutes + 1);
    }
    std::ofstream(batch + "/array.sh")
        << "#!/bin/bash\n"
        << "#SBATCH --job-name=incsim-sweep\n"
        << fmt::format("#SBATCH --array=0-{}\n", tasks - 1)
        << fmt::format("#SBATCH --output={}/task-%a.out\n", batch)
        << fmt::format("#SBATCH --error={}/task-%a.err\n", batch) << timeLimit
        << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
        << fmt::format("exec '{}' sweep-task '{}/tasks.json' \"$SLURM_ARRAY_TASK_ID\"\n",
                       m_binary, batch);
    std::pair<int, std::string> submitted;
    try
    {
        submitted = CaptureProcess({"sbatch", "--parsable", batch + "/array.sh"});
    }
    catch (const std::runtime_error&)
    {
        throw std::runtime_error("cannot run sbatch: is Slurm installed (./tools/setup-debian.sh) "
                                 "and SLURM_CONF set?");
    }
    const auto& [status, output] = submitted;
    if (status != 0)
    {
        throw std::runtime_error(fmt::format("sbatch failed (status {}): {}", status,
                                             Trim(output)));
    }
    const std::string jobId = Trim(output.substr(0, output.find(';')));
    for (const RunJob& job : jobs)
    {
        started(job);
    }

    g_cancel = 0;
    struct sigaction action{};
    struct sigaction oldInt{};
    struct sigaction oldTerm{};
    action.sa_handler = OnCancelSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &oldInt);
    sigaction(SIGTERM, &action, &oldTerm);

    std::vector<bool> reported(jobs.size(), false);
    size_t remaining = jobs.size();
    int squeueFailures = 0;  // squeue forgets a job some minutes after it ends
    bool interrupted = false;
    while (remaining > 0)
    {
        if (g_cancel)
        {
            CaptureProcess({"scancel", jobId});
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
                    done(jobs[i], *end == "timeout" ? RunEnd::TimedOut : RunEnd::Exited);
                }
            }
        }
        if (remaining == 0)
        {
            break;
        }
        const auto [rc, queued] = CaptureProcess({"squeue", "-h", "-j", jobId, "-o", "%i"});
        squeueFailures = rc == 0 ? 0 : squeueFailures + 1;
        if ((rc == 0 && Trim(queued).empty()) || squeueFailures >= 10)
        {
            // The array has left the queue: what did not end by itself was stopped.
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
                    done(jobs[i], timeLimit ? RunEnd::TimedOut : RunEnd::Exited);
                }
            }
            continue;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);
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
        throw std::runtime_error(fmt::format("{}: no task {}", tasksFile, index));
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
                std::ofstream(job.runDir + "/end.json")
                    << nlohmann::json{{"end", end == RunEnd::TimedOut ? "timeout" : "exited"}}
                           .dump();
            }
        });
    return complete ? 0 : 130;
}

} // namespace incsim::experiment
