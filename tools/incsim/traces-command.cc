#include "commands.h"

#include "sim/scenario/protocol.h"
#include "sim/trace/trace-schema.h"

#include <fmt/format.h>

namespace incsim::cli
{

void
AddTracesCommand(CLI::App& app)
{
    CLI::App* traces = app.add_subcommand(
        "traces", "Print the trace reference (the generated part of docs/traces.md)");
    traces->callback([] {
        fmt::print("### Network traces (every protocol)\n\n{}", TraceMarkdown(CoreTraces()));
        for (const std::string& name : Protocols().Names())
        {
            const ProtocolInfo& protocol = Protocols().Get(name);
            if (!protocol.traces.empty())
            {
                fmt::print("### Protocol `{}`\n\n{}", name, TraceMarkdown(protocol.traces));
            }
        }
    });
}

} // namespace incsim::cli
