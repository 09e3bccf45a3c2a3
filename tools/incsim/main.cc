// incsim: a discrete-event simulator for in-network coordination protocols, on ns-3.

#include "commands.h"

#include "protocols/gotthard/gotthard-protocol.h"
#include "protocols/onepipe/onepipe-protocol.h"
#include "protocols/udp/udp-protocol.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "topologies/register.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

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
    incsim::RegisterUdpProtocol();
    incsim::onepipe::RegisterOnePipeProtocol();
    incsim::gotthard::RegisterGotthardProtocol();
}

} // namespace

int
main(int argc, char** argv)
{
    DieWithSweep();
    incsim::EnsurePicosecondResolution();
    RegisterComponents();
    spdlog::set_default_logger(spdlog::stderr_color_mt("incsim"));

    CLI::App app{"incsim: discrete-event simulation of in-network coordination protocols"};
    app.require_subcommand(1);
    std::string logLevel = "warn";
    app.add_option("--log-level", logLevel, "trace, debug, info, warn, error or off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
    app.parse_complete_callback([&] { spdlog::set_level(spdlog::level::from_str(logLevel)); });

    incsim::cli::AddRunCommand(app);
    incsim::cli::AddValidateCommand(app);
    incsim::cli::AddTopoCommand(app);
    incsim::cli::AddListCommand(app);
    incsim::cli::AddSchemaCommand(app);
    incsim::cli::AddObjectsCommand(app);
    incsim::cli::AddP4Command(app);
    incsim::cli::AddSweepCommand(app);
    incsim::cli::AddResultsCommand(app);
    incsim::cli::AddReproduceCommand(app);
    incsim::cli::AddCheckCommand(app);

    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::ParseError& e)
    {
        return app.exit(e);
    }
    catch (const incsim::cli::ExitStatus& e)
    {
        return e.status;
    }
    catch (const incsim::InputError& e)
    {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
    catch (const incsim::ConfigError& e)
    {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 3;
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
