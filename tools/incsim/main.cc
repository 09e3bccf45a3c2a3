// incsim: a discrete-event simulator for in-network coordination protocols, on ns-3.

#include "commands.h"
#include "exit-codes.h"

#include "protocols/builtin-protocols.h"
#include "sim/core/diagnostics.h"
#include "sim/core/output-file.h"
#include "sim/core/sim-time.h"
#include "sim/runner/version.h"
#include "topologies/register.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

namespace
{

/// A sweep's worker process (INCSIM_SWEEP_PARENT names the sweep's pid) dies with the
/// sweep, so that a killed sweep leaves no orphan writing into a run directory that the next
/// sweep will run again.
void
DieWithSweep()
{
    const char* parent = std::getenv("INCSIM_SWEEP_PARENT");
    if (parent == nullptr)
    {
        return;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (std::to_string(getppid()) != parent)
    {
        std::_Exit(137);  // the sweep died before this process could ask
    }
}

void
RegisterComponents()
{
    incsim::RegisterTopologyGenerators();
    incsim::RegisterBuiltinProtocols();
}

/// The first word that names no subcommand, where a subcommand was expected.
std::string
UnknownCommand(const CLI::App& app, int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string word = argv[i];
        if (word == "--log-level")
        {
            ++i;
            continue;
        }
        if (word.empty() || word[0] == '-')
        {
            continue;
        }
        for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        {
            if (sub->get_name() == word)
            {
                return "";
            }
        }
        return word;
    }
    return "";
}

std::string
CommandList(const CLI::App& app)
{
    std::string names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    {
        if (!sub->get_group().empty())
        {
            names += (names.empty() ? "" : ", ") + sub->get_name();
        }
    }
    return names;
}

} // namespace

int
main(int argc, char** argv)
{
    using namespace incsim::cli;
    DieWithSweep();
    // A file size limit (ulimit -f) makes the write fail with EFBIG, reported as an output
    // error, instead of killing the process mid-line.
    std::signal(SIGXFSZ, SIG_IGN);
    incsim::EnsurePicosecondResolution();
    RegisterComponents();
    spdlog::set_default_logger(spdlog::stderr_color_mt("incsim"));

    CLI::App app{"incsim: discrete-event simulation of in-network coordination protocols"};
    app.require_subcommand(1);
    app.set_version_flag("--version", incsim::IncsimVersion());
    std::string logLevel = "warn";
    app.add_option("--log-level", logLevel, "trace, debug, info, warn, error or off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
    app.parse_complete_callback([&] { spdlog::set_level(spdlog::level::from_str(logLevel)); });
    app.footer("Exit status: 0 ok, 1 negative verdict (check, p4 test), 2 invalid input, 3 "
               "configuration that cannot be simulated, 4 some sweep runs failed, 5 a write "
               "failed, 6 stale build (rebuild), 7 an external tool failed, 64 bad command line, 70 internal error, "
               "130 interrupted (docs/cli.md).");

    AddRunCommand(app);
    AddValidateCommand(app);
    AddTopoCommand(app);
    AddListCommand(app);
    AddSchemaCommand(app);
    AddTracesCommand(app);
    AddObjectsCommand(app);
    AddP4Command(app);
    AddSweepCommand(app);
    AddResultsCommand(app);
    AddReproduceCommand(app);
    AddCheckCommand(app);

    const auto fail = [](int status, const std::string& message) {
        std::fprintf(stderr, "error: %s\n", message.c_str());
        return status;
    };
    try
    {
        const std::string unknown = UnknownCommand(app, argc, argv);
        if (!unknown.empty())
        {
            return fail(kExitUsage, "unknown command '" + unknown + "' (commands: " +
                                        CommandList(app) + "; see incsim --help)");
        }
        app.parse(argc, argv);
        incsim::FlushStdout();
    }
    catch (const CLI::ParseError& e)
    {
        const int status = app.exit(e);
        return status == 0 ? kExitOk : kExitUsage;
    }
    catch (const ExitStatus& e)
    {
        return e.status;
    }
    catch (const UsageError& e)
    {
        return fail(kExitUsage, e.what());
    }
    catch (const LocatedInputError& e)
    {
        return fail(kExitInput, e.what());
    }
    catch (const VerdictFailure& e)
    {
        return fail(kExitVerdict, e.what());
    }
    catch (const incsim::InputError& e)
    {
        return fail(kExitInput, e.what());
    }
    catch (const incsim::ConfigError& e)
    {
        return fail(kExitConfig, e.what());
    }
    catch (const incsim::OutputError& e)
    {
        return fail(kExitOutput, e.what());
    }
    catch (const incsim::StaleBuildError& e)
    {
        return fail(kExitStaleBuild, e.what());
    }
    catch (const incsim::ExternalError& e)
    {
        return fail(kExitExternal, e.what());
    }
    catch (const std::system_error& e)
    {
        // fmt::print's failed writes and std::filesystem's failed directory operations.
        return fail(kExitOutput, e.what());
    }
    catch (const std::exception& e)
    {
        return fail(kExitInternal, std::string("internal error (a bug in incsim; please report "
                                               "it with the command line): ") +
                                       e.what());
    }
    return kExitOk;
}
