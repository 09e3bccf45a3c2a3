// incsim: a discrete-event simulator for in-network coordination protocols, on ns-3.

#include "commands.h"

#include "protocols/udp/udp-protocol.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "topologies/register.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace
{

void
RegisterComponents()
{
    incsim::RegisterTopologyGenerators();
    incsim::RegisterUdpProtocol();
}

} // namespace

int
main(int argc, char** argv)
{
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

    try
    {
        app.parse(argc, argv);
    }
    catch (const CLI::ParseError& e)
    {
        return app.exit(e);
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
