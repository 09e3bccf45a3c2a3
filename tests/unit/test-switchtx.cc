// SwitchTx on the hosts (protocols/switchtx): every coordination mode and workload runs
// serializable on random seeds, with and without loss; runs are deterministic; the checker
// catches broken hosts; a commit_ok lost after the serialization point still commits
// everywhere; bad parameters are refused with their path.

#include "switchtx-test-support.h"
#include "test-support.h"

#include "protocols/switchtx/switchtx-checker.h"
#include "protocols/switchtx/switchtx-cluster.h"
#include "sim/core/diagnostics.h"
#include "sim/net/headers.h"
#include "sim/trace/csv-reader.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

/// The placeholder CPU costs from before the calibration (docs/switchtx.md "Calibration"),
/// a few times faster than the calibrated ones: these functional tests need many
/// transactions and contention in a short window, not the paper's speed.
const char* const kFastCpu =
    R"(, "cpu_execute": "1us", "cpu_read": "300ns", "cpu_lock": "400ns", "cpu_validate": "300ns",
       "cpu_commit_backup": "300ns", "cpu_commit_primary": "300ns", "cpu_abort": "200ns",
       "cpu_gather": "200ns", "cpu_reply": "200ns")";

/// The testbed's 8 servers in 3 racks, 2 threads of MPL 2 each; 1 ms of transactions, then
/// 1.5 ms (three timeouts) to settle.
std::string
TxScenario(const std::string& coordination, const std::string& workload, double loss = 0,
         const std::string& extraParams = "")
{
    return fmt::format(R"({{
  "name": "switchtx-test", "seed": 1, "duration": "2500us",
  "topology": {{"generator": "switchtx-testbed", "params": {{"layout": "multi"}}}},
  "links": {{"rate": "100Gbps", "delay": "500ns", "loss": {}}},
  "hosts": {{"cores": 4}},
  "protocol": {{"name": "switchtx",
               "params": {{"coordination": "{}", "threads": 2, "mpl": 2{}{}}}}},
  "workload": {{{}, "stop": "1ms"}},
  "outputs": {{"traces": ["txn_log", "txn_client", "switchtx_gas"], "progress": "never"}}
}})",
                       loss, coordination, kFastCpu, extraParams, workload);
}

const char* const kYcsbt = R"("kind": "ycsbt", "theta": 0.8, "records": 1000)";
const char* const kYcsbtHot = R"("kind": "ycsbt", "theta": 0.99, "records": 50)";
/// Mostly reads (43% of transactions read-only) under contention, and one partition per
/// transaction (the single-shard path).
const char* const kYcsbtReads = R"("kind": "ycsbt", "theta": 0.99, "records": 200, "reads": 0.9)";
const char* const kYcsbtOneShard =
    R"("kind": "ycsbt", "theta": 0.99, "records": 100, "partitions_per_txn": 1, "ops": 4)";
const char* const kTpcc = R"("kind": "tpcc", "warehouses_per_server": 1, "items": 1000,
                              "customers": 100, "remote_items": 0.5)";

CheckReport
Check(const RunSummary& run)
{
    return switchtx::CheckRun(run.runDir);
}

} // namespace

TEST_CASE("SwitchTx runs are serializable in every coordination mode and workload",
          "[switchtx][checker]")
{
    InitIncsim();
    const std::string mode = GENERATE("fasst", "in-server");
    const std::string workload =
        GENERATE(as<std::string>{}, kYcsbt, kYcsbtHot, kYcsbtReads, kYcsbtOneShard, kTpcc);
    const bool reorder = GENERATE(false, true);
    const int seed = GENERATE(take(2, random(1, 1000000)));
    INFO(mode << " | " << workload << " | reorder " << reorder << " | seed " << seed);
    TempDir dir;
    const RunSummary run =
        RunIn(dir, TxScenario(mode, workload, 0, fmt::format(R"(, "reorder": {})", reorder)),
              {fmt::format("seed={}", seed)});
    const CheckReport report = Check(run);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(SwitchTxMetric(run, "committed") > 100);
    CHECK(SwitchTxMetric(run, "history_pending_at_end") == 0);
    // No loss: nothing times out.
    CHECK(SwitchTxMetric(run, "timeouts") == 0);
}

TEST_CASE("SwitchTx stays serializable under link loss, by timeouts and resolution",
          "[switchtx][checker][loss]")
{
    InitIncsim();
    const std::string mode = GENERATE("fasst", "in-server");
    const double loss = GENERATE(0.005, 0.01);
    const std::string workload = GENERATE(as<std::string>{}, kYcsbt, kTpcc);
    const int seed = GENERATE(take(1, random(1, 1000000)));
    INFO(mode << " | loss " << loss << " | " << workload << " | seed " << seed);
    TempDir dir;
    const RunSummary run = RunIn(dir, TxScenario(mode, workload, loss),
                                 {fmt::format("seed={}", seed)});
    const CheckReport report = Check(run);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(SwitchTxMetric(run, "committed") > 20);
    CHECK(SwitchTxMetric(run, "rc_retransmits") > 0);
    // Quiescent at the end: every validation's fate was settled.
    CHECK(SwitchTxMetric(run, "history_pending_at_end") == 0);
    if (mode == "in-server")
    {
        // Lost control messages: timeouts, each resolved one way or the other.
        CHECK(SwitchTxMetric(run, "timeouts") > 0);
        CHECK(SwitchTxMetric(run, "resolved_commit") + SwitchTxMetric(run, "resolved_abort") > 0);
    }
    else
    {
        CHECK(SwitchTxMetric(run, "timeouts") == 0);  // FaSST's RPCs are all reliable
    }
}

