// SwitchTx and server failures (§3.5; docs/switchtx.md "Failures"): a server crashes at a
// random time, the others learn it a lease later, a backup takes over its shard, live
// clients resolve their attempts that involved it and a recovery server those of its own
// clients, from the coordination log. Every run is checked; the checker catches a recovery
// that ignores the log; bad fault timelines are refused with their path. Switch crashes are
// in test-switchtx-switch.cc.

#include "switchtx-test-support.h"
#include "test-support.h"

#include "protocols/switchtx/switchtx-checker.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

/// The faster pre-calibration CPU costs of the functional tests (test-switchtx.cc).
const char* const kFastCpu =
    R"(, "cpu_execute": "1us", "cpu_read": "300ns", "cpu_lock": "400ns", "cpu_validate": "300ns",
       "cpu_commit_backup": "300ns", "cpu_commit_primary": "300ns", "cpu_abort": "200ns",
       "cpu_gather": "200ns", "cpu_reply": "200ns")";

const char* const kYcsbt = R"("kind": "ycsbt", "theta": 0.8, "records": 1000)";
const char* const kTpcc = R"("kind": "tpcc", "warehouses_per_server": 1, "items": 1000,
                              "customers": 100, "remote_items": 0.5)";

/// The testbed's 8 servers in 3 racks, 2 threads of MPL 2; 1 ms of transactions, then
/// 1.5 ms to settle; `faults` is the timeline's JSON array.
std::string
CrashScenario(const std::string& params, const std::string& faults, double loss = 0,
              const std::string& workload = kYcsbt)
{
    return fmt::format(R"({{
  "name": "switchtx-crash", "seed": 1, "duration": "2500us",
  "topology": {{"generator": "switchtx-testbed", "params": {{"layout": "multi"}}}},
  "links": {{"rate": "100Gbps", "delay": "500ns", "loss": {}}},
  "hosts": {{"cores": 4}},
  "protocol": {{"name": "switchtx", "params": {{"threads": 2, "mpl": 2{}, {}}}}},
  "workload": {{{}, "stop": "1ms"}},
  "faults": {},
  "outputs": {{"traces": ["txn_log", "txn_client", "switchtx_gas"], "progress": "never"}}
}})",
                       loss, kFastCpu, params, workload, faults);
}

std::string
Crash(int64_t atUs, uint32_t server)
{
    return fmt::format(R"({{"at": "{}us", "action": "node_crash", "node": "srv{}"}})", atUs,
                       server);
}

double
Failure(const RunSummary& run, const std::string& name)
{
    return run.metrics.at("switchtx").at("failures").at(name).get<double>();
}

/// What txn_client.csv says of each attempt: sent, answered, and when it committed.
struct ClientHistory
{
    std::set<std::pair<int, int>> sent;
    std::set<std::pair<int, int>> answered;
    std::vector<int64_t> commitTimesNs;
};

ClientHistory
ReadClientHistory(const TempDir& dir)
{
    ClientHistory history;
    std::ifstream in(dir.File("txn_client.csv"));
    std::string line;
    std::getline(in, line);  // client,attempt,logical,kind,event,by,op,type,key,value,version,time_ns
    while (std::getline(in, line))
    {
        std::vector<std::string> fields;
        std::stringstream row(line);
        for (std::string field; std::getline(row, field, ',');)
        {
            fields.push_back(field);
        }
        if (fields.size() != 12)
        {
            FAIL("txn_client.csv: a row of " << fields.size() << " fields: " << line);
        }
        const std::pair<int, int> attempt{std::stoi(fields[0]), std::stoi(fields[1], nullptr, 0)};
        if (fields[4] == "send")
        {
            history.sent.insert(attempt);
            continue;
        }
        history.answered.insert(attempt);
        if (fields[4] == "commit" && fields[6] == "0")
        {
            history.commitTimesNs.push_back(std::stoll(fields[11]));
        }
    }
    return history;
}

/// The client ids (host * threads + thread) of the crashed servers' threads.
std::set<int>
ClientsOf(const std::vector<uint32_t>& servers, int threads)
{
    std::set<int> clients;
    for (uint32_t server : servers)
    {
        for (int t = 0; t < threads; ++t)
        {
            clients.insert(static_cast<int>(server) * threads + t);
        }
    }
    return clients;
}

