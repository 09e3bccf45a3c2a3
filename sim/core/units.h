#ifndef INCSIM_CORE_UNITS_H
#define INCSIM_CORE_UNITS_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace incsim
{

// Quantities in scenario files are strings with explicit units: "3us", "100Gbps", "64KiB".
// Parsers accept an optional fractional part ("1.5ms") and reject anything else.

/// The longest duration, 10^6 s (11.6 days). The simulator counts time in int64 picoseconds;
/// this leaves room to add several durations (a start plus a run, say) without overflow.
constexpr int64_t kMaxDurationNs = 1'000'000'000'000'000;

/// "ns", "us", "ms", "s" (also "ps" when it is a whole number of ns), up to kMaxDurationNs.
/// Result in nanoseconds.
std::optional<int64_t> ParseDurationNs(std::string_view text);
/// "bps", "Kbps", "Mbps", "Gbps", "Tbps" (decimal prefixes). Result in bits per second.
std::optional<uint64_t> ParseRateBps(std::string_view text);
/// "B", "KB", "MB", "GB" (decimal) and "KiB", "MiB", "GiB" (binary). Result in bytes.
std::optional<uint64_t> ParseSizeBytes(std::string_view text);

/// Why the parsers above refuse `text`, as a phrase to follow "got TEXT: " in an error:
/// `unknown unit "usec" (known: ps, ns, us, ms, s)`, "not a whole number of nanoseconds ...",
/// "too large (at most ...)". Empty when the text parses or is no number followed by a unit.
std::string DurationProblem(std::string_view text);
std::string RateProblem(std::string_view text);
std::string SizeProblem(std::string_view text);

/// Shortest exact rendering with the largest unit that keeps an integer: 3000 -> "3us".
std::string FormatDuration(int64_t ns);
std::string FormatRate(uint64_t bps);
std::string FormatSize(uint64_t bytes);

} // namespace incsim

#endif