TEST_CASE("SwitchTx runs are deterministic: same seed, byte-identical history and metrics",
          "[switchtx][determinism]")
{
    InitIncsim();
    const std::string mode = GENERATE("fasst", "in-server");
    TempDir a;
    TempDir b;
    const RunSummary first = RunIn(a, TxScenario(mode, kYcsbt, 0.01));
    const RunSummary second = RunIn(b, TxScenario(mode, kYcsbt, 0.01));
    for (const char* file : {"txn_client.csv", "txn_log.csv", "metrics.json"})
    {
        INFO(file);
        CHECK(ReadFile(a.File(file)) == ReadFile(b.File(file)));
    }
    TempDir c;
    const RunSummary other = RunIn(c, TxScenario(mode, kYcsbt, 0.01), {"seed=2"});
    CHECK(ReadFile(a.File("txn_log.csv")) != ReadFile(c.File("txn_log.csv")));
}

TEST_CASE("The SwitchTx checker catches broken hosts", "[switchtx][checker][negative]")
{
    InitIncsim();
    const std::string mode = GENERATE("fasst", "in-server");
    INFO(mode);
    SECTION("a backup that acknowledges commit-backup without installing")
    {
        TempDir dir;
        const RunSummary run =
            RunIn(dir, TxScenario(mode, kYcsbt, 0, R"(, "fault": "backup-skips-install")"));
        const CheckReport report = Check(run);
        CHECK(Violates(report, "replicas agree"));
    }
    SECTION("a validator that accepts any read")
    {
        TempDir dir;
        const RunSummary run =
            RunIn(dir, TxScenario(mode, kYcsbtHot, 0, R"(, "fault": "validator-skips-check")"));
        const CheckReport report = Check(run);
        CHECK(Violates(report, "serializability"));
    }
}

TEST_CASE("A commit_ok lost after the serialization point: the attempt still commits "
          "everywhere and its client learns it",
          "[switchtx][timeout]")
{
    InitIncsim();
    TempDir dir;
    const RunSummary run =
        RunIn(dir, TxScenario("in-server", kYcsbt, 0, R"(, "fault": "lose-first-commit-ok")"));
    const CheckReport report = Check(run);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    // Each thread lost one commit_ok (two may be of one attempt): its attempt timed out, and
    // resolution found it committed (never aborted: its primaries had installed it).
    CHECK(SwitchTxMetric(run, "timeouts") >= 4);
    CHECK(SwitchTxMetric(run, "resolved_commit") == SwitchTxMetric(run, "timeouts"));
    CHECK(SwitchTxMetric(run, "resolved_abort") == 0);
    // Every attempt ended in a commit or a lock/validation abort: none was retried because
    // of the loss.
    CHECK(SwitchTxMetric(run, "attempts") ==
          SwitchTxMetric(run, "committed") + SwitchTxMetric(run, "aborts_lock") + SwitchTxMetric(run, "aborts_validate"));
}

TEST_CASE("SwitchTx refuses parameters it cannot run, naming them", "[switchtx][input]")
{
    InitIncsim();
    TempDir dir;
    CHECK_THROWS_WITH(RunIn(dir, TxScenario("fasst", kYcsbt, 0, R"(, "replication": 9)")),
                      Catch::Contains("/protocol/params/replication") &&
                          Catch::Contains("8 hosts"));
    CHECK_THROWS_WITH(
        RunIn(dir, TxScenario("in-server", kYcsbt, 0, R"(, "gather_server": "core")")),
        Catch::Contains("/protocol/params/gather_server") && Catch::Contains("not a host"));
    CHECK_THROWS_WITH(RunIn(dir, TxScenario("fasst", kYcsbt, 0, R"(, "gather_server": "srv1")")),
                      Catch::Contains("only the in-server"));
    CHECK_THROWS_WITH(
        RunIn(dir, TxScenario("fasst", kYcsbt, 0, R"(, "fault": "lose-first-commit-ok")")),
        Catch::Contains("/protocol/params/fault"));
    CHECK_THROWS_WITH(RunIn(dir, TxScenario("fasst", kYcsbt, 0,
                                          R"(, "threads": 4096, "mpl": 64)")),
                      Catch::Contains("/protocol/params/mpl") && Catch::Contains("client slots"));
}

