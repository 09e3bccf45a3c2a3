#include "tools/incsim/commands.h"
#include "tools/incsim/exit-codes.h"

#include "sim/core/diagnostics.h"
#include "sim/scenario/protocol.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

#include <memory>

namespace incsim::cli
{

void
AddCheckCommand(CLI::App& app)
{
    auto runDir = std::make_shared<std::string>();
    CLI::App* cmd = app.add_subcommand(
        "check", "Verify a protocol's guarantees (total order, serializability, ...) on a run "
                 "directory's traces; exits 1 if any is violated");
    cmd->add_option("RUN_DIR", *runDir, "run directory written by `incsim run`")->required();
    cmd->callback([runDir]() {
        const Scenario scenario = LoadRunScenario(*runDir);
        const std::string& name = scenario.Section("protocol").String("name");
        const ProtocolInfo& protocol = Protocols().Get(name);
        if (!protocol.check)
        {
            throw InputError(scenario.File(), "/protocol/name",
                             fmt::format("protocol \"{}\" has no checker", name));
        }
        const CheckReport report = protocol.check(*runDir);
        for (const std::string& line : report.passed)
        {
            fmt::print("ok    {}\n", line);
        }
        for (const std::string& line : report.violations)
        {
            fmt::print("FAIL  {}\n", line);
        }
        if (!report.Ok())
        {
            throw ExitStatus{kExitVerdict};
        }
    });
}

} // namespace incsim::cli
