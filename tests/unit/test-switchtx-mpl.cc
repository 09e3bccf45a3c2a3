// SwitchTx's admission control (+MPL, §3.4.2): Listing 1's state machine branch by branch,
// and dynamic MPL in runs: it grows and holds under contention, falls to 1 when attempts time
// out, and stays checker-clean and deterministic.

#include "test-support.h"

#include "protocols/switchtx/admission-control.h"
#include "protocols/switchtx/switchtx-checker.h"
#include "sim/trace/csv-reader.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace incsim;
using namespace incsim::test;
using incsim::switchtx::AdmissionControl;
using Branch = AdmissionControl::Branch;

TEST_CASE("Listing 1 starts at MPL 1, restarting, with slow_start at MAXMPL / 2", "[switchtx-mpl]")
{
    const AdmissionControl control(16, 0.9);
    CHECK(control.Mpl() == 1);
    CHECK(control.Restarting());
    CHECK(control.SlowStart() == 8);
}

TEST_CASE("Listing 1 grows by doubling below slow_start and by one above it", "[switchtx-mpl]")
{
    AdmissionControl control(16, 0.9);
    // Restart branch: grows without looking at throughput (0 is not above 0.9 * 0).
    CHECK(control.EndEpoch(0, false) == Branch::Restart);
    CHECK_FALSE(control.Restarting());
    CHECK(control.Mpl() == 2);
    // Increase branch while T_i > alpha T_{i-1}, even when T falls by less than 10%.
    CHECK(control.EndEpoch(100, false) == Branch::Increase);
    CHECK(control.Mpl() == 4);
    CHECK(control.EndEpoch(95, false) == Branch::Increase);
    CHECK(control.Mpl() == 8);
    // At slow_start (8 is not below 8): additive.
    CHECK(control.EndEpoch(100, false) == Branch::Increase);
    CHECK(control.Mpl() == 9);
    CHECK(control.EndEpoch(120, false) == Branch::Increase);
    CHECK(control.Mpl() == 10);
    CHECK(control.SlowStart() == 8);
}

TEST_CASE("Listing 1 halves when throughput falls to alpha or below, then restarts",
          "[switchtx-mpl]")
{
    AdmissionControl control(16, 0.9);
    control.EndEpoch(0, false);    // restart: 2
    control.EndEpoch(100, false);  // 4
    control.EndEpoch(100, false);  // 8
    control.EndEpoch(100, false);  // 9
    REQUIRE(control.Mpl() == 9);
    // Exactly alpha T_{i-1} is not above it: multiplicative decrease, slow_start unchanged.
    CHECK(control.EndEpoch(90, false) == Branch::Decrease);
    CHECK(control.Mpl() == 4);
    CHECK(control.Restarting());
    CHECK(control.SlowStart() == 8);
    // The next epoch grows whatever the throughput (the restart branch).
    CHECK(control.EndEpoch(1, false) == Branch::Restart);
    CHECK(control.Mpl() == 8);
    CHECK_FALSE(control.Restarting());
}

