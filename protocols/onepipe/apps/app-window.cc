#include "protocols/onepipe/apps/app-window.h"

#include "sim/core/sim-time.h"
#include "sim/schema/time-window.h"

#include <ns3/simulator.h>

#include <algorithm>

namespace incsim::onepipe::apps
{

void
AddAppWindowFields(Spec& spec, const std::string& who, const std::string& what,
                   const std::string& counted)
{
    spec.Field("start", Spec::Duration(), "when " + who + " start", "0ns")
        .OptionalField("measure_from", Spec::Duration(),
                       "when " + counted + " start counting, up to stop (default: start)")
        .OptionalField("stop", Spec::Duration(),
                       "when " + who + " stop starting " + what + " (default: the end of the run)");
}

AppWindow
ReadAppWindow(const ParamView& workload, int64_t durationPs, const std::string& who)
{
    const TimeWindow window = ReadTimeWindow(workload, durationPs, who);
    AppWindow result;
    result.startPs = window.startPs;
    result.stopPs = window.stopPs;
    result.measureFromPs = window.startPs;
    if (workload.Has("measure_from"))
    {
        result.measureFromPs = workload.DurationNs("measure_from") * kPsPerNs;
        if (result.measureFromPs < window.startPs || result.measureFromPs >= window.stopPs)
        {
            workload.Fail("measure_from", "must be at or after start and before stop");
        }
    }
    return result;
}

ns3::EventId
ScheduleStart(const AppWindow& window, std::function<void()> start)
{
    const int64_t at = std::max<int64_t>(window.startPs, NowPs());
    return ns3::Simulator::Schedule(Ps(at - NowPs()), std::move(start));
}

} // namespace incsim::onepipe::apps
