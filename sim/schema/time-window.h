#ifndef INCSIM_SCHEMA_TIME_WINDOW_H
#define INCSIM_SCHEMA_TIME_WINDOW_H

#include "sim/schema/schema.h"

#include <cstdint>
#include <string>

namespace incsim
{

/// When a traffic source sends, in picoseconds: from `start` to `stop`, cut at the end of the
/// run. Read by ReadTimeWindow from a section with "start" and an optional "stop".
struct TimeWindow
{
    int64_t startPs = 0;
    int64_t stopPs = 0;
    int64_t ActivePs() const { return stopPs - startPs; }
};

/// Reads `section`'s "start" (a duration) and optional "stop" (default: the end of the run,
/// which also cuts a later stop). Throws InputError at .../start unless start comes before the
/// end of the run, and at .../stop unless stop comes after start: either way `who` ("hosts",
/// "flows") would send nothing. Every workload with a start/stop window reads it here.
TimeWindow ReadTimeWindow(const ParamView& section, int64_t durationPs, const std::string& who);

/// A workload's "arrivals": whether its inter-arrival times are exponential ("poisson") rather
/// than constant ("constant").
const Choices<bool>& PoissonArrivalsChoices();

} // namespace incsim

#endif