/// A crash run's shared checks: the checker passes; quiescent at the end; only the crashed
/// servers' clients have attempts without an answer; commits resume after the detection.
void
CheckRecovered(const TempDir& dir, const RunSummary& run, const std::vector<uint32_t>& crashed,
               int64_t lastCrashUs)
{
    const CheckReport report = switchtx::CheckRun(run.runDir);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(SwitchTxMetric(run, "history_pending_at_end") == 0);
    CHECK(Failure(run, "crashes") == static_cast<double>(crashed.size()));
    CHECK(Failure(run, "detection_us") == 100);
    CHECK(Failure(run, "promoted_shards") >= 1);
    const ClientHistory history = ReadClientHistory(dir);
    const std::set<int> dead = ClientsOf(crashed, 2);
    for (const auto& attempt : history.sent)
    {
        if (!history.answered.count(attempt))
        {
            INFO("client " << attempt.first << " attempt " << attempt.second);
            CHECK(dead.count(attempt.first) == 1);
        }
    }
    // Throughput resumes: the surviving clients commit after crash + lease.
    const int64_t detectedNs = (lastCrashUs + 100) * 1000;
    int after = 0;
    for (int64_t t : history.commitTimesNs)
    {
        after += t >= detectedNs && t < 1000 * 1000 ? 1 : 0;
    }
    if (lastCrashUs < 900)
    {
        CHECK(after > 0);
    }
}

} // namespace

TEST_CASE("SwitchTx recovers from a server crash at a random time, in every coordination mode",
          "[switchtx][failure][checker]")
{
    InitIncsim();
    const std::string mode = GENERATE(as<std::string>{}, R"("coordination": "fasst")",
                                      R"("coordination": "in-server")",
                                      R"("coordination": "switch", "scope": "tree")",
                                      R"("coordination": "switch", "scope": "root")");
    const double loss = GENERATE(0.0, 0.005);
    const int seed = GENERATE(take(2, random(1, 1000000)));
    const auto server = static_cast<uint32_t>(seed % 8);
    const int64_t atUs = 150 + seed % 700;
    const bool reorder = seed % 2 == 1;
    INFO(mode << " | loss " << loss << " | seed " << seed << " | srv" << server << " at "
              << atUs << " us | reorder " << reorder);
    TempDir dir;
    const RunSummary run =
        RunIn(dir,
              CrashScenario(fmt::format(R"({}, "reorder": {})", mode, reorder),
                            "[" + Crash(atUs, server) + "]", loss, seed % 3 == 0 ? kTpcc : kYcsbt),
              {fmt::format("seed={}", seed)});
    CheckRecovered(dir, run, {server}, atUs);
}

TEST_CASE("SwitchTx recovers from two server crashes, and from a crashed backup-of-backup",
          "[switchtx][failure][checker]")
{
    InitIncsim();
    const std::string mode = GENERATE("fasst", "in-server", "switch");
    INFO(mode);
    SECTION("two servers far apart, 2 replicas")
    {
        TempDir dir;
        const RunSummary run = RunIn(
            dir, CrashScenario(fmt::format(R"("coordination": "{}")", mode),
                               "[" + Crash(300, 1) + ", " + Crash(520, 5) + "]"));
        CheckRecovered(dir, run, {1, 5}, 520);
    }
    SECTION("neighbours, 3 replicas: a shard's primary and then its promoted backup")
    {
        TempDir dir;
        const RunSummary run = RunIn(
            dir, CrashScenario(fmt::format(R"("coordination": "{}", "replication": 3)", mode),
                               "[" + Crash(300, 2) + ", " + Crash(450, 3) + "]"));
        CheckRecovered(dir, run, {2, 3}, 450);
        CHECK(Failure(run, "promoted_shards") >= 3);
    }
}

TEST_CASE("A crashed in-server gather server does not hang the run: clients drive their "
          "attempts by RPC once it is known to be down",
          "[switchtx][failure]")
{
    InitIncsim();
    TempDir dir;
    const RunSummary run = RunIn(
        dir, CrashScenario(R"("coordination": "in-server", "gather_server": "srv4")",
                           "[" + Crash(400, 4) + "]"));
    CheckRecovered(dir, run, {4}, 400);
    // Every live client had attempts gathered by it in flight: each was resolved at the
    // detection rather than at its timeout.
    CHECK(Failure(run, "resolved_at_membership") > 0);
    CHECK(SwitchTxMetric(run, "timeouts") == 0);
}

