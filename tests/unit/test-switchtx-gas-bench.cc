// Fig. 11's GaS microbenchmark (`workload.kind: gas`, docs/switchtx.md "Fig. 11"): on both
// routes (in-server, in-switch) and both testbed layouts, every operation completes exactly
// once per participant and no participant leaves the barrier before all arrived; a switch
// that scatters early breaks that and the measurement sees it; bad input is refused.

#include "test-support.h"

#include "protocols/switchtx/gas-workload.h"
#include "protocols/switchtx/switchtx-checker.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

using namespace incsim;
using namespace incsim::test;

namespace
{

std::string
GasScenario(const std::string& coordination, const std::string& layout, uint32_t n)
{
    return fmt::format(R"({{
  "name": "gas-bench-test",
  "seed": 1,
  "duration": "300us",
  "topology": {{"generator": "switchtx-testbed", "params": {{"layout": "{}", "servers": 8}}}},
  "links": {{"rate": "100Gbps", "delay": "500ns"}},
  "hosts": {{"cores": 24}},
  "protocol": {{"name": "switchtx",
               "params": {{"coordination": "{}", "threads": 6, "mpl": 1}}}},
  "workload": {{"kind": "gas", "servers_per_op": {}, "stop": "150us"}},
  "outputs": {{"traces": ["txn_log", "txn_client"]}}
}})",
                       layout, coordination, n);
}

double
Gas(const RunSummary& run, const char* name)
{
    return run.metrics["switchtx"]["gas"][name].get<double>();
}

} // namespace

TEST_CASE("GaS microbenchmark: every operation completes once per participant, after all "
          "arrived",
          "[switchtx-gas-bench]")
{
    InitIncsim();
    for (const char* coordination : {"in-server", "switch"})
    {
        for (const char* layout : {"single", "multi"})
        {
            for (uint32_t n : {2u, 5u, 8u})
            {
                INFO(coordination << " | " << layout << " | n = " << n);
                TempDir dir;
                const RunSummary run = RunIn(dir, GasScenario(coordination, layout, n));
                const double ops = Gas(run, "operations");
                // 48 threads, one operation at a time each, for 150 us; with the calibrated
                // CPU costs (cpu_execute 9.5 us) an operation takes about 25-35 us.
                CHECK(ops >= 48 * 3);
                // The clients drain after the stop: every operation's scatter reached each of
                // its n participants exactly once.
                CHECK(Gas(run, "completed") == ops);
                CHECK(Gas(run, "receipts") == ops * n);
                CHECK(Gas(run, "surplus") == 0);
                CHECK(Gas(run, "early") == 0);
                CHECK(Gas(run, "servers_per_op") == n);
                CHECK(Gas(run, "latency_p50_us") > 0);
                CHECK(Gas(run, "latency_p99_us") >= Gas(run, "latency_p50_us"));
                // Each operation is one read-only transaction that commits the first time.
                const nlohmann::json& m = run.metrics["switchtx"];
                CHECK(m["committed"].get<double>() == ops);
                CHECK(m["attempts"].get<double>() == ops);
                CHECK(m["timeouts"].get<double>() == 0);
                const CheckReport report = switchtx::CheckRun(run.runDir);
                INFO(ViolationText(report));
                CHECK(report.violations.empty());
            }
        }
    }
}

TEST_CASE("GaS microbenchmark: a participant's message that outruns its init at a tree switch "
          "installs the operation there, and nothing waits for the timeout",
          "[switchtx-gas-bench]")
{
    InitIncsim();
    // Fig. 11's multi-switch configuration at n = 8 (8 x 24 threads): the init of an operation
    // climbs to the core and comes back down to the client's rack, while the plan goes to a
    // participant in that rack directly, so its version_copy_ok can reach the rack switch
    // first (the init queues on the core's downlink behind the other racks' data). Every
    // operation started by 100 us completes well before the 500 us timeout, or not at all.
    // At 50 Gbps: since data messages carry no slices (TYPE_RC), 100 Gbps links queue too
    // little for the race to happen here.
    TempDir dir;
    const RunSummary run =
        RunIn(dir, GasScenario("switch", "multi", 8),
              {"protocol.params.threads=24", "workload.stop=\"100us\"", "links.rate=\"50Gbps\"",
               "outputs.traces=[\"txn_log\",\"txn_client\",\"switchtx_gas\"]"});
    const nlohmann::json& m = run.metrics["switchtx"];
    const nlohmann::json& events = m["switch_events"];
    INFO(m.dump());
    // The race happens: messages reached a switch before their operation's init ...
    CHECK(events["installed_early"].get<double>() > 0);
    // ... and no live operation's message is dropped (every operation here is live: it commits
    // at its first attempt, so nothing is legitimately stale), none times out.
    CHECK(events["dropped_stale"].get<double>() == 0);
    CHECK(m["timeouts"].get<double>() == 0);
    CHECK(Gas(run, "completed") == Gas(run, "operations"));
    CHECK(Gas(run, "receipts") == Gas(run, "operations") * 8);
    CHECK(Gas(run, "early") == 0);
    CHECK(Gas(run, "surplus") == 0);
    const CheckReport report = switchtx::CheckRun(run.runDir);
    INFO(ViolationText(report));
    CHECK(report.violations.empty());
}

