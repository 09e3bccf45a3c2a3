// 1Pipe's transactional key-value store and its baselines (docs/onepipe-apps.md): the shared
// history checker on randomized runs of 1Pipe (with loss) and FaRM, the negative control
// (NonTX executes in arrival order and is caught), determinism, the paper's trends under
// contention, the endpoint's best-effort sends in a reliable run, and refused setups.

#include "test-support.h"

#include "protocols/onepipe/apps/kvs-protocol.h"
#include "protocols/onepipe/apps/tpcc-protocol.h"
#include "sim/runner/runner.h"
#include "sim/trace/csv-reader.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{
std::string
KvsScenario()
{
    return ReadFile(std::string(INCSIM_SOURCE_DIR) + "/scenarios/onepipe/kvs-testbed.json");
}

/// The overrides that run `system` (its ordering and service).
std::vector<std::string>
SystemOverrides(const std::string& system)
{
    const bool onePipe = system == "1pipe";
    return {"protocol.params.system=" + system,
            std::string("protocol.params.ordering=") + (onePipe ? "total" : "none"),
            std::string("protocol.params.service=") + (onePipe ? "reliable" : "best-effort")};
}

nlohmann::json
Metrics(const TempDir& dir)
{
    return nlohmann::json::parse(ReadFile(dir.File("metrics.json"))).at("onepipe_kvs");
}

RunSummary
RunKvs(const TempDir& dir, const std::string& system, std::vector<std::string> overrides)
{
    std::vector<std::string> all = SystemOverrides(system);
    all.insert(all.end(), overrides.begin(), overrides.end());
    return RunIn(dir, KvsScenario(), all);
}

/// Contended: YCSB's Zipf keys, half the operations writes.
const std::vector<std::string> kContended = {"workload.distribution=zipf",
                                             "workload.writes=0.5", "workload.window=16"};
} // namespace

TEST_CASE("onepipe_kvs: 1Pipe's and FaRM's histories are serializable on randomized runs",
          "[onepipe][apps][checker]")
{
    InitIncsim();
    const double losses[] = {0.0, 1e-3, 5e-3};
    for (int seed = 1; seed <= 6; ++seed)
    {
        const std::string system = seed % 2 == 0 ? "farm" : "1pipe";
        const double loss = system == "1pipe" ? losses[seed % 3] : 0.0;
        TempDir dir;
        RunKvs(dir, system,
               {fmt::format("seed={}", seed), fmt::format("links.loss={}", loss),
                fmt::format("workload.keys_per_txn={}", 1 + seed % 4),
                fmt::format("workload.writes={}", 0.1 * seed),
                fmt::format("workload.window={}", 4 + seed),
                std::string("workload.distribution=") + (seed % 3 == 0 ? "uniform" : "zipf"),
                "workload.keys=2000", "clocks.drift_ppm=20",
                // Best-effort reads given up early: lost and late answers both happen.
                "protocol.params.retry_timeout=40us"});
        INFO("seed " << seed << ", " << system << ", loss " << loss);
        const CheckReport report = onepipe::apps::CheckKvsRun(dir.Path());
        INFO(ViolationText(report));
        CHECK(report.Ok());
        const nlohmann::json metrics = Metrics(dir);
        CHECK(metrics.at("kvs").at("commits").get<uint64_t>() > 50);
        if (loss > 0)
        {
            CHECK(metrics.at("prepare_retransmissions").get<uint64_t>() > 0);
            CHECK(metrics.at("kvs").at("retry_timeouts").get<uint64_t>() > 0);
        }
    }
}

TEST_CASE("onepipe_kvs: NonTX, executing in arrival order, is caught as not serializable",
          "[onepipe][apps][checker][negative]")
{
    InitIncsim();
    TempDir dir;
    RunKvs(dir, "nontx", kContended);
    const CheckReport report = onepipe::apps::CheckKvsRun(dir.Path());
    CHECK_FALSE(report.Ok());
    CHECK_THAT(ViolationText(report), Catch::Contains("serializability"));
    // The same workload in timestamp order passes.
    TempDir ordered;
    RunKvs(ordered, "1pipe", kContended);
    CHECK(onepipe::apps::CheckKvsRun(ordered.Path()).Ok());
}

TEST_CASE("onepipe_kvs runs are deterministic", "[onepipe][apps][determinism]")
{
    InitIncsim();
    for (const char* system : {"1pipe", "farm"})
    {
        TempDir first;
        TempDir second;
        const std::vector<std::string> overrides = {"workload.distribution=zipf",
                                                    "workload.writes=0.5"};
        RunKvs(first, system, overrides);
        RunKvs(second, system, overrides);
        for (const char* file : {"txn_client.csv", "txn_log.csv", "metrics.json"})
        {
            INFO(system << " " << file);
            CHECK(ReadFile(first.File(file)) == ReadFile(second.File(file)));
        }
    }
}

