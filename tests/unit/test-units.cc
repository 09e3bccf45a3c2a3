#include "sim/core/units.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <optional>

using incsim::FormatDuration;
using incsim::FormatRate;
using incsim::FormatSize;
using incsim::ParseDurationNs;
using incsim::ParseRateBps;
using incsim::ParseSizeBytes;

TEST_CASE("durations parse into whole nanoseconds", "[units]")
{
    CHECK(ParseDurationNs("0ns") == 0);
    CHECK(ParseDurationNs("1ns") == 1);
    CHECK(ParseDurationNs("1us") == 1000);
    CHECK(ParseDurationNs("0.5us") == 500);
    CHECK(ParseDurationNs("1.5ms") == 1500000);
    CHECK(ParseDurationNs("2s") == 2000000000);
    CHECK(ParseDurationNs("0.001s") == 1000000);
    CHECK(ParseDurationNs("1000ps") == 1);
    CHECK(ParseDurationNs("12.345us") == 12345);
    // Up to 10^6 s: time is counted in int64 picoseconds, and the largest int64 of nanoseconds
    // overflowed when converted.
    CHECK(ParseDurationNs("1000000s") == incsim::kMaxDurationNs);
    CHECK(ParseDurationNs("1000000000000000ns") == incsim::kMaxDurationNs);
    CHECK_FALSE(ParseDurationNs("1000000000000001ns"));
    CHECK_FALSE(ParseDurationNs("9223372036854775807ns"));
}

TEST_CASE("durations reject anything but a non-negative whole ns with a unit", "[units]")
{
    const char* bad[] = {
        "fast",   "",      "5",       "us",     "-1us",    "+1us",   "1.5ns", "1500ps",
        "0.1ns",  "1e3ns", " 1us",    "1us ",   "1 us",    "1.2.3us", "1US",  "1sec",
        "1000000.5ns", "9223372036854775808ns", "10000000000s", "0.0000000001s",
    };
    for (const char* text : bad)
    {
        INFO(text);
        CHECK_FALSE(ParseDurationNs(text).has_value());
    }
}

TEST_CASE("rates parse into bits per second", "[units]")
{
    CHECK(ParseRateBps("100Gbps") == 100000000000ULL);
    CHECK(ParseRateBps("1.5Gbps") == 1500000000ULL);
    CHECK(ParseRateBps("10Mbps") == 10000000ULL);
    CHECK(ParseRateBps("1Tbps") == 1000000000000ULL);
    CHECK(ParseRateBps("64Kbps") == 64000ULL);
    CHECK(ParseRateBps("0bps") == 0ULL);
    CHECK(ParseRateBps("18446744073709551615bps") == std::numeric_limits<uint64_t>::max());
    CHECK_FALSE(ParseRateBps("100gbps"));
    CHECK_FALSE(ParseRateBps("100Gb/s"));
    CHECK_FALSE(ParseRateBps("100"));
    CHECK_FALSE(ParseRateBps("0.5bps"));
    CHECK_FALSE(ParseRateBps("-1Gbps"));
    CHECK_FALSE(ParseRateBps("18446744073709551616bps"));
}

TEST_CASE("sizes parse into bytes, decimal and binary", "[units]")
{
    CHECK(ParseSizeBytes("64KiB") == 65536ULL);
    CHECK(ParseSizeBytes("1500B") == 1500ULL);
    CHECK(ParseSizeBytes("1KB") == 1000ULL);
    CHECK(ParseSizeBytes("1MB") == 1000000ULL);
    CHECK(ParseSizeBytes("1.5KiB") == 1536ULL);
    CHECK(ParseSizeBytes("4MiB") == 4194304ULL);
    CHECK(ParseSizeBytes("2GiB") == 2147483648ULL);
    CHECK_FALSE(ParseSizeBytes("0.5B"));
    CHECK_FALSE(ParseSizeBytes("1.1KiB")); // 1126.4 bytes
    CHECK_FALSE(ParseSizeBytes("64kib"));
    CHECK_FALSE(ParseSizeBytes("64"));
}

TEST_CASE("formatting picks the largest exact unit", "[units]")
{
    CHECK(FormatDuration(0) == "0ns");
    CHECK(FormatDuration(1500) == "1500ns");
    CHECK(FormatDuration(3000) == "3us");
    CHECK(FormatDuration(1500000) == "1500us");
    CHECK(FormatDuration(2000000000) == "2s");
    CHECK(FormatDuration(-5000) == "-5us");
    CHECK(FormatDuration(std::numeric_limits<int64_t>::min()) == "-9223372036854775808ns");
    CHECK(FormatRate(0) == "0bps");
    CHECK(FormatRate(100000000000ULL) == "100Gbps");
    CHECK(FormatRate(1500000000ULL) == "1500Mbps");
    CHECK(FormatSize(0) == "0B");
    CHECK(FormatSize(1500) == "1500B");
    CHECK(FormatSize(1000) == "1KB");
    CHECK(FormatSize(65536) == "64KiB");
    CHECK(FormatSize(4194304) == "4MiB");
}

TEST_CASE("format and parse round-trip", "[units]")
{
    const int64_t durations[] = {0, 1, 999, 1000, 1001, 400, 2000, 1000000, 123456789,
                                 1000000000, 3600000000000LL, incsim::kMaxDurationNs};
    for (int64_t ns : durations)
    {
        INFO(ns);
        CHECK(ParseDurationNs(FormatDuration(ns)) == ns);
    }
    const uint64_t counts[] = {0,       1,       999,     1000,           1024,
                               1536,    65536,   1000000, 1048576,        100000000000ULL,
                               std::numeric_limits<uint64_t>::max()};
    for (uint64_t n : counts)
    {
        INFO(n);
        CHECK(ParseRateBps(FormatRate(n)) == n);
        CHECK(ParseSizeBytes(FormatSize(n)) == n);
    }
}

TEST_CASE("refused quantities say why", "[units]")
{
    using incsim::DurationProblem;
    using incsim::RateProblem;
    using incsim::SizeProblem;
    // Picoseconds parse when they come to whole nanoseconds.
    CHECK(ParseDurationNs("3000ps") == 3);
    CHECK(ParseDurationNs("1ps") == std::nullopt);
    CHECK(DurationProblem("1ps") == "not a whole number of nanoseconds (scenario durations have "
                                    "nanosecond resolution; \"1000ps\" is 1ns)");
    CHECK(DurationProblem("0.5ns") == DurationProblem("1ps"));
    CHECK(DurationProblem("5usec") == "unknown unit \"usec\" (known: ps, ns, us, ms, s)");
    CHECK(DurationProblem("1000001s") == "too large (at most 1000000s)");
    CHECK(DurationProblem(std::string(30, '9') + "ns") ==
          "too large (at most 1000000s)");
    CHECK(RateProblem("1.5bps") == "not a whole number of bits per second");
    CHECK(RateProblem("10gbps") ==
          "unknown unit \"gbps\" (known: bps, Kbps, Mbps, Gbps, Tbps)");
    CHECK(SizeProblem("0.5B") == "not a whole number of bytes");
    // Nothing to explain: accepted, or not a number followed by a unit at all.
    CHECK(DurationProblem("1us").empty());
    CHECK(DurationProblem("fast").empty());
    CHECK(SizeProblem("64KiB").empty());
}