TEST_CASE("GaS microbenchmark: a switch that scatters before the threshold breaks the barrier",
          "[switchtx-gas-bench]")
{
    InitIncsim();
    for (const char* layout : {"single", "multi"})
    {
        INFO(layout);
        TempDir dir;
        // 24 threads: at 6, since data messages carry no slices (TYPE_RC), a single switch's
        // participants all send before an early scatter reaches them.
        const RunSummary run =
            RunIn(dir, GasScenario("switch", layout, 8),
                  {"protocol.params.switch_mode=\"broken-early-scatter\"",
                   "protocol.params.threads=24"});
        // Participants leave before the others arrived (and some take a scatter before
        // their plan, so their operation never completes as measured).
        CHECK(Gas(run, "early") > 0);
        CHECK(Gas(run, "completed") < Gas(run, "operations"));
    }
}

TEST_CASE("GaS microbenchmark: latency grows with the servers per operation and across racks",
          "[switchtx-gas-bench]")
{
    InitIncsim();
    for (const char* coordination : {"in-server", "switch"})
    {
        INFO(coordination);
        TempDir a, b, c;
        const double single2 = Gas(RunIn(a, GasScenario(coordination, "single", 2)),
                                   "latency_p50_us");
        const double single8 = Gas(RunIn(b, GasScenario(coordination, "single", 8)),
                                   "latency_p50_us");
        const double multi8 = Gas(RunIn(c, GasScenario(coordination, "multi", 8)),
                                  "latency_p50_us");
        CHECK(single8 > single2);
        CHECK(multi8 > single8);
    }
}

TEST_CASE("GaS microbenchmark: runs are byte-identical for a seed", "[switchtx-gas-bench]")
{
    InitIncsim();
    TempDir a, b;
    const RunSummary first = RunIn(a, GasScenario("switch", "multi", 5));
    const RunSummary second = RunIn(b, GasScenario("switch", "multi", 5));
    CHECK(first.metrics["switchtx"].dump() == second.metrics["switchtx"].dump());
    CHECK(ReadFile(a.File("txn_client.csv")) == ReadFile(b.File("txn_client.csv")));
}

TEST_CASE("GaS microbenchmark: bad input is refused", "[switchtx-gas-bench][config]")
{
    InitIncsim();
    TempDir dir;
    CHECK_THROWS_WITH(RunIn(dir, GasScenario("fasst", "multi", 4)),
                      Catch::Contains("/workload/kind") && Catch::Contains("in-server or switch"));
    CHECK_THROWS_WITH(RunIn(dir, GasScenario("eris", "multi", 4)),
                      Catch::Contains("/workload/kind"));
    CHECK_THROWS_WITH(RunIn(dir, GasScenario("switch", "multi", 9)),
                      Catch::Contains("/workload/servers_per_op") &&
                          Catch::Contains("9 servers per operation") &&
                          Catch::Contains("8 servers"));
    CHECK_THROWS_WITH(RunIn(dir, GasScenario("switch", "multi", 1)),
                      Catch::Contains("/workload/servers_per_op"));
    CHECK_THROWS_WITH(RunIn(dir, GasScenario("switch", "multi", 4),
                            {"workload.kind=\"ycsbt\""}),
                      Catch::Contains("/workload/servers_per_op") &&
                          Catch::Contains("only the gas workload"));
}

TEST_CASE("GasOps counts a barrier's receipts, surplus and early leavers", "[switchtx-gas-bench]")
{
    switchtx::GasOps ops;
    ops.Sent(7, 1, 100);
    ops.Sent(7, 1, 150);
    ops.Taken(7, 1, 2, 400);  // both arrived: on time
    ops.Taken(7, 1, 2, 500);  // the second participant: complete, 400 ps after the first send
    ops.Taken(7, 1, 2, 600);  // a third copy for two participants
    ops.Sent(7, 2, 1000);
    ops.Taken(7, 2, 2, 1100);  // before the other participant arrived
    ops.Taken(8, 1, 2, 1200);  // no gather message at all
    CHECK(ops.Operations() == 3);
    CHECK(ops.Completed() == 1);
    CHECK(ops.Receipts() == 5);
    CHECK(ops.Surplus() == 2);
    CHECK(ops.Early() == 1);
    REQUIRE(ops.LatenciesPs().size() == 1);
    CHECK(ops.LatenciesPs()[0] == 400);
}