TEST_CASE("onepipe_kvs keeps the paper's order under contention: NonTX, 1Pipe, FaRM",
          "[onepipe][apps][trend]")
{
    InitIncsim();
    double throughput[3] = {};
    const char* systems[] = {"nontx", "1pipe", "farm"};
    for (int i = 0; i < 3; ++i)
    {
        TempDir dir;
        RunKvs(dir, systems[i], kContended);
        const nlohmann::json kvs = Metrics(dir).at("kvs");
        throughput[i] = kvs.at("throughput_txns_per_s").get<double>();
        if (i == 2)
        {
            CHECK(kvs.at("abort_rate").get<double>() > 0.2); // hot keys: lock and version aborts
        }
        else
        {
            CHECK(kvs.at("aborts").get<uint64_t>() == 0); // 1Pipe and NonTX never abort
        }
    }
    INFO("nontx " << throughput[0] << ", 1pipe " << throughput[1] << ", farm " << throughput[2]);
    CHECK(throughput[0] > 1.5 * throughput[1]);
    CHECK(throughput[1] > 1.5 * throughput[2]);
}

TEST_CASE("onepipe_kvs: best-effort reads in a reliable run are ACKed, not timed out",
          "[onepipe][apps][reliable]")
{
    InitIncsim();
    // Read-only transactions go on best effort in a reliable run. The endpoint matched ACKs
    // to sends by sequence, and reliable sends took sequences without a place in that queue,
    // so every best-effort message was reported timed out though delivered.
    TempDir dir;
    RunKvs(dir, "1pipe", kContended);
    const nlohmann::json metrics = Metrics(dir);
    CHECK(metrics.at("kvs").at("kinds").at("ro").at("commits").get<uint64_t>() > 100);
    CHECK(metrics.at("send_failures").at("timeout").get<uint64_t>() == 0);
    CHECK(metrics.at("kvs").at("retry_timeouts").get<uint64_t>() == 0);
}

