#include "tools/experiment/process.h"

#include "sim/core/diagnostics.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <stdexcept>

extern char** environ;  // NOLINT: POSIX

namespace incsim::experiment
{

namespace
{

pid_t
Start(const std::vector<std::string>& command, posix_spawn_file_actions_t* files)
{
    std::vector<char*> argv;
    for (const std::string& arg : command)
    {
        argv.push_back(const_cast<char*>(arg.c_str()));
    }
    argv.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawnp(&pid, argv[0], files, nullptr, argv.data(), environ) != 0)
    {
        throw ExternalError("cannot run " + command[0]);
    }
    return pid;
}

volatile std::sig_atomic_t g_stopRequested = 0;

void
OnStopSignal(int)
{
    g_stopRequested = 1;
}

} // namespace

int
WaitForChild(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
    {
        if (errno != EINTR)
        {
            return 128;
        }
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct StopRequests::Saved
{
    struct sigaction interrupt{};
    struct sigaction terminate{};
};

StopRequests::StopRequests()
    : m_saved(new Saved)
{
    g_stopRequested = 0;
    struct sigaction action{};
    action.sa_handler = OnStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, &m_saved->interrupt);
    sigaction(SIGTERM, &action, &m_saved->terminate);
}

StopRequests::~StopRequests()
{
    sigaction(SIGINT, &m_saved->interrupt, nullptr);
    sigaction(SIGTERM, &m_saved->terminate, nullptr);
    delete m_saved;
}

bool
StopRequests::Requested()
{
    return g_stopRequested != 0;
}

int
RunProcess(const std::vector<std::string>& argv)
{
    return WaitForChild(Start(argv, nullptr));
}

std::pair<int, std::string>
CaptureProcess(const std::vector<std::string>& argv)
{
    int fds[2];
    if (pipe(fds) != 0)
    {
        throw ExternalError("pipe failed");
    }
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_adddup2(&files, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&files, fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&files, fds[0]);
    pid_t pid = 0;
    try
    {
        pid = Start(argv, &files);
    }
    catch (...)
    {
        posix_spawn_file_actions_destroy(&files);
        close(fds[0]);
        close(fds[1]);
        throw;
    }
    posix_spawn_file_actions_destroy(&files);
    close(fds[1]);
    std::string output;
    char buffer[4096];
    while (true)
    {
        const ssize_t n = read(fds[0], buffer, sizeof(buffer));
        if (n > 0)
        {
            output.append(buffer, static_cast<size_t>(n));
        }
        else if (n == 0 || errno != EINTR)
        {
            break;
        }
    }
    close(fds[0]);
    return {WaitForChild(pid), output};
}

std::string
SelfExecutable()
{
    char path[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
    if (n <= 0)
    {
        throw ExternalError("cannot find the running executable (/proc/self/exe)");
    }
    return std::string(path, static_cast<size_t>(n));
}

} // namespace incsim::experiment
