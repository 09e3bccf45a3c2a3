#ifndef INCSIM_RUNNER_PROGRESS_H
#define INCSIM_RUNNER_PROGRESS_H

#include "sim/scenario/scenario.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace incsim
{

/// A mode by its name (ProgressModeChoices); std::invalid_argument for any other text.
ProgressMode ParseProgressMode(const std::string& text);

/// Prints "sim 1.2ms / 5ms (24%)  wall 3.1s  1.2M events/s  ETA 9.5s" on stderr while a run
/// goes on, paced by wall-clock time whatever the pace of simulated time: a watcher thread
/// wakes on schedule and posts a report event into the simulator (ScheduleWithContext, ns-3's
/// thread-safe entry), which reads the simulated time on the simulation's own thread. The
/// reports do not change the order of the run's own events; Reports() says how many ran so
/// that the run's event count can leave them out. A run expected to take over an hour says
/// so (spdlog warning) at its first report, in every mode but Never.
class ProgressReporter
{
  public:
    ProgressReporter(int64_t durationPs, ProgressMode mode);
    ~ProgressReporter();
    ProgressReporter(const ProgressReporter&) = delete;
    ProgressReporter& operator=(const ProgressReporter&) = delete;

    /// Report events executed so far (simulator events that are not the run's own).
    uint64_t Reports() const { return m_reports; }

  private:
    void Watch();
    void Report();
    void Print(bool final);
    bool Visible() const;

    int64_t m_durationPs;
    ProgressMode m_mode;
    bool m_terminal;
    bool m_printed = false;
    bool m_warned = false;
    uint64_t m_reports = 0;
    uint64_t m_lastEvents = 0;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastReport;

    /// What posted report events call; cleared by the destructor (on the simulation's thread),
    /// so a report still queued when the run ends does nothing.
    std::shared_ptr<ProgressReporter*> m_target;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::thread m_watcher;
};

} // namespace incsim

#endif