TEST_CASE("onepipe_kvs refuses setups its systems cannot run, naming the JSON path",
          "[onepipe][apps][config]")
{
    InitIncsim();
    TempDir dir;
    const std::string scenario = KvsScenario();
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.system=farm"}),
                      Catch::Contains("/protocol/params/ordering") &&
                          Catch::Contains("\"farm\""));
    CHECK_THROWS_WITH(RunKvs(dir, "farm", {"links.loss=1e-3"}), Catch::Contains("/links/loss"));
    // FaRM sends best effort: the unordered transport's reliable service would not carry it.
    CHECK_THROWS_WITH(RunKvs(dir, "farm", {"protocol.params.service=reliable"}),
                      Catch::Contains("/protocol/params/service"));
    CHECK_THROWS_WITH(RunKvs(dir, "nontx", {"links.loss=1e-3"}), Catch::Contains("/links/loss"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.service=best-effort"}),
                      Catch::Contains("/protocol/params/service"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.ordering=none"}),
                      Catch::Contains("/protocol/params/ordering"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.system=spanner"}),
                      Catch::Contains("/protocol/params/system") && Catch::Contains("spanner"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.sytem=farm"}),
                      Catch::Contains("sytem"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"workload.keys=1", "workload.keys_per_txn=2"}),
                      Catch::Contains("/workload/keys_per_txn"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.process_hosts=33"}),
                      Catch::Contains("/protocol/params/process_hosts"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.ordering=lamport"}),
                      Catch::Contains("/protocol/params/ordering"));
}

namespace
{
std::string
TpccScenario()
{
    return ReadFile(std::string(INCSIM_SOURCE_DIR) + "/scenarios/onepipe/tpcc-testbed.json");
}

RunSummary
RunTpcc(const TempDir& dir, const std::string& system, std::vector<std::string> overrides)
{
    std::vector<std::string> all = SystemOverrides(system);
    all.insert(all.end(), overrides.begin(), overrides.end());
    return RunIn(dir, TpccScenario(), all);
}

nlohmann::json
TpccMetrics(const TempDir& dir)
{
    return nlohmann::json::parse(ReadFile(dir.File("metrics.json"))).at("onepipe_tpcc");
}
} // namespace

TEST_CASE("onepipe_tpcc: 1Pipe's, 2PL's and OCC's replicated histories are serializable",
          "[onepipe][apps][tpcc][checker]")
{
    InitIncsim();
    const char* systems[] = {"1pipe", "lock", "occ"};
    const double losses[] = {1e-3, 5e-3};
    for (int seed = 1; seed <= 5; ++seed)
    {
        const std::string system = systems[seed % 3];
        const double loss = system == "1pipe" ? losses[seed % 2] : 0.0;
        TempDir dir;
        RunTpcc(dir, system,
                {fmt::format("seed={}", seed), fmt::format("links.loss={}", loss),
                 fmt::format("workload.window={}", 2 + seed), "workload.districts=2",
                 "workload.customers=20", "workload.items=200", "clocks.drift_ppm=20",
                 fmt::format("protocol.params.processes_per_host={}", 1 + seed % 2),
                 // Initiators stop at 180 us: what is in flight must settle (retransmissions
                 // included) for the checker to see whole transactions.
                 "duration=400us"});
        INFO("seed " << seed << ", " << system << ", loss " << loss);
        const CheckReport report = onepipe::apps::CheckTpccRun(dir.Path());
        INFO(ViolationText(report));
        CHECK(report.Ok());
        const nlohmann::json metrics = TpccMetrics(dir);
        CHECK(metrics.at("tpcc").at("commits").get<uint64_t>() > 20);
        if (loss > 0)
        {
            CHECK(metrics.at("prepare_retransmissions").get<uint64_t>() > 0);
        }
        if (system != "1pipe")
        {
            CHECK(metrics.at("tpcc").at("aborts").get<uint64_t>() > 0); // the hot warehouses
        }
    }
}

TEST_CASE("onepipe_tpcc: 2PL and OCC on the unordered transport's reliable service stay "
          "serializable under loss",
          "[onepipe][apps][tpcc][checker][loss]")
{
    InitIncsim();
    for (const char* system : {"lock", "occ"})
    {
        INFO(system);
        TempDir dir;
        RunTpcc(dir, system,
                {"protocol.params.service=reliable", "links.loss=5e-3", "duration=400us",
                 "workload.districts=2", "workload.customers=20", "workload.items=200"});
        const CheckReport report = onepipe::apps::CheckTpccRun(dir.Path());
        INFO(ViolationText(report));
        CHECK(report.Ok());
        const nlohmann::json metrics = TpccMetrics(dir);
        CHECK(metrics.at("prepare_retransmissions").get<uint64_t>() > 0);
        CHECK(metrics.at("tpcc").at("commits").get<uint64_t>() > 20);
        CHECK(metrics.at("send_failures").at("timeout") == 0);
    }
}

TEST_CASE("onepipe_tpcc: NonTX's replicas, executing in arrival order, are caught diverging",
          "[onepipe][apps][tpcc][checker][negative]")
{
    InitIncsim();
    TempDir dir;
    RunTpcc(dir, "nontx", {"workload.window=8"});
    const CheckReport report = onepipe::apps::CheckTpccRun(dir.Path());
    CHECK_FALSE(report.Ok());
    CHECK_THAT(ViolationText(report), Catch::Contains("no lost or doubled writes"));
}

TEST_CASE("onepipe_tpcc runs are deterministic, and 1Pipe keeps the paper's order",
          "[onepipe][apps][tpcc][determinism][trend]")
{
    InitIncsim();
    double throughput[4] = {};
    const char* systems[] = {"nontx", "1pipe", "lock", "occ"};
    for (int i = 0; i < 4; ++i)
    {
        TempDir first;
        TempDir second;
        RunTpcc(first, systems[i], {"workload.window=8"});
        RunTpcc(second, systems[i], {"workload.window=8"});
        for (const char* file : {"txn_client.csv", "txn_log.csv", "metrics.json"})
        {
            INFO(systems[i] << " " << file);
            CHECK(ReadFile(first.File(file)) == ReadFile(second.File(file)));
        }
        throughput[i] = TpccMetrics(first).at("tpcc").at("throughput_txns_per_s").get<double>();
    }
    INFO("nontx " << throughput[0] << ", 1pipe " << throughput[1] << ", lock " << throughput[2]
                  << ", occ " << throughput[3]);
    CHECK(throughput[0] > throughput[1]);
    CHECK(throughput[1] > 3 * throughput[2]);
    CHECK(throughput[1] > 3 * throughput[3]);
}

TEST_CASE("onepipe_tpcc refuses setups it cannot run, naming the JSON path",
          "[onepipe][apps][tpcc][config]")
{
    InitIncsim();
    TempDir dir;
    const std::string scenario = TpccScenario();
    // 4 shards x 3 replicas on distinct processes: 12 at least.
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.process_hosts=8"}),
                      Catch::Contains("/protocol/params/replicas") && Catch::Contains("12"));
    CHECK_THROWS_WITH(RunTpcc(dir, "lock", {"links.loss=1e-3"}), Catch::Contains("/links/loss"));
    CHECK_THROWS_WITH(RunTpcc(dir, "occ",
                              {"protocol.params.service=reliable",
                               R"(faults=[{"at": "50us", "action": "link_down",
                                           "link": ["h5", "tor0"]}])"}),
                      Catch::Contains("/faults"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.system=occ"}),
                      Catch::Contains("/protocol/params/ordering"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.system=eris"}),
                      Catch::Contains("/protocol/params/system"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"workload.new_order=0.9", "workload.payment=0.5"}),
                      Catch::Contains("/workload/"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"workload.measure_from=200us"}),
                      Catch::Contains("/workload/measure_from"));
}

namespace
{
/// Unplugs the host link of process `process` (one process per host) at 100 us; the
/// initiators stop at 180 us and the run lasts until what is in flight settles.
std::vector<std::string>
ReplicaFailure(uint32_t process, const std::string& controllerMode)
{
    return {"duration=400us", "protocol.params.controller_mode=" + controllerMode,
            fmt::format(R"(faults=[{{"at": "100us", "action": "link_down",
                                    "link": ["h{}", "tor{}"]}}])",
                        process, process / 8)};
}
} // namespace

