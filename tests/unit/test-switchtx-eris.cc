// The Eris baseline on SwitchTx's hosts (docs/switchtx.md, "Baselines: Eris"): runs on the
// testbed pass every property of the transaction checker, with and without loss (gaps,
// retransmissions, NO-OPs); the limits are clear errors; the software sequencer caps
// throughput; the failure coordinator's decisions; same seed, same bytes.

#include "test-support.h"

#include "protocols/switchtx/baselines/eris-cluster.h"
#include "protocols/switchtx/switchtx-checker.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <set>
#include <string>

using namespace incsim;
using namespace incsim::test;

namespace
{

std::string
ErisScenario(const std::string& coordination, const std::string& layout, uint32_t threads,
             double loss, const std::string& extra = "")
{
    return fmt::format(R"({{
  "name": "eris-test",
  "seed": 1,
  "duration": "4ms",
  "topology": {{"generator": "switchtx-testbed", "params": {{"layout": "{}", "servers": 8}}}},
  "links": {{"rate": "100Gbps", "delay": "500ns", "loss": {}}},
  "hosts": {{"cores": 24}},
  "protocol": {{"name": "switchtx",
               "params": {{"coordination": "{}", "threads": {}, "mpl": 2}}}},
  "workload": {{"kind": "ycsbt", "theta": 0.8, "records": 1000, "stop": "500us"}},
  "outputs": {{"traces": ["txn_log", "txn_client"]}}{}
}})",
                       layout, loss, coordination, threads, extra);
}

double
Metric(const RunSummary& run, const char* name)
{
    return run.metrics["switchtx"][name].get<double>();
}

/// Every property of the switchtx checker held.
void
CheckClean(const std::string& runDir)
{
    const CheckReport report = switchtx::CheckRun(runDir);
    INFO(ViolationText(report));
    CHECK(report.violations.empty());
    CHECK(report.passed.size() == 8);  // the history's six, replicas agree, gas delivers once
}

} // namespace

TEST_CASE("Eris runs pass the transaction checker on the testbed, with loss", "[switchtx-eris]")
{
    InitIncsim();
    for (const char* coordination : {"eris", "eris-server"})
    {
        for (const char* layout : {"multi", "single"})
        {
            for (double loss : {0.0, 0.005})
            {
                for (int seed : {3, 11})
                {
                    TempDir dir;
                    const RunSummary run = RunIn(dir, ErisScenario(coordination, layout, 5, loss),
                                                 {fmt::format("seed={}", seed)});
                    INFO(coordination << " | " << layout << " | loss " << loss << " | seed "
                                      << seed);
                    CheckClean(run.runDir);
                    // Clients drain after the stop: every transaction settled, none aborted.
                    CHECK(Metric(run, "committed") == Metric(run, "attempts"));
                    CHECK(Metric(run, "committed") > 100);
                    CHECK(Metric(run, "shards") == 40);
                    if (loss > 0)
                    {
                        // Lost copies leave gaps that the coordinator fills, lost replies
                        // and requests make clients resend, which shards take as duplicates.
                        CHECK(Metric(run, "gap_timeouts") > 0);
                        CHECK(Metric(run, "gaps_found") > 0);
                        CHECK(Metric(run, "client_retransmits") > 0);
                        CHECK(Metric(run, "duplicates") > 0);
                    }
                }
            }
        }
    }
}

TEST_CASE("Eris skips a transaction every copy of which was lost as a NO-OP everywhere",
          "[switchtx-eris]")
{
    InitIncsim();
    // Five times for 2 us every link below the sequencer loses everything: the copies then on
    // their way down reach no replica, so their stamps are NO-OPs at every destination; their
    // clients resend them, and they commit once, under new stamps. A loss takes both
    // directions, so only requests already past the racks when it starts are stamped and lost
    // (about one per microsecond at this load): one window may catch none.
    std::string faults = R"(,
  "faults": [)";
    for (int window = 0; window < 5; ++window)
    {
        const int at = 200 + 40 * window;
        for (const char* rack : {"rack0", "rack1", "rack2"})
        {
            faults += fmt::format(
                R"({{"at": "{}us", "action": "loss_rate", "link": ["core", "{}"], "rate": 1}},)",
                at, rack);
        }
        faults += fmt::format(R"({{"at": "{}us", "action": "loss_rate", "rate": 0}}{})", at + 2,
                              window < 4 ? "," : "]");
    }
    TempDir dir;
    const RunSummary run = RunIn(dir, ErisScenario("eris", "multi", 5, 0.0, faults));
    CheckClean(run.runDir);
    CHECK(Metric(run, "noops") > 0);
    CHECK(Metric(run, "client_retransmits") > 0);
    CHECK(Metric(run, "committed") == Metric(run, "attempts"));
}

