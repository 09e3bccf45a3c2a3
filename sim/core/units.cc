#include "sim/core/units.h"

#include <array>
#include <limits>
#include <utility>

namespace incsim
{
namespace
{

struct Unit
{
    std::string_view suffix;
    long double factor;
};

/// "12.5" as the exact fraction 125 / 10^1, so that whole-unit checks need no rounding.
struct Decimal
{
    unsigned __int128 digits = 0;
    unsigned fractionDigits = 0;
    bool overflow = false; ///< more digits than kMaxDigits holds
};

// Caps the digits read so that digits * factor * 10^fractionDigits never overflows 128 bits.
constexpr unsigned __int128 kMaxDigits = static_cast<unsigned __int128>(1e24L);
constexpr unsigned kMaxFractionDigits = 24;

// Splits "12.5us" into the decimal 12.5 and the suffix "us". Rejects signs, spaces and exponents.
std::optional<std::pair<Decimal, std::string_view>>
SplitNumber(std::string_view text)
{
    size_t i = 0;
    bool digits = false;
    bool dot = false;
    Decimal number;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || (text[i] == '.' && !dot)))
    {
        if (text[i] == '.')
        {
            dot = true;
        }
        else
        {
            digits = true;
            if (number.digits >= kMaxDigits)
            {
                // Beyond any unit's range; keep reading so that the status says "too large".
                number.overflow = true;
            }
            else
            {
                number.digits = number.digits * 10 + static_cast<unsigned>(text[i] - '0');
                number.fractionDigits += dot ? 1 : 0;
            }
        }
        ++i;
    }
    if (!digits)
    {
        return std::nullopt;
    }
    return std::make_pair(number, text.substr(i));
}

enum class ParseStatus
{
    Ok,
    Malformed,   ///< not digits followed by a unit
    UnknownUnit, ///< digits, then something that is not one of the units
    NotWhole,    ///< not a whole number of the base unit
    TooLarge,    ///< more than `max` base units
};

/// The value in base units when it is a whole number of them that fits in `max`.
template <size_t N>
ParseStatus
Parse(std::string_view text, const std::array<Unit, N>& units, uint64_t max, uint64_t& out)
{
    auto split = SplitNumber(text);
    if (!split)
    {
        return ParseStatus::Malformed;
    }
    for (const auto& unit : units)
    {
        if (split->second != unit.suffix)
        {
            continue;
        }
        if (split->first.overflow)
        {
            return ParseStatus::TooLarge;
        }
        if (split->first.fractionDigits > kMaxFractionDigits)
        {
            return ParseStatus::NotWhole;
        }
        // value = digits * factor / 10^fractionDigits, with factor = num / den exactly.
        unsigned __int128 num = unit.factor >= 1 ? static_cast<uint64_t>(unit.factor) : 1;
        unsigned __int128 den =
            unit.factor >= 1 ? 1 : static_cast<uint64_t>(1 / unit.factor + 0.5L);
        for (unsigned k = 0; k < split->first.fractionDigits; ++k)
        {
            den *= 10;
        }
        unsigned __int128 scaled = split->first.digits * num;
        if (scaled % den != 0)
        {
            return ParseStatus::NotWhole; // "0.5ns" is not representable
        }
        unsigned __int128 value = scaled / den;
        if (value > max)
        {
            return ParseStatus::TooLarge;
        }
        out = static_cast<uint64_t>(value);
        return ParseStatus::Ok;
    }
    return ParseStatus::UnknownUnit;
}

template <size_t N>
std::optional<uint64_t>
Parse(std::string_view text, const std::array<Unit, N>& units, uint64_t max)
{
    uint64_t value = 0;
    if (Parse(text, units, max, value) != ParseStatus::Ok)
    {
        return std::nullopt;
    }
    return value;
}

constexpr std::array<Unit, 5> kDurationUnits{{{"ps", 1e-3L},
                                              {"ns", 1},
                                              {"us", 1e3L},
                                              {"ms", 1e6L},
                                              {"s", 1e9L}}};
constexpr std::array<Unit, 5> kRateUnits{{{"bps", 1},
                                          {"Kbps", 1e3L},
                                          {"Mbps", 1e6L},
                                          {"Gbps", 1e9L},
                                          {"Tbps", 1e12L}}};