TEST_CASE("Listing 1 resets to 1 on a loss, with slow_start at half the MPL", "[switchtx-mpl]")
{
    AdmissionControl control(16, 0.9);
    control.EndEpoch(0, false);    // 2
    control.EndEpoch(100, false);  // 4
    control.EndEpoch(100, false);  // 8
    control.EndEpoch(100, false);  // 9
    control.EndEpoch(100, false);  // 10
    REQUIRE(control.Mpl() == 10);
    // A loss wins over a rising throughput.
    CHECK(control.EndEpoch(1000, true) == Branch::Reset);
    CHECK(control.Mpl() == 1);
    CHECK(control.SlowStart() == 5);
    CHECK(control.Restarting());
    // Slow start again: doubling below 5, then +1.
    CHECK(control.EndEpoch(10, false) == Branch::Restart);
    CHECK(control.Mpl() == 2);
    CHECK(control.EndEpoch(20, false) == Branch::Increase);
    CHECK(control.Mpl() == 4);
    CHECK(control.EndEpoch(30, false) == Branch::Increase);
    CHECK(control.Mpl() == 8);
    CHECK(control.EndEpoch(40, false) == Branch::Increase);
    CHECK(control.Mpl() == 9);
    // A loss also wins over the restart branch; at MPL 1, slow_start is max(0, 1) = 1.
    control.EndEpoch(40, true);
    CHECK(control.EndEpoch(40, true) == Branch::Reset);
    CHECK(control.SlowStart() == 1);
    CHECK(control.Mpl() == 1);
    // slow_start 1: growth is additive from the start.
    CHECK(control.EndEpoch(40, false) == Branch::Restart);
    CHECK(control.Mpl() == 2);
    CHECK(control.EndEpoch(50, false) == Branch::Increase);
    CHECK(control.Mpl() == 3);
}

TEST_CASE("Listing 1 turns an MPL of 0 into 1 after halving 1", "[switchtx-mpl]")
{
    AdmissionControl control(16, 0.9);
    control.EndEpoch(10, true);  // reset: restarting at 1
    control.EndEpoch(10, false);  // restart: 2
    control.EndEpoch(10, false);  // increase: 4 (slow_start 1: +1, so 3)
    REQUIRE(control.Mpl() == 3);
    CHECK(control.EndEpoch(1, false) == Branch::Decrease);
    CHECK(control.Mpl() == 1);
    control.EndEpoch(1, false);  // restart: 2
    CHECK(control.EndEpoch(0, false) == Branch::Decrease);
    CHECK(control.Mpl() == 1);
    CHECK(control.EndEpoch(0, false) == Branch::Restart);
    CHECK(control.Mpl() == 2);
    // From 1, halving gives 0, which line 18 makes 1.
    AdmissionControl one(16, 0.9);
    one.EndEpoch(5, true);
    one.EndEpoch(5, false);  // 2
    one.EndEpoch(0, false);  // decrease: 1
    REQUIRE(one.Mpl() == 1);
    one.EndEpoch(0, false);  // restart: 2
    one.EndEpoch(9, false);  // increase: 3
    one.EndEpoch(0, false);  // decrease: 1
    one.EndEpoch(0, false);  // restart: 2
    REQUIRE(one.Mpl() == 2);
    CHECK(one.EndEpoch(0, false) == Branch::Decrease);
    CHECK(one.Mpl() == 1);
}

TEST_CASE("Listing 1's MPL never exceeds MAXMPL", "[switchtx-mpl]")
{
    AdmissionControl control(4, 0.9);
    control.EndEpoch(0, false);
    for (int epoch = 1; epoch < 10; ++epoch)
    {
        control.EndEpoch(100.0 * epoch, false);
        CHECK(control.Mpl() <= 4);
    }
    CHECK(control.Mpl() == 4);
}

namespace
{

/// The testbed (multi, in-switch tree GaS), 4 threads per server, YCSB-T with Zipf 0.99 (as
/// Fig. 13), dynamic admission with 100 us epochs; `extra` goes at the end of the scenario
/// object.
std::string
MplScenario(const std::string& params, const std::string& extra = "")
{
    return fmt::format(R"({{
  "name": "switchtx-mpl", "seed": 1, "duration": "5ms",
  "topology": {{"generator": "switchtx-testbed", "params": {{"layout": "multi"}}}},
  "links": {{"rate": "100Gbps", "delay": "500ns"}},
  "hosts": {{"cores": 8}},
  "protocol": {{"name": "switchtx",
               "params": {{"coordination": "switch", "threads": 4, "admission": "dynamic",
                          "mpl_epoch": "100us", "max_mpl": 16{}}}}},
  "workload": {{"kind": "ycsbt", "theta": 0.99, "records": 100000, "stop": "4ms"}},
  "outputs": {{"traces": ["txn_log", "txn_client", "switchtx_mpl"], "progress": "never"}}{}
}})",
                       params, extra);
}