TEST_CASE("The software sequencer's one thread caps Eris's throughput", "[switchtx-eris][trend]")
{
    InitIncsim();
    // §5.4: the emulated switch's single thread is the bottleneck. At 4 us of CPU per
    // transaction it sequences at most 250k per second, and 40 threads keep it busy (the
    // in-switch sequencer lets them run about 1M per second). Clients run to the end, so that
    // the throughput counts the commits of the whole run.
    TempDir dir;
    const RunSummary server =
        RunIn(dir, ErisScenario("eris-server", "multi", 5, 0.0),
              {"protocol.params.cpu_sequencer=\"4us\"", "workload.stop=\"4ms\""});
    const double cap = 1.0 / 4e-6;
    CHECK(Metric(server, "throughput_txn_per_s") <= cap);
    CHECK(Metric(server, "throughput_txn_per_s") >= 0.9 * cap);
    CHECK(Metric(server, "sequenced") >= Metric(server, "committed"));
    TempDir dir2;
    const RunSummary inSwitch =
        RunIn(dir2, ErisScenario("eris", "multi", 5, 0.0), {"workload.stop=\"4ms\""});
    CHECK(Metric(inSwitch, "throughput_txn_per_s") > 2 * cap);
}

TEST_CASE("Eris refuses what it cannot run", "[switchtx-eris][config]")
{
    InitIncsim();
    TempDir dir;
    // 8 servers x 6 threads = 48 shards: the header has 40 stamps.
    CHECK_THROWS_WITH(RunIn(dir, ErisScenario("eris", "multi", 6, 0.0)),
                      Catch::Contains("/protocol/params/threads") && Catch::Contains("48 shards") &&
                          Catch::Contains("at most 40"));
    CHECK_THROWS_WITH(RunIn(dir, ErisScenario("eris-server", "single", 24, 0.0)),
                      Catch::Contains("/protocol/params/threads") && Catch::Contains("at most 40"));
    CHECK_THROWS_WITH(RunIn(dir, ErisScenario("eris", "multi", 5, 0.0), {"workload.kind=\"tpcc\""}),
                      Catch::Contains("/workload/kind") && Catch::Contains("transaction chopping"));
    CHECK_THROWS_WITH(RunIn(dir, ErisScenario("eris", "multi", 5, 0.0),
                            {"protocol.params.fault=\"backup-skips-install\""}),
                      Catch::Contains("/protocol/params/fault"));
    CHECK_THROWS_WITH(RunIn(dir, ErisScenario("eris", "multi", 5, 0.0),
                            {"protocol.params.reorder=true"}),
                      Catch::Contains("/protocol/params/reorder"));
    CHECK_THROWS_WITH(RunIn(dir, ErisScenario("eris-server", "multi", 5, 0.0),
                            {"protocol.params.sequencer_server=\"core\""}),
                      Catch::Contains("/protocol/params/sequencer_server") &&
                          Catch::Contains("not a host"));
    CHECK_THROWS_WITH(RunIn(dir, ErisScenario("eris", "multi", 5, 0.0), {"workload.ops=37"}),
                      Catch::Contains("/workload/ops") && Catch::Contains("at most 36"));
    // 5 threads x 8 servers is exactly the limit.
    CHECK_NOTHROW(RunIn(dir, ErisScenario("eris", "multi", 5, 0.0), {"duration=\"50us\""}));
}

TEST_CASE("Eris runs are byte-identical for a seed", "[switchtx-eris][determinism]")
{
    InitIncsim();
    for (const char* coordination : {"eris", "eris-server"})
    {
        TempDir a;
        TempDir b;
        RunIn(a, ErisScenario(coordination, "multi", 5, 0.005), {"seed=7"});
        RunIn(b, ErisScenario(coordination, "multi", 5, 0.005), {"seed=7"});
        for (const char* file : {"metrics.json", "txn_log.csv", "txn_client.csv"})
        {
            INFO(coordination << " " << file);
            CHECK(ReadFile(a.File(file)) == ReadFile(b.File(file)));
        }
    }
}

TEST_CASE("Eris's failure coordinator: found if any destination has it, else NO-OP everywhere",
          "[switchtx-eris]")
{
    using namespace incsim::switchtx::eris;
    GapIndex index;
    index.Init(4);
    TxnMessage t;
    t.dests = 0b0101;  // shards 0 and 2
    t.slots = 3;
    t.stamps[0] = 1;
    t.stamps[2] = 5;

    // Nobody has shard 0's stamp 2 yet: a NO-OP, for good.
    CHECK(index.Decide(0, 2) == nullptr);
    TxnMessage late = t;
    late.stamps[0] = 2;
    late.stamps[2] = 6;
    CHECK(index.IsNoop(late));
    // A copy that comes after the decision is dropped, and makes its other stamps NO-OPs.
    index.MarkNoop(late);
    CHECK(index.Decide(2, 6) == nullptr);

    // A replica of shard 0 received t: shard 2's replicas missing stamp 5 recover it.
    CHECK_FALSE(index.IsNoop(t));
    index.Received(t);
    const auto found = index.Decide(2, 5);
    REQUIRE(found != nullptr);
    CHECK(found->stamps[0] == 1);
    CHECK(found->stamps[2] == 5);
    CHECK(index.Decide(0, 1) == found);
    CHECK_FALSE(index.IsNoop(t));

    // Once every replica of shard 2 is past stamp 6, the index forgets it.
    index.Advance(2, 7);
    CHECK(index.Decide(2, 5) == nullptr);
}
