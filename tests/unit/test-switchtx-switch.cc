// SwitchTx with in-switch GaS (coordination: switch): switchtx.p4 on every switch, configured
// by the control plane, gathers and scatters the hosts' control messages along coordination
// trees. Every run is checked with the history checker: the testbed (single and multi) in both
// scopes with YCSB-T and TPC-C, with and without +Reorder, fat-trees k=4 and k=8, link loss,
// a switch failure and recovery, the negative controls, and bad input.

#include "switchtx-test-support.h"
#include "test-support.h"

#include "protocols/switchtx/switchtx-checker.h"
#include "sim/core/diagnostics.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <string>

using namespace incsim;
using namespace incsim::test;

namespace
{

const char* const kSingle = R"({"generator": "switchtx-testbed", "params": {"layout": "single"}})";
const char* const kMulti = R"({"generator": "switchtx-testbed", "params": {"layout": "multi"}})";
const char* const kFatTree4 = R"({"generator": "fat-tree", "params": {"k": 4}})";
const char* const kFatTree8 = R"({"generator": "fat-tree", "params": {"k": 8}})";

const char* const kYcsbt = R"("kind": "ycsbt", "theta": 0.8, "records": 1000)";
const char* const kYcsbtHot = R"("kind": "ycsbt", "theta": 0.99, "records": 50)";
const char* const kTpcc = R"("kind": "tpcc", "warehouses_per_server": 1, "items": 1000,
                              "customers": 100, "remote_items": 0.5)";

/// The placeholder CPU costs from before the calibration (docs/switchtx.md "Calibration"),
/// a few times faster than the calibrated ones: these functional tests need many
/// transactions and contention in a short window, not the paper's speed.
const char* const kFastCpu =
    R"(, "cpu_execute": "1us", "cpu_read": "300ns", "cpu_lock": "400ns", "cpu_validate": "300ns",
       "cpu_commit_backup": "300ns", "cpu_commit_primary": "300ns", "cpu_abort": "200ns",
       "cpu_gather": "200ns", "cpu_reply": "200ns")";

/// 2 threads of MPL 2 per server; 600 us of transactions, then 1.4 ms (over two timeouts) to
/// settle.
std::string
SwitchScenario(const std::string& topology, const std::string& workload,
               const std::string& params, double loss = 0, const std::string& extra = "")
{
    return fmt::format(R"({{
  "name": "switchtx-switch-test", "seed": 1, "duration": "2ms",
  "topology": {},
  "links": {{"rate": "100Gbps", "delay": "500ns", "loss": {}}},
  "hosts": {{"cores": 4}},
  "protocol": {{"name": "switchtx",
               "params": {{"coordination": "switch", "threads": 2, "mpl": 2{}{}}}}},
  "workload": {{{}, "stop": "600us"}},
  "outputs": {{"traces": ["txn_log", "txn_client", "switchtx_gas"], "progress": "never"}}{}
}})",
                       topology, loss, kFastCpu, params, workload, extra);
}

double
SwitchEvent(const RunSummary& run, const std::string& name)
{
    return run.metrics.at("switchtx").at("switch_events").at(name).get<double>();
}

/// Commits the clients were told in [fromNs, toNs), from the txn_client trace.
int
CommitsBetween(const TempDir& dir, int64_t fromNs, int64_t toNs)
{
    std::ifstream in(dir.File("txn_client.csv"));
    std::string line;
    std::getline(in, line);  // header
    int commits = 0;
    while (std::getline(in, line))
    {
        // client,attempt,logical,kind,event,by,op,type,key,value,version,time_ns
        std::vector<std::string> fields;
        std::stringstream row(line);
        for (std::string field; std::getline(row, field, ',');)
        {
            fields.push_back(field);
        }
        REQUIRE(fields.size() == 12);
        const int64_t time = std::stoll(fields[11]);
        commits += fields[4] == "commit" && fields[6] == "0" && time >= fromNs && time < toNs;
    }
    return commits;
}

} // namespace