TEST_CASE("onepipe_tpcc: a backup's host link unplugged: the controller removes it, recalled "
          "attempts abort and retry, the history stays serializable (R30, R31)",
          "[onepipe][apps][tpcc][failures]")
{
    InitIncsim();
    // Replica 1 of shard 1 (process 5) and replica 2 of shard 3 (process 11).
    for (const uint32_t backup : {5u, 11u})
    {
        INFO("backup on process " << backup);
        TempDir dir;
        RunTpcc(dir, "1pipe", ReplicaFailure(backup, "full"));
        const CheckReport report = onepipe::apps::CheckTpccRun(dir.Path());
        INFO(ViolationText(report));
        CHECK(report.Ok());
        const nlohmann::json metrics = TpccMetrics(dir);
        const nlohmann::json& failures = metrics.at("tpcc").at("failures");
        CHECK(failures.at("failed_processes") == nlohmann::json::array({backup}));
        CHECK(failures.at("failed_primaries") == 0);
        // Every live process's callback, after detection (10 beacon intervals, 30 us).
        CHECK(failures.at("callbacks") == metrics.at("processes").get<uint64_t>() - 1);
        CHECK(failures.at("callback_first_us").get<double>() > 100 + 30);
        CHECK(failures.at("callback_last_us").get<double>() < 100 + 500);
        // Attempts waiting for the backup's ACK were recalled, aborted and retried; each such
        // transaction then committed.
        CHECK(failures.at("recalled_attempts").get<uint64_t>() > 0);
        CHECK(failures.at("affected_transactions").get<uint64_t>() > 0);
        CHECK(failures.at("affected_transactions").get<uint64_t>() <=
              failures.at("recalled_attempts").get<uint64_t>());
        CHECK(metrics.at("tpcc").at("unfinished_transactions") == 0);
        // Every attempt a live initiator settled is reported once: committed or aborted.
        CsvReader csv(dir.File("txn_client.csv"), {"client", "attempt", "event", "op"});
        std::map<std::pair<uint64_t, uint64_t>, int> outcomes;
        while (csv.Next())
        {
            const std::string& event = csv.Text(csv.Column("event"));
            if (csv.Uint(csv.Column("op")) == 0 && (event == "commit" || event == "abort"))
            {
                ++outcomes[{csv.Uint(csv.Column("client")), csv.Uint(csv.Column("attempt"))}];
            }
        }
        CHECK(outcomes.size() > 100);
        for (const auto& [attempt, count] : outcomes)
        {
            INFO("client " << attempt.first << " attempt " << attempt.second);
            CHECK(count == 1);
        }
    }
}