constexpr std::array<Unit, 7> kSizeUnits{{{"B", 1},
                                          {"KB", 1e3L},
                                          {"MB", 1e6L},
                                          {"GB", 1e9L},
                                          {"KiB", 1024.0L},
                                          {"MiB", 1024.0L * 1024},
                                          {"GiB", 1024.0L * 1024 * 1024}}};

/// The phrase DurationProblem and friends return for a refused text.
template <size_t N>
std::string
Problem(std::string_view text, const std::array<Unit, N>& units, uint64_t max,
        std::string_view baseUnit, std::string_view resolutionNote, const std::string& maxText)
{
    uint64_t value = 0;
    switch (Parse(text, units, max, value))
    {
    case ParseStatus::Ok:
    case ParseStatus::Malformed:
        return "";
    case ParseStatus::UnknownUnit: {
        std::string known;
        for (const auto& unit : units)
        {
            known += (known.empty() ? "" : ", ") + std::string(unit.suffix);
        }
        return "unknown unit \"" + std::string(SplitNumber(text)->second) + "\" (known: " +
               known + ")";
    }
    case ParseStatus::NotWhole:
        return "not a whole number of " + std::string(baseUnit) + std::string(resolutionNote);
    case ParseStatus::TooLarge:
        return "too large (at most " + maxText + ")";
    }
    return "";
}

template <size_t N>
std::string
Format(uint64_t value, const std::array<Unit, N>& units, size_t firstIndex)
{
    // Pick the largest unit that divides the value exactly.
    std::string_view best = units[firstIndex].suffix;
    uint64_t bestValue = value;
    for (size_t i = firstIndex; i < N; ++i)
    {
        auto factor = static_cast<uint64_t>(units[i].factor);
        if (factor != 0 && value % factor == 0 && (value != 0 || i == firstIndex))
        {
            best = units[i].suffix;
            bestValue = value / factor;
        }
    }
    return std::to_string(bestValue) + std::string(best);
}

} // namespace

std::optional<int64_t>
ParseDurationNs(std::string_view text)
{
    auto ns = Parse(text, kDurationUnits, kMaxDurationNs);
    return ns ? std::optional<int64_t>(static_cast<int64_t>(*ns)) : std::nullopt;
}

std::optional<uint64_t>
ParseRateBps(std::string_view text)
{
    return Parse(text, kRateUnits, std::numeric_limits<uint64_t>::max());
}

std::optional<uint64_t>
ParseSizeBytes(std::string_view text)
{
    return Parse(text, kSizeUnits, std::numeric_limits<uint64_t>::max());
}

std::string
DurationProblem(std::string_view text)
{
    // ns-3 runs at picosecond resolution, but every duration a scenario gives is read as
    // whole nanoseconds (sim-time.h), so "1ps" cannot be honoured and is refused, not rounded.
    return Problem(text, kDurationUnits, kMaxDurationNs, "nanoseconds",
                   " (scenario durations have nanosecond resolution; \"1000ps\" is 1ns)",
                   FormatDuration(kMaxDurationNs));
}

std::string
RateProblem(std::string_view text)
{
    return Problem(text, kRateUnits, std::numeric_limits<uint64_t>::max(), "bits per second", "",
                   FormatRate(std::numeric_limits<uint64_t>::max()));
}

std::string
SizeProblem(std::string_view text)
{
    return Problem(text, kSizeUnits, std::numeric_limits<uint64_t>::max(), "bytes", "",
                   FormatSize(std::numeric_limits<uint64_t>::max()));
}

std::string
FormatDuration(int64_t ns)
{
    if (ns < 0)
    {
        // Negate in unsigned arithmetic: -INT64_MIN does not fit in int64_t.
        return "-" + Format(0 - static_cast<uint64_t>(ns), kDurationUnits, 1);
    }
    return Format(static_cast<uint64_t>(ns), kDurationUnits, 1);
}

std::string
FormatRate(uint64_t bps)
{
    return Format(bps, kRateUnits, 0);
}

std::string
FormatSize(uint64_t bytes)
{
    // Prefer binary units when they fit exactly, as buffer sizes usually are.
    constexpr std::array<Unit, 4> binary{{{"B", 1},
                                          {"KiB", 1024.0L},
                                          {"MiB", 1024.0L * 1024},
                                          {"GiB", 1024.0L * 1024 * 1024}}};
    if (bytes >= 1024 && bytes % 1024 == 0)
    {
        return Format(bytes, binary, 0);
    }
    return Format(bytes, kSizeUnits, 0);
}

} // namespace incsim
