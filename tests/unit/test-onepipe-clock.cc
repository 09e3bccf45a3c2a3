// 1Pipe's timestamp clocks: causality for a host that rejoins (Lamport's rule on received
// barriers), and the logical clock's rate feedback and beacon timing, which must keep latency
// bounded and one beacon per interval on every incarnation.

#include "onepipe-test-support.h"
#include "test-support.h"

#include "sim/trace/csv-reader.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace incsim;
using namespace incsim::test;

namespace
{
/// Mean delivery latency (us) of the deliveries between `fromNs` and `toNs`.
double
MeanLatencyUs(const RunSummary& run, int64_t fromNs, int64_t toNs)
{
    CsvReader csv(run.runDir + "/onepipe_deliveries.csv", {"deliver_ns", "latency_ns"});
    const size_t at = csv.Column("deliver_ns"), latency = csv.Column("latency_ns");
    double sum = 0;
    uint64_t count = 0;
    while (csv.Next())
    {
        if (csv.Int(at) >= fromNs && csv.Int(at) < toNs)
        {
            sum += static_cast<double>(csv.Int(latency));
            ++count;
        }
    }
    REQUIRE(count > 0);
    return sum / static_cast<double>(count) / 1000;
}
} // namespace

TEST_CASE("A host that rejoins after a link failure keeps causality with either clock",
          "[onepipe][checker][logical-clock]")
{
    InitIncsim();
    // A host's access link is down from 100 to 250 us: its switch port times out, and the
    // barriers the host receives after it returns no longer wait for its clock. A clock behind
    // the others then delivered timestamps above itself and sent below what it had delivered.
    // Lamport's rule (the clock passes every barrier received) restores causality, on every
    // incarnation. Two clocks behind: the issue's case, h2 with unsynchronised logical clocks,
    // and physical clocks 20 us apart, where seed 4 puts h6 9 us behind every other host,
    // more than the chip's barriers lag: there the rule must have raised h6's clock.
    struct Case
    {
        const char* clock;
        const char* host;
        const char* edge;
        const char* offset;
        int seed;
        bool raisedOnChip;
    };
    const Case cases[] = {{"logical", "h2", "e0_1", "300ns", 1, false},
                          {"physical", "h2", "e0_1", "300ns", 1, false},
                          {"logical", "h6", "e1_1", "20us", 4, false},
                          {"physical", "h6", "e1_1", "20us", 4, true}};
    for (const Case& c : cases)
    {
        for (const char* incarnation : {"chip", "switch-cpu", "host-representative"})
        {
            const std::string faults = fmt::format(
                R"("faults": [{{"at": "100us", "action": "link_down", "link": ["{0}", "{1}"]}},
                              {{"at": "250us", "action": "link_up", "link": ["{0}", "{1}"]}}],)",
                c.host, c.edge);
            TempDir dir;
            RunSummary run = RunIn(
                dir,
                OnePipeScenario(kFatTree4,
                                fmt::format(R"("clock": "{}", "incarnation": "{}",
                                               "ack_timeout": "50us")",
                                            c.clock, incarnation),
                                R"("pattern": "broadcast", "interval": "10us")", faults),
                {"duration=500us", "switch.cpu_service_time=300ns", fmt::format("seed={}", c.seed),
                 fmt::format("clocks.offset.min=-{}", c.offset),
                 fmt::format("clocks.offset.max={}", c.offset)});
            INFO(c.clock << " clock, " << c.host << " rejoins, offsets +-" << c.offset << ", "
                         << incarnation);
            const CheckReport report = CheckOnePipeRun(run);
            INFO(ViolationText(report));
            CHECK(report.Ok());
            CHECK(OnePipeMetric(run, "messages_delivered") > 8000);
            if (c.raisedOnChip && std::string(incarnation) == "chip")
            {
                CHECK(OnePipeMetric(run, "clock_raises") > 0);
            }
        }
    }
}

TEST_CASE("The logical clock keeps latency bounded and one beacon per interval",
          "[onepipe][latency][logical-clock]")
{
    InitIncsim();
    // The idle setting of the paper's Sec. 7.2 (a unicast per process every 50 us, 3 us
    // beacons) for 2 ms with logical clocks. Hosts beacon at multiples of the interval on
    // their logical clock: one per interval, whatever the clock's rate. The rate feedback
    // keeps the clocks together, so latency stays near the physical clock's (9.8 us on the
    // chip, 14.4 us with a 300 ns switch CPU) instead of growing: the second half of the run
    // must be no slower than the first plus 3 us, and (nearly) everything is delivered.
    for (const char* incarnation : {"chip", "switch-cpu"})
    {
        TempDir dir;
        RunSummary run =
            RunIn(dir,
                  OnePipeScenario(kFatTree4,
                                  fmt::format(R"("clock": "logical", "incarnation": "{}")",
                                              incarnation),
                                  R"("pattern": "unicast", "interval": "50us")"),
                  {"duration=2ms", "switch.cpu_service_time=300ns"});
        INFO(incarnation);
        const CheckReport report = CheckOnePipeRun(run);
        INFO(ViolationText(report));
        CHECK(report.Ok());
        // Every host is in the barrier, which is a minimum over its own past timestamps:
        // Lamport's rule never has to raise a clock.
        CHECK(OnePipeMetric(run, "clock_raises") == 0);
        const double rounds = 16 * 2000.0 / 3.0; // hosts x duration / interval
        CHECK(OnePipeMetric(run, "host_beacons") > 0.97 * rounds);
        CHECK(OnePipeMetric(run, "host_beacons") < 1.03 * rounds);
        CHECK(OnePipeMetric(run, "delivery_ratio") > 0.97);
        CHECK(OnePipeMetric(run, "latency_mean_us") < 25);
        const double firstHalf = MeanLatencyUs(run, 0, 1000000);
        const double secondHalf = MeanLatencyUs(run, 1000000, 2000000);
        INFO("mean latency " << firstHalf << " us, then " << secondHalf << " us");
        CHECK(secondHalf < firstHalf + 3);
    }
}
