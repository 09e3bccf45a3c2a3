#include "p4/compiler/preprocess.h"

#include "p4/compiler/diagnostics.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <sstream>
#include <utility>

extern char** environ;

namespace incsim::p4
{
namespace
{

struct ProcessResult
{
    bool started = false;
    int startError = 0;
    int exitStatus = -1; // -1: killed by a signal
    std::string out;
    std::string err;
};

// Closes a descriptor when it goes out of scope.
class Fd
{
  public:
    Fd() = default;
    explicit Fd(int fd)
        : m_fd(fd)
    {
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { Close(); }

    int Get() const { return m_fd; }
    int* Out() { return &m_fd; }
    void Close()
    {
        if (m_fd >= 0)
        {
            ::close(m_fd);
            m_fd = -1;
        }
    }

  private:
    int m_fd = -1;
};

// Runs argv[0] (looked up in PATH) with `input` on its stdin (nullptr: /dev/null), collecting
// stdout and stderr. No shell is involved, so nothing in argv is ever interpreted.
ProcessResult
RunProcess(const std::vector<std::string>& argv, const std::string* input)
{
    ProcessResult result;
    int outPipe[2];
    int errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0)
    {
        result.startError = errno;
        return result;
    }
    Fd outRead(outPipe[0]);
    Fd outWrite(outPipe[1]);
    if (::pipe2(errPipe, O_CLOEXEC) != 0)
    {
        result.startError = errno;
        return result;
    }
    Fd errRead(errPipe[0]);
    Fd errWrite(errPipe[1]);
    // stdin is a socket rather than a pipe so that a child that exits early cannot kill us
    // with SIGPIPE: send() takes MSG_NOSIGNAL.
    Fd inParent;
    Fd inChild;
    if (input != nullptr)
    {
        int pair[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
        {
            result.startError = errno;
            return result;
        }
        *inParent.Out() = pair[0];
        *inChild.Out() = pair[1];
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (input != nullptr)
    {
        posix_spawn_file_actions_adddup2(&actions, inChild.Get(), STDIN_FILENO);
    }
    else
    {
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    }
    posix_spawn_file_actions_adddup2(&actions, outWrite.Get(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errWrite.Get(), STDERR_FILENO);

    std::vector<char*> args;
    for (const std::string& arg : argv)
    {
        args.push_back(const_cast<char*>(arg.c_str()));
    }
    args.push_back(nullptr);

    // cpp's messages are parsed below, so they must not be translated.
    std::vector<std::string> envStrings;
    for (char** env = environ; env != nullptr && *env != nullptr; ++env)
    {
        if (std::strncmp(*env, "LC_ALL=", 7) != 0 && std::strncmp(*env, "LANGUAGE=", 9) != 0)
        {
            envStrings.emplace_back(*env);
        }
    }
    envStrings.emplace_back("LC_ALL=C");
    std::vector<char*> envp;
    for (std::string& entry : envStrings)
    {
        envp.push_back(entry.data());
    }
    envp.push_back(nullptr);

    pid_t pid = -1;
    int spawnError = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawnError != 0)
    {
        result.startError = spawnError;
        return result;
    }
    result.started = true;
    outWrite.Close();
    errWrite.Close();
    inChild.Close();

    size_t written = 0;
    if (input != nullptr)
    {
        ::fcntl(inParent.Get(), F_SETFL, ::fcntl(inParent.Get(), F_GETFL) | O_NONBLOCK);
        if (input->empty())
        {
            inParent.Close();
        }
    }
    bool outOpen = true;
    bool errOpen = true;
    char buffer[65536];
    while (outOpen || errOpen)
    {
        pollfd fds[3];
        nfds_t count = 0;
        int outIndex = -1;
        int errIndex = -1;
        int inIndex = -1;
        if (outOpen)
        {
            outIndex = static_cast<int>(count);
            fds[count++] = {outRead.Get(), POLLIN, 0};
        }
        if (errOpen)
        {
            errIndex = static_cast<int>(count);
            fds[count++] = {errRead.Get(), POLLIN, 0};
        }
        if (inParent.Get() >= 0)
        {
            inIndex = static_cast<int>(count);
            fds[count++] = {inParent.Get(), POLLOUT, 0};
        }
        if (::poll(fds, count, -1) < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            break;
        }
        if (inIndex >= 0 && fds[inIndex].revents != 0)
        {
            ssize_t n = ::send(inParent.Get(), input->data() + written, input->size() - written,
                               MSG_NOSIGNAL);
            if (n > 0)
            {
                written += static_cast<size_t>(n);
            }
            if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input->size())
            {
                inParent.Close();
            }
        }
        auto drain = [&](int index, Fd& fd, bool& open, std::string& sink) {
            if (index < 0 || fds[index].revents == 0)
            {
                return;
            }
            ssize_t n = ::read(fd.Get(), buffer, sizeof(buffer));
            if (n > 0)
            {
                sink.append(buffer, static_cast<size_t>(n));
            }
            else if (n == 0 || (errno != EINTR && errno != EAGAIN))
            {
                open = false;
            }
        };
        drain(outIndex, outRead, outOpen, result.out);
        drain(errIndex, errRead, errOpen, result.err);
    }
    inParent.Close();

    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    result.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

std::string
DirectoryOf(const std::string& path)
{
    size_t slash = path.find_last_of('/');
    if (slash == std::string::npos)
    {
        return ".";
    }
    if (slash == 0)
    {
        return "/";
    }
    return path.substr(0, slash);
}

std::vector<std::string>
CppArguments(const std::string& programPath, const PreprocessOptions& options)
{
    std::string systemDir =
        options.systemIncludeDir.empty() ? DefaultSystemIncludeDir() : options.systemIncludeDir;
    // -isystem first so that <core.p4> is always incsim's; -idirafter so that the program's
    // own directory cannot shadow it.
    std::vector<std::string> argv = {options.cpp, "-undef",  "-nostdinc", "-x",
                                     "c",         "-isystem", systemDir,   "-idirafter",
                                     DirectoryOf(programPath)};
    for (const std::string& dir : options.includeDirs)
    {
        argv.push_back("-idirafter");
        argv.push_back(dir);
    }
    argv.push_back("-D__INCSIM_P4C__=1");
    for (const std::string& define : options.defines)
    {
        argv.push_back("-D" + define);
    }
    return argv;
}

// Turns cpp's stderr into diagnostics: "file:line:col: error: message" lines carry a location,
// "cpp: error: message" lines do not; gcc's own caret lines and "In file included from" are
// dropped. Returns the number of errors reported.
size_t
ReportCppMessages(const std::string& err, Diagnostics& diags)
{
    static const std::regex kLocated(
        R"(^(.+?):([0-9]+):(?:([0-9]+):)? (fatal error|error|warning|note): (.*)$)");
    static const std::regex kUnlocated(R"(^[^ :]+: (fatal error|error|warning): (.*)$)");
    size_t errors = 0;
    std::istringstream lines(err);
    std::string line;
    while (std::getline(lines, line))
    {
        std::smatch match;
        SourceLocation location;
        std::string kind;
        std::string message;
        if (std::regex_match(line, match, kLocated))
        {
            location.file = diags.Sources().Get(match[1].str());
            location.line = static_cast<uint32_t>(std::stoul(match[2].str()));
            location.column = match[3].matched ? static_cast<uint32_t>(std::stoul(match[3].str()))
                                               : 0;
            location.length = 1;
            kind = match[4].str();
            message = match[5].str();
        }
        else if (std::regex_match(line, match, kUnlocated))
        {
            kind = match[1].str();
            message = match[2].str();
        }
        else
        {
            continue;
        }
        if (kind == "note")
        {
            diags.Note(location, message);
        }
        else if (kind == "warning")
        {
            diags.Warning(location, message);
        }
        else
        {
            diags.Error(location, message);
            ++errors;
        }
    }
    return errors;
}

std::optional<std::string>
RunCpp(const std::string& name,
       const std::string* text,
       Diagnostics& diags,
       const PreprocessOptions& options)
{
    std::string systemDir =
        options.systemIncludeDir.empty() ? DefaultSystemIncludeDir() : options.systemIncludeDir;
    diags.Sources().AddSystemDirectory(systemDir);

    std::vector<std::string> argv = CppArguments(name, options);
    std::string input;
    if (text != nullptr)
    {
        // Read from stdin, but let every location name `name`.
        std::string quoted;
        for (char c : name)
        {
            if (c == '"' || c == '\\')
            {
                quoted += '\\';
            }
            quoted += c;
        }
        input = "# 1 \"" + quoted + "\"\n" + *text;
        argv.push_back("-");
    }
    else
    {
        // A name that starts with '-' would be read as an option.
        argv.push_back(!name.empty() && name[0] == '-' ? "./" + name : name);
    }

    ProcessResult result = RunProcess(argv, text != nullptr ? &input : nullptr);
    if (!result.started)
    {
        diags.Error({}, "cannot run the C preprocessor '" + options.cpp +
                            "': " + std::strerror(result.startError));
        return std::nullopt;
    }
    size_t errors = ReportCppMessages(result.err, diags);
    if (result.exitStatus != 0)
    {
        if (errors == 0)
        {
            std::string first = result.err.substr(0, result.err.find('\n'));
            diags.Error({}, "the C preprocessor failed" +
                                (first.empty() ? std::string() : ": " + first));
        }
        return std::nullopt;
    }
    return std::move(result.out);
}

} // namespace

std::string
DefaultSystemIncludeDir()
{
    return INCSIM_P4_INCLUDE_DIR;
}

std::optional<std::string>
Preprocess(const std::string& path, Diagnostics& diags, const PreprocessOptions& options)
{
    struct stat info;
    if (::stat(path.c_str(), &info) != 0)
    {
        diags.Error({}, "cannot open '" + path + "': " + std::strerror(errno));
        return std::nullopt;
    }
    if (S_ISDIR(info.st_mode))
    {
        diags.Error({}, "cannot compile '" + path + "': it is a directory");
        return std::nullopt;
    }
    return RunCpp(path, nullptr, diags, options);
}

std::optional<std::string>
PreprocessText(const std::string& name,
               const std::string& text,
               Diagnostics& diags,
               const PreprocessOptions& options)
{
    diags.Sources().AddBuffer(name, text);
    return RunCpp(name, &text, diags, options);
}

} // namespace incsim::p4
