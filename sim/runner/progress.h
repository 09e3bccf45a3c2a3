#ifndef INCSIM_RUNNER_PROGRESS_H
#define INCSIM_RUNNER_PROGRESS_H

#include <ns3/event-id.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace incsim
{

enum class ProgressMode
{
    Auto,   ///< on a terminal, once the run has lasted 2 s of wall time
    Always, ///< line by line, also when stderr is not a terminal
    Never
};

ProgressMode ParseProgressMode(const std::string& text);

/// Prints "sim 1.2ms / 5ms (24%)  wall 3.1s  ETA 9.5s" on stderr while a run goes on. It ticks
/// a fixed number of times per run whatever the mode, so the event count (in run.json) does
/// not depend on whether a terminal was attached.
class ProgressReporter
{
  public:
    ProgressReporter(int64_t durationPs, ProgressMode mode);
    ~ProgressReporter();

  private:
    void Tick();
    void Print(bool final);

    int64_t m_durationPs;
    int64_t m_tickPs;
    ProgressMode m_mode;
    bool m_terminal;
    bool m_printed = false;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastPrint;
    ns3::EventId m_event;
};

} // namespace incsim

#endif
