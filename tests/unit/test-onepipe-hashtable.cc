// 1Pipe's remote hash table (docs/onepipe-apps.md, "Remote hash table"): the runs' own
// checks (no stale lookup, no torn read, replicas equal, completed inserts reachable, nothing
// left in flight) on contended runs of 1Pipe (also reliable 1Pipe with loss and 3 replicas)
// and of the fenced baseline; the negative control (the baseline without its fence) caught;
// determinism; refused setups.

#include "test-support.h"

#include "sim/runner/runner.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{
std::string
HashTableScenario()
{
    return ReadFile(std::string(INCSIM_SOURCE_DIR) + "/scenarios/onepipe/hashtable-testbed.json");
}

/// One bucket per shard, lookup-heavy, clients next to servers: inserts race on every bucket
/// and lookups walk the chains being built. Clients stop at 130 us; the run goes on to 1 ms so
/// that contended inserts (CAS retries) settle before the end-of-run checks.
const std::vector<std::string> kContended = {
    "protocol.params.placement=interleaved", "protocol.params.buckets_per_shard=1",
    "workload.preload=16", "workload.insert_share=0.2", "duration=1ms"};

const std::vector<std::string> kBaseline = {"protocol.params.system=baseline",
                                            "protocol.params.ordering=none"};

const std::vector<std::string> kThreeReplicas = {"protocol.params.replicas=3",
                                                 "protocol.params.processes_per_host=2"};

nlohmann::json
Run(const TempDir& dir, std::vector<std::vector<std::string>> parts)
{
    std::vector<std::string> all;
    for (const auto& part : parts)
    {
        all.insert(all.end(), part.begin(), part.end());
    }
    RunIn(dir, HashTableScenario(), all);
    return nlohmann::json::parse(ReadFile(dir.File("metrics.json")))
        .at("onepipe_hashtable")
        .at("hashtable");
}

void
CheckClean(const nlohmann::json& m)
{
    INFO(m.dump());
    const nlohmann::json& c = m.at("checks");
    CHECK(c.at("stale_lookups") == 0);
    CHECK(c.at("torn_reads") == 0);
    CHECK(c.at("mismatched_shards") == 0);
    CHECK(c.at("lost_inserts") == 0);
    CHECK(c.at("replica_disagreements") == 0);
    CHECK(m.at("unfinished_operations") == 0);
    CHECK(m.at("send_failures") == 0);
    // The checks had something to check: lookups of completed inserts, and racing inserts.
    CHECK(c.at("checked_lookups").get<int>() > 50);
    CHECK(c.at("completed_inserts").get<int>() > 20);
    CHECK(m.at("insert").at("cas_retries").get<int>() > 0);
}
} // namespace

TEST_CASE("onepipe_hashtable: 1Pipe and the fenced baseline pass the checks under contention",
          "[onepipe][apps][hashtable][checker]")
{
    InitIncsim();
    SECTION("1Pipe best effort, 8 KB values")
    {
        TempDir dir;
        CheckClean(Run(dir, {kContended, {"workload.value_size=8KB"}}));
    }
    SECTION("1Pipe best effort, 3 replicas")
    {
        TempDir dir;
        CheckClean(Run(dir, {kContended, kThreeReplicas}));
    }
    SECTION("reliable 1Pipe, 3 replicas, loss 1e-3 on every link")
    {
        TempDir dir;
        const nlohmann::json m =
            Run(dir, {kContended, kThreeReplicas,
                      {"protocol.params.service=reliable", "links.loss=1e-3",
                       "workload.insert_share=0.3"}});
        CheckClean(m);
    }
    SECTION("the baseline, fenced, 32 KB values, with and without replication")
    {
        TempDir one;
        CheckClean(Run(one, {kContended, kBaseline, {"workload.value_size=32KB"}}));
        TempDir three;
        CheckClean(Run(three, {kContended, kBaseline, kThreeReplicas}));
    }
}

TEST_CASE("onepipe_hashtable: the baseline without its fence is caught reading unwritten "
          "entries",
          "[onepipe][apps][hashtable][checker]")
{
    InitIncsim();
    // 32 KB entries take longer to arrive than the CAS, so a lookup next to the servers can
    // follow the new head before its entry lands (the WAW hazard, paper 2.2.1).
    TempDir dir;
    const nlohmann::json m = Run(dir, {kContended, kBaseline,
                                       {"workload.value_size=32KB",
                                        "protocol.params.fence=false"}});
    INFO(m.dump());
    CHECK(m.at("checks").at("torn_reads").get<int>() > 0);
    CHECK(m.at("checks").at("stale_lookups").get<int>() > 0);
}

TEST_CASE("onepipe_hashtable runs are deterministic", "[onepipe][apps][hashtable][determinism]")
{
    InitIncsim();
    for (const auto& system : {std::vector<std::string>{}, kBaseline})
    {
        TempDir first;
        TempDir second;
        Run(first, {kContended, kThreeReplicas, system});
        Run(second, {kContended, kThreeReplicas, system});
        CHECK(ReadFile(first.File("metrics.json")) == ReadFile(second.File("metrics.json")));
    }
}

TEST_CASE("onepipe_hashtable refuses setups it cannot run, naming the JSON path",
          "[onepipe][apps][hashtable][config]")
{
    InitIncsim();
    TempDir dir;
    const std::string scenario = HashTableScenario();
    // 16 clients + 16 shards x 3 replicas = 64 processes; the testbed at 1 per host has 32.
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.replicas=3"}),
                      Catch::Contains("/protocol/params/replicas") && Catch::Contains("64"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.ordering=none"}),
                      Catch::Contains("/protocol/params/ordering"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.system=baseline"}),
                      Catch::Contains("/protocol/params/ordering"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.fence=false"}),
                      Catch::Contains("/protocol/params/fence"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"links.loss=1e-3"}), Catch::Contains("/links/loss"));
    CHECK_THROWS_WITH(RunIn(dir, scenario,
                            {"protocol.params.system=baseline", "protocol.params.ordering=none",
                             "links.loss=1e-3"}),
                      Catch::Contains("/links/loss"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"workload.preload=0"}),
                      Catch::Contains("/workload/preload"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.system=farm"}),
                      Catch::Contains("/protocol/params/system"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"workload.measure_from=200us"}),
                      Catch::Contains("/workload/measure_from"));
}