TEST_CASE("SwitchTx in-switch GaS on the testbed: serializable in both scopes, workloads and "
          "+Reorder",
          "[switchtx][switch][checker]")
{
    InitIncsim();
    const std::string topology = GENERATE(as<std::string>{}, kSingle, kMulti);
    const std::string scope = GENERATE("tree", "root");
    const std::string workload = GENERATE(as<std::string>{}, kYcsbt, kYcsbtHot, kTpcc);
    const bool reorder = GENERATE(false, true);
    const int seed = GENERATE(take(1, random(1, 1000000)));
    INFO(topology << " | " << scope << " | " << workload << " | reorder " << reorder
                  << " | seed " << seed);
    TempDir dir;
    const RunSummary run = RunIn(
        dir,
        SwitchScenario(topology, workload,
                       fmt::format(R"(, "scope": "{}", "reorder": {})", scope, reorder)),
        {fmt::format("seed={}", seed)});
    const CheckReport report = switchtx::CheckRun(run.runDir);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(SwitchTxMetric(run, "committed") > 50);
    // No loss: every gathered phase completes in the switches, nothing times out.
    CHECK(SwitchTxMetric(run, "timeouts") == 0);
    CHECK(SwitchTxMetric(run, "ungathered") == 0);
    CHECK(SwitchEvent(run, "scattered") > 0);
    CHECK(SwitchEvent(run, "to_client") > 0);
    if (topology == kMulti && scope == "tree")
    {
        CHECK(SwitchEvent(run, "to_parent") > 0);  // racks gather their subtrees
    }
}

TEST_CASE("SwitchTx in-switch GaS on fat-trees: tree-GaS along the up-down tree",
          "[switchtx][switch][checker]")
{
    InitIncsim();
    const std::string topology = GENERATE(as<std::string>{}, kFatTree4, kFatTree8);
    const std::string scope = GENERATE("tree", "root");
    const int seed = GENERATE(take(1, random(1, 1000000)));
    INFO(topology << " | " << scope << " | seed " << seed);
    TempDir dir;
    const RunSummary run =
        RunIn(dir, SwitchScenario(topology, kYcsbt, fmt::format(R"(, "scope": "{}")", scope)),
              {fmt::format("seed={}", seed)});
    const CheckReport report = switchtx::CheckRun(run.runDir);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(SwitchTxMetric(run, "committed") > 200);
    CHECK(SwitchTxMetric(run, "timeouts") == 0);
    // Lower switches forward their subtree's count; in scope root they only relay.
    CHECK(SwitchEvent(run, "to_parent") > 0);
    CHECK(SwitchEvent(run, "scattered") > 0);
    // Most attempts are gathered in the switches; on k=8 a few are wider than the header.
    CHECK(SwitchTxMetric(run, "ungathered") < 0.1 * SwitchTxMetric(run, "attempts"));
}

TEST_CASE("SwitchTx in-switch GaS stays serializable under link loss, by timeouts and "
          "resolution",
          "[switchtx][switch][checker][loss]")
{
    InitIncsim();
    const double loss = GENERATE(0.005, 0.01);
    const std::string scope = GENERATE("tree", "root");
    const std::string workload = GENERATE(as<std::string>{}, kYcsbt, kTpcc);
    const int seed = GENERATE(take(1, random(1, 1000000)));
    INFO("loss " << loss << " | " << scope << " | " << workload << " | seed " << seed);
    TempDir dir;
    const RunSummary run =
        RunIn(dir,
              SwitchScenario(kMulti, workload, fmt::format(R"(, "scope": "{}")", scope), loss),
              {fmt::format("seed={}", seed)});
    const CheckReport report = switchtx::CheckRun(run.runDir);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(SwitchTxMetric(run, "committed") > 20);
    // Lost control messages: timeouts, each resolved one way or the other.
    CHECK(SwitchTxMetric(run, "timeouts") > 0);
    CHECK(SwitchTxMetric(run, "resolved_commit") + SwitchTxMetric(run, "resolved_abort") > 0);
    CHECK(SwitchTxMetric(run, "resolved_commit") + SwitchTxMetric(run, "resolved_abort") <=
          SwitchTxMetric(run, "timeouts"));  // read-only attempts just abort
}

TEST_CASE("SwitchTx in-switch runs are deterministic", "[switchtx][switch][determinism]")
{
    InitIncsim();
    TempDir a;
    TempDir b;
    const std::string scenario = SwitchScenario(kMulti, kYcsbt, R"(, "scope": "tree")", 0.01);
    RunIn(a, scenario);
    RunIn(b, scenario);
    for (const char* file : {"txn_client.csv", "txn_log.csv", "metrics.json"})
    {
        INFO(file);
        CHECK(ReadFile(a.File(file)) == ReadFile(b.File(file)));
    }
}

namespace
{

/// A contended YCSB-T run on the multi-switch testbed, `mode` the switches' switch_mode
/// (empty: normal), at `seed`.
RunSummary
HotRun(TempDir& dir, const std::string& scope, int seed, const std::string& mode = "")
{
    std::string params = fmt::format(R"(, "scope": "{}")", scope);
    if (!mode.empty())
    {
        params += fmt::format(R"(, "switch_mode": "{}")", mode);
    }
    return RunIn(dir, SwitchScenario(kMulti, kYcsbtHot, params), {fmt::format("seed={}", seed)});
}

} // namespace

