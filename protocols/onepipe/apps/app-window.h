#ifndef INCSIM_ONEPIPE_APPS_APP_WINDOW_H
#define INCSIM_ONEPIPE_APPS_APP_WINDOW_H

#include "sim/schema/schema.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <functional>
#include <string>

namespace incsim::onepipe::apps
{

/// When an application's initiators (or clients) run and when their results count, in
/// picoseconds: they start at `start`, stop starting new work at `stop`, and throughput and
/// latency count from `measure_from` (after the ramp-up) to `stop`.
struct AppWindow
{
    int64_t startPs = 0;
    int64_t measureFromPs = 0;
    int64_t stopPs = 0;
    bool Measured(int64_t nowPs) const { return nowPs >= measureFromPs && nowPs <= stopPs; }
    int64_t MeasuredPs() const { return stopPs - measureFromPs; }
};

/// The workload fields AppWindow is read from: "start", and the optional "measure_from" and
/// "stop". `who` starts (e.g. "initiators"), `what` they stop starting (e.g. "transactions"),
/// `counted` is what measure_from counts (e.g. "throughput and latency").
void AddAppWindowFields(Spec& spec, const std::string& who, const std::string& what,
                        const std::string& counted);

/// Reads the fields of AddAppWindowFields (the start/stop rules of ReadTimeWindow; InputError
/// at .../measure_from unless it lies in [start, stop)).
AppWindow ReadAppWindow(const ParamView& workload, int64_t durationPs, const std::string& who);

/// Schedules `start` at the window's start (now, if that has passed).
ns3::EventId ScheduleStart(const AppWindow& window, std::function<void()> start);

} // namespace incsim::onepipe::apps

#endif
