#include "protocols/onepipe/apps/app-setup.h"

#include "protocols/onepipe/onepipe-protocol.h"
#include "protocols/onepipe/onepipe-traces.h"
#include "protocols/txn/txn-history.h"
#include "sim/core/diagnostics.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

namespace incsim::onepipe::apps
{

void
CheckAppTransport(const Scenario& scenario, const ParamView& params, bool onePipe,
                  const std::string& system, bool retransmits)
{
    const std::string& ordering = params.String("ordering");
    const bool reliable = params.Choice("service", ServiceChoices()) == Service::Reliable;
    if (onePipe)
    {
        if (ordering != "total")
        {
            params.Fail("ordering", fmt::format("system \"{}\" orders transactions by 1Pipe's "
                                                "timestamps: it needs ordering \"total\", not "
                                                "\"{}\"",
                                                system, ordering));
        }
        if (!reliable)
        {
            params.Fail("service", fmt::format("system \"{}\" sends transactions that write on "
                                               "reliable 1Pipe: set service \"reliable\"",
                                               system));
        }
        return;
    }
    if (ordering != "none")
    {
        params.Fail("ordering", fmt::format("system \"{}\" runs over the unordered transport: it "
                                            "needs ordering \"none\", not \"{}\"",
                                            system, ordering));
    }
    if (reliable && !retransmits)
    {
        params.Fail("service", fmt::format("system \"{}\" sends best effort over the unordered "
                                           "transport: set service \"best-effort\"",
                                           system));
    }
    if (!reliable && scenario.Section("links").Number("loss") > 0)
    {
        throw InputError(scenario.File(), "/links/loss",
                         fmt::format("system \"{}\" assumes RDMA's lossless reliable connections "
                                     "and has no retransmission: set the loss to 0{}",
                                     system,
                                     retransmits ? ", or service \"reliable\" (the unordered "
                                                   "transport's retransmission)"
                                                 : ""));
    }
}

unsigned
AppProcesses(const World& world, const ParamView& params)
{
    const auto hosts = params.Has("process_hosts") ? static_cast<unsigned>(params.Int("process_hosts"))
                                                   : static_cast<unsigned>(world.NumHosts());
    return hosts * static_cast<unsigned>(params.Int("processes_per_host"));
}

std::vector<TraceSchema>
AppHistoryTraces()
{
    std::vector<TraceSchema> traces = OnePipeTraces();
    for (const TraceSchema& trace : txn::HistoryTraces())
    {
        traces.push_back(trace);
    }
    return traces;
}

} // namespace incsim::onepipe::apps