TEST_CASE("The checker catches a switch that scatters before the threshold",
          "[switchtx][switch][checker][negative]")
{
    InitIncsim();
    const std::string scope = GENERATE("tree", "root");
    const int seed = GENERATE(take(2, random(1, 1000000)));
    INFO(scope << " | seed " << seed);
    TempDir good;
    CHECK(switchtx::CheckRun(HotRun(good, scope, seed).runDir).Ok());
    TempDir bad;
    const RunSummary broken = HotRun(bad, scope, seed, "broken-early-scatter");
    const CheckReport report = switchtx::CheckRun(broken.runDir);
    // Under contention some primaries fail to lock while the phases run on without them:
    // backups install writes their primary never does, clients are told commit for them.
    INFO(ViolationText(report));
    const bool caught = Violates(report, "gas delivers once") ||
                        Violates(report, "no lost or doubled writes") ||
                        Violates(report, "replicas agree") ||
                        Violates(report, "serializability");
    CHECK(caught);
}

TEST_CASE("The checker catches a switch that ignores aborted",
          "[switchtx][switch][checker][negative]")
{
    // Under contention two participants of one attempt fail. The switch scatters the first
    // fail and drops the second as aborted; the broken switch scatters both, so the write
    // participants get the attempt's fail twice (switchtx_gas). The hosts' state stays right
    // (a second fail finds nothing to release), so only Table 1's delivery property shows it.
    InitIncsim();
    const std::string scope = GENERATE("tree", "root");
    const int seed = GENERATE(take(2, random(1, 1000000)));
    INFO(scope << " | seed " << seed);
    TempDir good;
    const RunSummary normal = HotRun(good, scope, seed);
    CHECK(SwitchEvent(normal, "dropped_aborted") > 0);
    const CheckReport normalReport = switchtx::CheckRun(normal.runDir);
    INFO(ViolationText(normalReport));
    CHECK(normalReport.Ok());
    TempDir bad;
    const RunSummary broken = HotRun(bad, scope, seed, "broken-ignore-aborted");
    CHECK(SwitchEvent(broken, "dropped_aborted") == 0);
    const CheckReport report = switchtx::CheckRun(broken.runDir);
    INFO(ViolationText(report));
    CHECK(Violates(report, "gas delivers once"));
}

TEST_CASE("A core switch fails and restarts: clients abort and retry while it is down and "
          "recover after",
          "[switchtx][switch][checker][failure]")
{
    InitIncsim();
    const std::string scope = GENERATE("tree", "root");
    INFO(scope);
    // c0 is the root of a quarter of the cross-pod trees (round robin per client), and of the
    // paths through it until the routes reconverge.
    const std::string faults = R"(,
  "faults": [{"at": "200us", "action": "node_crash", "node": "c0"},
             {"at": "400us", "action": "node_recover", "node": "c0"}])";
    TempDir dir;
    const RunSummary run =
        RunIn(dir, SwitchScenario(kFatTree4, kYcsbt, fmt::format(R"(, "scope": "{}")", scope),
                                  0, faults));
    const CheckReport report = switchtx::CheckRun(run.runDir);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    // Attempts whose tree had c0 lost their control messages, timed out, were resolved and
    // retried on the next tree.
    CHECK(SwitchTxMetric(run, "timeouts") > 0);
    CHECK(SwitchTxMetric(run, "resolved_abort") > 0);
    CHECK(CommitsBetween(dir, 200'000, 400'000) > 0);
    // After the restart c0's slots are empty: the next init installs a transaction, and trees
    // rooted at c0 commit again.
    CHECK(CommitsBetween(dir, 450'000, 600'000) > 0);
}

TEST_CASE("SwitchTx in-switch refuses what it cannot run, naming it", "[switchtx][switch][input]")
{
    InitIncsim();
    TempDir dir;
    const std::string tree = R"(, "scope": "tree")";
    CHECK_THROWS_WITH(
        RunIn(dir, SwitchScenario(kMulti, kYcsbt, tree, 0, R"(, "switch": {"priorities": 3})")),
        Catch::Contains("/switch/priorities") && Catch::Contains("at least 4 queues"));
    CHECK_THROWS_WITH(
        RunIn(dir, SwitchScenario(kFatTree4, kYcsbt, tree), {"protocol.params.coordination=fasst"}),
        Catch::Contains("/protocol/params/scope") && Catch::Contains("only the switch"));
    CHECK_THROWS_WITH(
        RunIn(dir, SwitchScenario(R"({"generator": "fat-tree", "params": {"k": 16}})", kYcsbt,
                                  R"(, "threads": 1, "mpl": 1)")),
        Catch::Contains("/protocol/params/coordination") && Catch::Contains("255"));
}