TEST_CASE("onepipe_tpcc: a backup whose link returns resyncs the log it missed from its "
          "primary and is included again (R32)",
          "[onepipe][apps][tpcc][failures]")
{
    InitIncsim();
    // Before the resync the rejoined replica stayed left out of every scattering to the end.
    // Seed 3: the recovering process also delivered the transactions it had sent to itself
    // after its failure timestamp, which every other replica discarded (its own failure was
    // missing from its recovery notice): its writes differed from its primary's.
    for (const int seed : {1, 3})
    {
        INFO("seed " << seed);
        TempDir dir;
        RunTpcc(dir, "1pipe",
                {fmt::format("seed={}", seed), "duration=600us", "workload.stop=400us",
                 R"(faults=[{"at": "100us", "action": "link_down", "link": ["h5", "tor0"]},
                            {"at": "200us", "action": "link_up", "link": ["h5", "tor0"]}])"});
        const CheckReport report = onepipe::apps::CheckTpccRun(dir.Path());
        INFO(ViolationText(report));
        CHECK(report.Ok()); // the backup's writes equal its primary's, key by key
        const nlohmann::json metrics = TpccMetrics(dir);
        const nlohmann::json& resyncs = metrics.at("tpcc").at("failures").at("resyncs");
        REQUIRE(resyncs.size() == 1);
        const nlohmann::json& resync = resyncs.at(0);
        CHECK(resync.at("process") == 5);
        CHECK(resync.at("rejoined_us").get<double>() > 200);
        CHECK(resync.at("resynced_us").get<double>() > resync.at("rejoined_us").get<double>());
        CHECK(resync.at("decisions").get<uint64_t>() > 20); // ~100 us of its shard's load
        CHECK(metrics.at("tpcc").at("unfinished_transactions") == 0);
        // Included again: the replica decides transactions sent after its resync, and its
        // initiator commits again.
        const auto resyncedNs =
            static_cast<int64_t>(resync.at("resynced_us").get<double>() * 1e3);
        CsvReader log(dir.File("txn_log.csv"), {"server", "op", "time_ns"});
        uint64_t decided = 0;
        while (log.Next())
        {
            decided += log.Uint(log.Column("server")) == 5 && log.Uint(log.Column("op")) == 0 &&
                               log.Int(log.Column("time_ns")) > resyncedNs + 10'000
                           ? 1
                           : 0;
        }
        CHECK(decided > 20);
        CsvReader client(dir.File("txn_client.csv"), {"client", "event", "op", "time_ns"});
        uint64_t commits = 0;
        while (client.Next())
        {
            commits += client.Uint(client.Column("client")) == 5 &&
                               client.Uint(client.Column("op")) == 0 &&
                               client.Text(client.Column("event")) == "commit" &&
                               client.Int(client.Column("time_ns")) > resyncedNs
                           ? 1
                           : 0;
        }
        CHECK(commits > 10);
    }
}

TEST_CASE("onepipe_tpcc: with the controller's Recall left out, the replica failure is caught",
          "[onepipe][apps][tpcc][failures][negative]")
{
    InitIncsim();
    TempDir dir;
    // The live replicas deliver the scatterings their initiators were told failed: the
    // initiators report aborts of executed attempts and execute them again.
    RunTpcc(dir, "1pipe", ReplicaFailure(5, "skip-recall"));
    const CheckReport report = onepipe::apps::CheckTpccRun(dir.Path());
    CHECK_FALSE(report.Ok());
    CHECK_THAT(ViolationText(report), Catch::Contains("outcomes"));
}

TEST_CASE("onepipe apps run on the testbed's one calibration, non-blocking as the paper's",
          "[onepipe][apps][calibration]")
{
    // Issue 19: one calibration for every testbed figure (docs/onepipe.md, "Calibration").
    // The apps' scenarios once kept 1 us links and 4 cores, and then the topology generator's
    // 4:1 default: at 32 processes the ToR uplinks saturated and Fig. 14a's 1Pipe stopped
    // growing (docs/onepipe-apps.md, "Fig. 14"). The paper's testbed has no oversubscription.
    const auto read = [](const char* name) {
        return nlohmann::json::parse(
            ReadFile(std::string(INCSIM_SOURCE_DIR) + "/scenarios/onepipe/" + name));
    };
    const nlohmann::json testbed = read("testbed-microbench.json");
    for (const char* name : {"kvs-testbed.json", "tpcc-testbed.json"})
    {
        INFO(name);
        const nlohmann::json app = read(name);
        CHECK(app.at("topology").at("generator") == testbed.at("topology").at("generator"));
        CHECK(app.at("topology").at("params").at("oversubscription") == 1);
        CHECK(app.at("links") == testbed.at("links"));
        CHECK(app.at("switch").at("pipeline_delay") == testbed.at("switch").at("pipeline_delay"));
        CHECK(app.at("hosts") == testbed.at("hosts"));
        CHECK(app.at("clocks") == testbed.at("clocks"));
        for (const char* param : {"beacon_interval", "idle_hosts"})
        {
            CHECK(app.at("protocol").at("params").at(param) ==
                  testbed.at("protocol").at("params").at(param));
        }
    }
}