struct MplRow
{
    int64_t timeNs = 0;
    double throughput = 0;
    uint32_t mpl = 0;
    bool loss = false;
    std::string branch;
};

/// switchtx_mpl.csv by thread (host * threads + thread), in epoch order.
std::map<uint32_t, std::vector<MplRow>>
ReadMpl(const RunSummary& run, uint32_t threads)
{
    CsvReader log(run.runDir + "/switchtx_mpl.csv",
                  {"time_ns", "host", "thread", "epoch", "throughput", "loss", "branch", "mpl"});
    std::map<uint32_t, std::vector<MplRow>> rows;
    while (log.Next())
    {
        const auto id = static_cast<uint32_t>(log.Uint(log.Column("host")) * threads +
                                              log.Uint(log.Column("thread")));
        REQUIRE(log.Uint(log.Column("epoch")) == rows[id].size());
        rows[id].push_back(MplRow{log.Int(log.Column("time_ns")),
                                  std::stod(log.Text(log.Column("throughput"))),
                                  static_cast<uint32_t>(log.Uint(log.Column("mpl"))),
                                  log.Uint(log.Column("loss")) == 1,
                                  log.Text(log.Column("branch"))});
    }
    return rows;
}

/// Distinct attempts answered commit in txn_client.csv before `beforeNs`.
uint64_t
CommitsBefore(const RunSummary& run, int64_t beforeNs)
{
    CsvReader log(run.runDir + "/txn_client.csv", {"client", "attempt", "event", "time_ns"});
    std::set<std::pair<uint64_t, uint64_t>> commits;
    while (log.Next())
    {
        if (log.Text(log.Column("event")) == "commit" && log.Int(log.Column("time_ns")) < beforeNs)
        {
            commits.emplace(log.Uint(log.Column("client")), log.Uint(log.Column("attempt")));
        }
    }
    return commits.size();
}

} // namespace

TEST_CASE("Dynamic MPL grows past the static baseline and holds there under contention",
          "[switchtx-mpl][checker][trend]")
{
    InitIncsim();
    const int seed = GENERATE(take(2, random(1, 1000000)));
    INFO("seed " << seed);
    TempDir dir;
    const RunSummary run = RunIn(dir, MplScenario(""), {fmt::format("seed={}", seed)});
    const CheckReport report = switchtx::CheckRun(run.runDir);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    const nlohmann::json& metrics = run.metrics.at("switchtx");
    const bool anyTimeout = metrics.at("timeouts").get<uint64_t>() > 0;
    const auto rows = ReadMpl(run, 4);
    REQUIRE(rows.size() == 32);
    const auto truth = static_cast<double>(CommitsBefore(run, 4'000'000));
    for (const auto& [thread, epochs] : rows)
    {
        INFO("thread " << thread);
        // 4 ms of clients, 100 us epochs: 40 epochs (the last one ends at the stop).
        REQUIRE(epochs.size() == 40);
        uint32_t peak = 0;
        double secondHalf = 0;
        for (size_t e = 0; e < epochs.size(); ++e)
        {
            // Listing 1 resets exactly in the epochs where one of the thread's attempts timed
            // out, and never beyond MAXMPL.
            CHECK((epochs[e].branch == "reset") == epochs[e].loss);
            CHECK((!epochs[e].loss || anyTimeout));
            CHECK(epochs[e].mpl <= 16);
            peak = std::max(peak, epochs[e].mpl);
            secondHalf += e >= epochs.size() / 2 ? epochs[e].mpl : 0;
        }
        // It grows past the static baseline (2) and holds above it.
        CHECK(peak >= 4);
        CHECK(secondHalf / (epochs.size() / 2) > 2);
        // The global throughput it saw: its own server's commits exactly and the others' as
        // their control messages said, which trail the truth but never exceed it. Over the
        // run, that adds up to most of the commits.
        double seen = 0;
        for (const MplRow& row : epochs)
        {
            seen += row.throughput * 100e-6;
        }
        CHECK(seen <= truth + 1e-6);
        CHECK(seen >= 0.75 * truth);
    }
    CHECK(metrics.at("mpl").at("mean").get<double>() > 2);
    CHECK(metrics.at("mpl").at("epochs").get<uint64_t>() == 32 * 40);
}

