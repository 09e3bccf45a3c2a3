#include "sim/runner/progress.h"

#include "sim/core/sim-time.h"
#include "sim/core/units.h"

#include <ns3/simulator.h>

#include <fmt/format.h>

#include <cstdio>
#include <stdexcept>
#include <unistd.h>

namespace incsim
{

namespace
{
constexpr int kTicksPerRun = 1000;
constexpr double kQuietSeconds = 2.0;
constexpr double kRedrawSeconds = 0.25;

std::string
FormatSimTime(int64_t ps)
{
    double ns = ps / 1e3;
    if (ns < 1e3)
    {
        return fmt::format("{:.0f}ns", ns);
    }
    if (ns < 1e6)
    {
        return fmt::format("{:.3g}us", ns / 1e3);
    }
    if (ns < 1e9)
    {
        return fmt::format("{:.4g}ms", ns / 1e6);
    }
    return fmt::format("{:.4g}s", ns / 1e9);
}
} // namespace

ProgressMode
ParseProgressMode(const std::string& text)
{
    if (text == "auto")
    {
        return ProgressMode::Auto;
    }
    if (text == "always")
    {
        return ProgressMode::Always;
    }
    if (text == "never")
    {
        return ProgressMode::Never;
    }
    throw std::invalid_argument("progress mode must be auto, always or never");
}

ProgressReporter::ProgressReporter(int64_t durationPs, ProgressMode mode)
    : m_durationPs(durationPs),
      m_tickPs(std::max<int64_t>(durationPs / kTicksPerRun, 1)),
      m_mode(mode),
      m_terminal(isatty(fileno(stderr)) != 0),
      m_start(std::chrono::steady_clock::now()),
      m_lastPrint(m_start)
{
    m_event = ns3::Simulator::Schedule(Ps(m_tickPs), &ProgressReporter::Tick, this);
}

ProgressReporter::~ProgressReporter()
{
    m_event.Cancel();
    if (m_printed)
    {
        Print(true);
    }
}

void
ProgressReporter::Tick()
{
    if (NowPs() + m_tickPs < m_durationPs)
    {
        m_event = ns3::Simulator::Schedule(Ps(m_tickPs), &ProgressReporter::Tick, this);
    }
    if (m_mode == ProgressMode::Never || (m_mode == ProgressMode::Auto && !m_terminal))
    {
        return;
    }
    auto now = std::chrono::steady_clock::now();
    double wall = std::chrono::duration<double>(now - m_start).count();
    double sinceLast = std::chrono::duration<double>(now - m_lastPrint).count();
    bool due = m_mode == ProgressMode::Always ? sinceLast >= 1.0 || !m_printed
                                              : wall >= kQuietSeconds && sinceLast >= kRedrawSeconds;
    if (due)
    {
        m_lastPrint = now;
        Print(false);
    }
}

void
ProgressReporter::Print(bool final)
{
    int64_t nowPs = final ? m_durationPs : NowPs();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    double fraction = m_durationPs > 0 ? static_cast<double>(nowPs) / m_durationPs : 1.0;
    double eta = fraction > 0 ? wall * (1 - fraction) / fraction : 0;
    std::string line = fmt::format("sim {} / {} ({:.1f}%)  wall {:.1f}s  ETA {:.1f}s  events {}",
                                   FormatSimTime(nowPs),
                                   FormatSimTime(m_durationPs),
                                   100 * fraction,
                                   wall,
                                   eta,
                                   ns3::Simulator::GetEventCount());
    bool redraw = m_terminal && m_mode != ProgressMode::Always;
    std::fprintf(stderr, redraw ? "\r\033[K%s%s" : "%s%s", line.c_str(),
                 redraw && !final ? "" : "\n");
    std::fflush(stderr);
    m_printed = true;
}

} // namespace incsim
