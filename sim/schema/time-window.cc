#include "sim/schema/time-window.h"

#include "sim/core/sim-time.h"
#include "sim/core/units.h"
#include "sim/schema/schema.h"

#include <fmt/format.h>

#include <algorithm>

namespace incsim
{

TimeWindow
ReadTimeWindow(const ParamView& section, int64_t durationPs, const std::string& who)
{
    const int64_t startNs = section.DurationNs("start");
    const int64_t durationNs = durationPs / kPsPerNs;
    if (startNs >= durationNs)
    {
        section.Fail("start", fmt::format("{} would start sending at {}, which is not before the "
                                          "end of the run at {} (/duration)",
                                          who, section.String("start"),
                                          FormatDuration(durationNs)));
    }
    TimeWindow window;
    window.startPs = startNs * kPsPerNs;
    window.stopPs = durationPs;
    if (section.Has("stop"))
    {
        const int64_t stopNs = section.DurationNs("stop");
        if (stopNs <= startNs)
        {
            section.Fail("stop", fmt::format("expected a time after start \"{}\", got \"{}\": {} "
                                             "would send nothing",
                                             section.String("start"), section.String("stop"),
                                             who));
        }
        window.stopPs = std::min(durationPs, stopNs * kPsPerNs);
    }
    return window;
}

const Choices<bool>&
PoissonArrivalsChoices()
{
    static const Choices<bool> choices{{"poisson", true}, {"constant", false}};
    return choices;
}

} // namespace incsim
