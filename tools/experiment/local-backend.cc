#include "tools/experiment/local-backend.h"

#include "sim/core/diagnostics.h"

#include "sim/runner/run-directory.h"

#include "tools/experiment/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <thread>

extern char** environ;  // NOLINT: POSIX

namespace incsim::experiment
{

namespace
{

pid_t
Spawn(const std::string& binary, const RunJob& job)
{
    PrepareRunDirectory(job.runDir);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    const std::string out = job.runDir + "/stdout.txt";
    const std::string err = job.runDir + "/stderr.txt";
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, out.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&files, STDERR_FILENO, err.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    // Children get their own process group, so that Ctrl-C reaches the sweep only and the
    // sweep decides what to stop.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const std::string& arg : job.args)
    {
        argv.push_back(const_cast<char*>(arg.c_str()));
    }
    argv.push_back(nullptr);
    // Workers die with the sweep (see tools/incsim/main.cc).
    std::vector<std::string> environment;
    for (char** variable = environ; *variable != nullptr; ++variable)
    {
        if (std::strncmp(*variable, "INCSIM_SWEEP_PARENT=", 20) != 0)
        {
            environment.emplace_back(*variable);
        }
    }
    environment.push_back("INCSIM_SWEEP_PARENT=" + std::to_string(getpid()));
    std::vector<char*> envp;
    for (std::string& variable : environment)
    {
        envp.push_back(variable.data());
    }
    envp.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, binary.c_str(), &files, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    if (rc != 0)
    {
        throw ExternalError("cannot start " + binary + ": " + std::strerror(rc));
    }
    return pid;
}

} // namespace

LocalBackend::LocalBackend(std::string incsimBinary, unsigned jobs,
                           std::optional<int64_t> timeoutNs)
    : m_binary(std::move(incsimBinary)),
      m_jobs(jobs == 0 ? 1 : jobs),
      m_timeoutNs(timeoutNs)
{
}

bool
LocalBackend::Run(const std::vector<RunJob>& jobs, const Started& started, const Done& done)
{
    using Clock = std::chrono::steady_clock;
    struct Child
    {
        const RunJob* job;
        Clock::time_point started;
        bool killedForTimeout = false;
    };
    StopRequests stop;
    std::map<pid_t, Child> running;
    size_t next = 0;
    while (next < jobs.size() || !running.empty())
    {
        while (!StopRequests::Requested() && next < jobs.size() && running.size() < m_jobs)
        {
            const RunJob& job = jobs[next++];
            started(job);
            running[Spawn(m_binary, job)] = {&job, Clock::now()};
        }
        if (StopRequests::Requested())
        {
            for (auto& [pid, child] : running)
            {
                kill(pid, SIGKILL);
            }
            for (auto& [pid, child] : running)
            {
                WaitForChild(pid);
                done(*child.job, RunEnd::Interrupted);
            }
            return false;
        }
        int status = 0;
        const pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid > 0 && running.count(pid))
        {
            const Child child = running[pid];
            running.erase(pid);
            const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
            done(*child.job, child.killedForTimeout ? RunEnd::TimedOut
                             : clean                ? RunEnd::Exited
                                                    : RunEnd::Failed);
            continue;
        }
        if (m_timeoutNs)
        {
            for (auto& [childPid, child] : running)
            {
                const auto age = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     Clock::now() - child.started)
                                     .count();
                if (!child.killedForTimeout && age > *m_timeoutNs)
                {
                    child.killedForTimeout = true;
                    kill(childPid, SIGKILL);
                }
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

} // namespace incsim::experiment
