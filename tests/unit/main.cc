#define CATCH_CONFIG_RUNNER
#include "sim/core/sim-time.h"

#include <catch2/catch.hpp>
#include <spdlog/spdlog.h>

int
main(int argc, char* argv[])
{
    // ns-3 must run at picosecond resolution before any ns3::Time exists, as in the CLI.
    incsim::EnsurePicosecondResolution();
    spdlog::set_level(spdlog::level::warn);
    return Catch::Session().run(argc, argv);
}