TEST_CASE("A phase command that overtakes its plan, queued behind an older attempt's plan, is "
          "kept",
          "[switchtx][regression]")
{
    // With +Reorder, a scattered lock_ok (high class) overtook a backup's queued write data
    // (medium) of this attempt and of the client slot's previous one; taking the previous
    // attempt's plan used to drop the early command, so the backup never committed and the
    // attempt timed out without any loss.
    InitIncsim();
    TempDir dir;
    const RunSummary run =
        RunIn(dir, TxScenario("in-server", kTpcc, 0, R"(, "reorder": true)"), {"seed=25996"});
    const CheckReport report = Check(run);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(SwitchTxMetric(run, "timeouts") == 0);
}

TEST_CASE("An aborted attempt's validations are settled, however the abort is overtaken",
          "[switchtx][regression]")
{
    // A validator that validates after its client aborted (read-only attempts were never
    // told), or whose abort is overtaken in its queue by the retry's plan (+Reorder), used to
    // keep a pending history decision to the end of the run (and a primary its locks).
    InitIncsim();
    const std::string mode = GENERATE("fasst", "in-server");
    TempDir dir;
    const RunSummary run =
        RunIn(dir, TxScenario(mode, kYcsbtReads, 0, R"(, "reorder": true)"), {"seed=27389"});
    const CheckReport report = Check(run);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(SwitchTxMetric(run, "history_pending_at_end") == 0);
}

TEST_CASE("Without loss the reliable data plane never resends: a connection's segments keep "
          "their order through the switches' priority queues",
          "[switchtx][reliable]")
{
    // A connection has one traffic class (an RDMA QP's service level). When its segments
    // took their message types' classes, a high-class segment overtook a low-class one in a
    // switch queue, go-back-N dropped it and everything behind it, and the timer resent them:
    // thousands of resends per millisecond under load, without any loss.
    InitIncsim();
    const std::string mode = GENERATE("fasst", "in-server", "switch");
    INFO(mode);
    TempDir dir;
    const RunSummary run =
        RunIn(dir, TxScenario(mode, kYcsbt, 0, R"(, "reorder": true)"),
              {"protocol.params.threads=12", "hosts.cores=12"});
    const CheckReport report = Check(run);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(SwitchTxMetric(run, "committed") > 1000);
    CHECK(SwitchTxMetric(run, "rc_retransmits") == 0);
}

TEST_CASE("Reliable-channel packets carry switchtx_t and the host header but no slices, control "
          "messages keep them",
          "[switchtx][wire]")
{
    // The data plane is RDMA RC, whose RoCE transport header (BTH and ICRC, 16 bytes) carries
    // no coordination header. Every segment and acknowledgement used to carry a control
    // message's 77 bytes of switchtx_t and slices, which no switch reads, loading the
    // testbed's rack uplinks with them.
    InitIncsim();
    const std::string mode = GENERATE("fasst", "in-server", "switch");
    INFO(mode);
    TempDir dir;
    const RunSummary run = RunIn(dir, TxScenario(mode, kYcsbt),
                                 {R"(outputs.traces=["packets"])", R"(workload.stop="200us")",
                                  R"(duration="600us")"});
    using switchtx::ControlHeader;
    using switchtx::DataMessage;
    using switchtx::HostHeader;
    constexpr uint32_t kRcHeader = ControlHeader::Layout::kBytes + HostHeader::kBytes;
    constexpr uint32_t kAck = std::max(kMinFrameBytes, kUdpFrameOverhead + kRcHeader);
    // A phase command or reply: the message header alone.
    constexpr uint32_t kSmallestSegment =
        kUdpFrameOverhead + kRcHeader + DataMessage::kHeaderBytes;
    constexpr uint32_t kControl = kUdpFrameOverhead + ControlHeader::kBytes + HostHeader::kBytes;

    CsvReader packets(run.runDir + "/packets.csv", {"event", "node", "bytes", "priority"});
    const size_t event = packets.Column("event");
    const size_t node = packets.Column("node");
    const size_t bytes = packets.Column("bytes");
    const size_t priority = packets.Column("priority");
    std::set<uint64_t> sizes;
    std::set<uint64_t> rcClasses;
    uint64_t frames = 0;
    while (packets.Next())
    {
        if (packets.Text(event) != "tx" || packets.Text(node).rfind("srv", 0) != 0)
        {
            continue;  // one row per frame a server sends
        }
        ++frames;
        sizes.insert(packets.Uint(bytes));
        if (packets.Uint(bytes) != kControl)
        {
            rcClasses.insert(packets.Uint(priority));
        }
    }
    REQUIRE(frames > 1000);
    CHECK(sizes.count(kAck) == 1);
    CHECK(sizes.count(kSmallestSegment) == 1);
    CHECK(*sizes.begin() == kAck);
    CHECK(*std::next(sizes.begin()) == kSmallestSegment);
    // One class per connection: the switches route every RC packet in the medium class.
    CHECK(rcClasses == std::set<uint64_t>{switchtx::contract::CLASS_MEDIUM});
    // The other modes gather in a server or in the switches, by control messages.
    CHECK(sizes.count(kControl) == (mode == "fasst" ? 0u : 1u));
}