TEST_CASE("Recovery decides by the coordination log: the crashed coordinator's attempts past "
          "the serialization point commit at every live replica",
          "[switchtx][failure][negative]")
{
    // The negative control: a recovery that ignores what the replicas hold and aborts every
    // attempt it resolves leaves installed writes behind (backups and a promoted primary
    // that hold writes of attempts decided aborted, primaries that committed what others
    // abort): the checker must catch it on the same runs in which the real recovery passes.
    InitIncsim();
    const std::string mode = GENERATE("fasst", "switch");
    INFO(mode);
    const std::string faults = "[" + Crash(400, 3) + "]";
    TempDir good;
    const RunSummary passing =
        RunIn(good, CrashScenario(fmt::format(R"("coordination": "{}")", mode), faults));
    const CheckReport ok = switchtx::CheckRun(passing.runDir);
    INFO(ViolationText(ok));
    CHECK(ok.Ok());
    // The crash caught attempts past their serialization point, which recovery committed.
    CHECK(Failure(passing, "recovered_commit") + SwitchTxMetric(passing, "resolved_commit") > 0);
    TempDir bad;
    const RunSummary broken = RunIn(
        bad, CrashScenario(
                 fmt::format(R"("coordination": "{}", "fault": "recovery-aborts-all")", mode),
                 faults));
    const CheckReport report = switchtx::CheckRun(broken.runDir);
    CHECK_FALSE(report.Ok());
    CHECK((Violates(report, "serializability") || Violates(report, "no lost or doubled writes") ||
           Violates(report, "replicas agree")));
}

TEST_CASE("SwitchTx runs with a server crash are deterministic", "[switchtx][failure][determinism]")
{
    InitIncsim();
    const std::string scenario =
        CrashScenario(R"("coordination": "switch")", "[" + Crash(350, 6) + "]", 0.005);
    TempDir a;
    TempDir b;
    RunIn(a, scenario);
    RunIn(b, scenario);
    for (const char* file : {"txn_client.csv", "txn_log.csv", "switchtx_gas.csv", "metrics.json"})
    {
        INFO(file);
        CHECK(ReadFile(a.File(file)) == ReadFile(b.File(file)));
    }
}

TEST_CASE("SwitchTx refuses server faults it cannot recover from, naming the fault",
          "[switchtx][failure][input]")
{
    InitIncsim();
    TempDir dir;
    SECTION("a crashed server that restarts")
    {
        const std::string faults =
            "[" + Crash(100, 3) + R"(, {"at": "300us", "action": "node_recover", "node": "srv3"}])";
        CHECK_THROWS_WITH(RunIn(dir, CrashScenario(R"("coordination": "fasst")", faults)),
                          Catch::Contains("/faults/1/node") && Catch::Contains("\"srv3\"") &&
                              Catch::Contains("does not rejoin"));
    }
    SECTION("a switch may still crash and restart")
    {
        const std::string faults = R"([{"at": "100us", "action": "node_crash", "node": "rack1"},
                                       {"at": "200us", "action": "node_recover", "node": "rack1"}])";
        CHECK_NOTHROW(RunIn(dir, CrashScenario(R"("coordination": "switch")", faults)));
    }
    SECTION("a crash in the Eris baseline")
    {
        CHECK_THROWS_WITH(
            RunIn(dir, CrashScenario(R"("coordination": "eris")", "[" + Crash(100, 2) + "]")),
            Catch::Contains("/faults/0/node") && Catch::Contains("Eris") &&
                Catch::Contains("view change"));
    }
    SECTION("a shard left without a live replica")
    {
        CHECK_THROWS_WITH(RunIn(dir, CrashScenario(R"("coordination": "fasst", "replication": 1)",
                                                   "[" + Crash(100, 2) + "]")),
                          Catch::Contains("/faults/0/node") && Catch::Contains("shard 2") &&
                              Catch::Contains("no live replica"));
        CHECK_THROWS_WITH(
            RunIn(dir, CrashScenario(R"("coordination": "in-server")",
                                     "[" + Crash(100, 2) + ", " + Crash(200, 3) + "]")),
            Catch::Contains("/faults/1/node") && Catch::Contains("shard 2"));
    }
}

TEST_CASE("A crashed server's validation of an attempt already aborted does not count as a "
          "decision left pending",
          "[switchtx][failure][regression]")
{
    // srv6 validated client 4's attempt 18 at 453.2 us, after its client had aborted it
    // (451.2 us) and before the abort reached it; it crashed at 454 us. The decision stays
    // pending in its log (nothing else settles a dead server's validation of an aborted
    // attempt) and is dropped at the end like any other; it used to count in
    // history_pending_at_end, the quiescence the other tests require.
    InitIncsim();
    TempDir dir;
    const RunSummary run = RunIn(
        dir,
        CrashScenario(R"("coordination": "fasst", "replication": 3, "admission": "dynamic",
                         "mpl_epoch": "100us", "max_mpl": 4)",
                      "[" + Crash(454, 6) + ", " + Crash(530, 3) + "]", 0.005),
        {"seed=132420"});
    CheckRecovered(dir, run, {6, 3}, 530);
}
