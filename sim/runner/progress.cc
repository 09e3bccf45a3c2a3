#include "sim/runner/progress.h"

#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <stdexcept>
#include <unistd.h>

namespace incsim
{

namespace
{
/// Wall time before the first report, and between reports, by mode.
constexpr std::chrono::milliseconds kFirstReport{2000};
constexpr std::chrono::milliseconds kTerminalRedraw{500};
constexpr std::chrono::milliseconds kLineEvery{5000};
constexpr double kLongRunSeconds = 3600;

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

std::string
FormatWall(double seconds)
{
    if (seconds < 60)
    {
        return fmt::format("{:.1f}s", seconds);
    }
    const auto s = static_cast<long>(seconds + 0.5);
    return s < 3600 ? fmt::format("{}m{:02}s", s / 60, s % 60)
                    : fmt::format("{}h{:02}m", s / 3600, s / 60 % 60);
}
} // namespace

ProgressMode
ParseProgressMode(const std::string& text)
{
    for (const auto& [name, mode] : ProgressModeChoices())
    {
        if (name == text)
        {
            return mode;
        }
    }
    throw std::invalid_argument("progress mode must be auto, always or never");
}

ProgressReporter::ProgressReporter(int64_t durationPs, ProgressMode mode)
    : m_durationPs(durationPs),
      m_mode(mode),
      m_terminal(isatty(fileno(stderr)) != 0),
      m_start(std::chrono::steady_clock::now()),
      m_lastReport(m_start),
      m_target(std::make_shared<ProgressReporter*>(this))
{
    if (m_mode == ProgressMode::Never)
    {
        return;
    }
    if (m_mode == ProgressMode::Always)
    {
        Print(false);
    }
    m_watcher = std::thread(&ProgressReporter::Watch, this);
}

ProgressReporter::~ProgressReporter()
{
    *m_target = nullptr;
    if (m_watcher.joinable())
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_one();
        m_watcher.join();
    }
    if (m_printed)
    {
        Print(true);
    }
}

bool
ProgressReporter::Visible() const
{
    return m_mode == ProgressMode::Always || (m_mode == ProgressMode::Auto && m_terminal);
}

void
ProgressReporter::Watch()
{
    const auto every = m_mode == ProgressMode::Always ? kLineEvery
                       : m_terminal                    ? kTerminalRedraw
                                                       : kLineEvery;
    auto next = m_start + kFirstReport;
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_wake.wait_until(lock, next, [this] { return m_stopping; }))
    {
        ns3::Simulator::ScheduleWithContext(0xffffffff, ns3::Time(0), [target = m_target] {
            if (*target != nullptr)
            {
                (*target)->Report();
            }
        });
        next += every;
    }
}

void
ProgressReporter::Report()
{
    ++m_reports;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    const int64_t nowPs = NowPs();
    if (!m_warned && nowPs > 0)
    {
        m_warned = true;
        const double eta = wall * static_cast<double>(m_durationPs - nowPs) / nowPs;
        if (eta > kLongRunSeconds)
        {
            spdlog::warn("this run will take about {} more: {} of {} simulated in {} of wall "
                         "time (shorten /duration, or run it in a sweep with --jobs)",
                         FormatWall(eta), FormatSimTime(nowPs), FormatSimTime(m_durationPs),
                         FormatWall(wall));
        }
    }
    if (Visible())
    {
        Print(false);
    }
}

void
ProgressReporter::Print(bool final)
{
    const auto now = std::chrono::steady_clock::now();
    const int64_t nowPs = final ? m_durationPs : NowPs();
    const double wall = std::chrono::duration<double>(now - m_start).count();
    const double sinceLast = std::chrono::duration<double>(now - m_lastReport).count();
    const uint64_t events = ns3::Simulator::GetEventCount();
    const std::string rate =
        sinceLast > 0.01 ? fmt::format("{:.3g}M", (events - m_lastEvents) / sinceLast / 1e6) : "-";
    m_lastReport = now;
    m_lastEvents = events;
    const double fraction = m_durationPs > 0 ? static_cast<double>(nowPs) / m_durationPs : 1.0;
    const std::string eta = fraction > 0 ? FormatWall(wall * (1 - fraction) / fraction) : "?";
    const std::string line =
        fmt::format("sim {} / {} ({:.1f}%)  wall {}  {} events/s  ETA {}",
                    FormatSimTime(nowPs), FormatSimTime(m_durationPs), 100 * fraction,
                    FormatWall(wall), rate, eta);
    const bool redraw = m_terminal && m_mode != ProgressMode::Always;
    std::fprintf(stderr, redraw ? "\r\033[K%s%s" : "%s%s", line.c_str(),
                 redraw && !final ? "" : "\n");
    std::fflush(stderr);
    m_printed = true;
}

} // namespace incsim