TEST_CASE("Dynamic MPL falls to 1 when attempts time out, and grows again after",
          "[switchtx-mpl][checker][loss]")
{
    InitIncsim();
    // Every control message is lost for 300 us from 2 ms on (the rack-core cables and the
    // rack-server links, both ways): every attempt in flight times out after 100 us.
    std::string faults = R"(,
  "faults": [)";
    for (const char* link : {R"(["core", "rack0"])", R"(["core", "rack1"])",
                             R"(["core", "rack2"])"})
    {
        faults += fmt::format(R"({{"at": "2ms", "action": "loss_rate", "link": {}, "rate": 1}},)",
                              link);
    }
    faults += R"({"at": "2300us", "action": "loss_rate", "rate": 0}])";
    TempDir dir;
    const RunSummary run = RunIn(dir, MplScenario(R"(, "timeout": "100us")", faults));
    const CheckReport report = switchtx::CheckRun(run.runDir);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(run.metrics.at("switchtx").at("timeouts").get<uint64_t>() > 0);
    const auto rows = ReadMpl(run, 4);
    uint32_t threadsReset = 0;
    for (const auto& [thread, epochs] : rows)
    {
        INFO("thread " << thread);
        for (size_t e = 0; e < epochs.size(); ++e)
        {
            // Every epoch with a loss resets to 1, and only such epochs.
            CHECK((epochs[e].branch == "reset") == epochs[e].loss);
            if (epochs[e].loss)
            {
                CHECK(epochs[e].mpl == 1);
            }
        }
        bool reset = false;
        bool regrown = false;
        for (const MplRow& row : epochs)
        {
            reset = reset || (row.loss && row.timeNs >= 2'000'000 && row.timeNs <= 2'600'000);
            regrown = regrown || (row.timeNs > 2'600'000 && row.mpl > 1);
        }
        threadsReset += reset ? 1 : 0;
        // After the loss, with the cables back, it grows again.
        CHECK(regrown);
    }
    // Nearly every thread saw the loss (8-partition transactions over 3 racks all cross the
    // core; a thread whose attempts were all in the execute phase, over RC, times nothing out).
    CHECK(threadsReset >= rows.size() * 3 / 4);
}

TEST_CASE("Dynamic MPL runs are deterministic", "[switchtx-mpl]")
{
    InitIncsim();
    TempDir a;
    TempDir b;
    const RunSummary first = RunIn(a, MplScenario(""));
    const RunSummary second = RunIn(b, MplScenario(""));
    CHECK(ReadFile(first.runDir + "/switchtx_mpl.csv") ==
          ReadFile(second.runDir + "/switchtx_mpl.csv"));
    CHECK(ReadFile(first.runDir + "/txn_client.csv") ==
          ReadFile(second.runDir + "/txn_client.csv"));
}

TEST_CASE("Dynamic admission's bad inputs are refused with their path", "[switchtx-mpl]")
{
    InitIncsim();
    TempDir dir;
    // 8 hosts x 4096 threads x 16 client slots do not fit the 16-bit slot ids.
    CHECK_THROWS_WITH(RunIn(dir, MplScenario(""), {"protocol.params.threads=4096"}),
                      Catch::Contains("/protocol/params/max_mpl") &&
                          Catch::Contains("client slots"));
    CHECK_THROWS_WITH(RunIn(dir, MplScenario(""), {"protocol.params.coordination=eris"}),
                      Catch::Contains("/protocol/params/admission") &&
                          Catch::Contains("static MPL"));
}
