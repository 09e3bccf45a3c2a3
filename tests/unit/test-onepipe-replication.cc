// 1-RTT replication on best-effort 1Pipe against Ceph's chain (docs/onepipe-apps.md, "1-RTT
// replication"): equal logs on every replica and every successful write in them, with and
// without loss (retransmissions); the negative control (retransmissions with a fresh
// timestamp) caught; the latency model (1 disk write + 1 RTT against 3 + 3); determinism;
// refused setups.

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
ReplicationScenario()
{
    return ReadFile(std::string(INCSIM_SOURCE_DIR) +
                    "/scenarios/onepipe/replication-testbed.json");
}

const std::vector<std::string> kChain = {"protocol.params.system=chain",
                                         "protocol.params.ordering=none"};

/// Several clients writing at once on lossy links: retransmissions land after other clients'
/// writes, so the (timestamp, client) order matters.
const std::vector<std::string> kLossy = {"protocol.params.clients=4",
                                         "protocol.params.process_hosts=8",
                                         "links.loss=0.02", "protocol.params.retry_timeout=100us"};

nlohmann::json
Run(const TempDir& dir, std::vector<std::string> overrides)
{
    RunIn(dir, ReplicationScenario(), overrides);
    return nlohmann::json::parse(ReadFile(dir.File("metrics.json")))
        .at("onepipe_replication")
        .at("replication");
}

void
CheckClean(const nlohmann::json& m)
{
    INFO(m.dump());
    CHECK(m.at("checks").at("mismatched_logs") == 0);
    CHECK(m.at("checks").at("lost_writes") == 0);
    CHECK(m.at("checks").at("unfinished_writes") == 0);
    CHECK(m.at("unresolved_writes") == 0);
    CHECK(m.at("checks").at("succeeded").get<int>() > 5);
}
} // namespace

TEST_CASE("onepipe_replication: 1 disk write + 1 RTT against Ceph's 3 + 3, logs equal",
          "[onepipe][apps][replication]")
{
    InitIncsim();
    TempDir onePipe;
    const nlohmann::json fast = Run(onePipe, {});
    CheckClean(fast);
    CHECK(fast.at("retransmissions") == 0);
    TempDir chain;
    const nlohmann::json slow = Run(chain, kChain);
    CheckClean(slow);
    const double disk = 65;
    const double fastUs = fast.at("latency_mean_us").get<double>();
    const double slowUs = slow.at("latency_mean_us").get<double>();
    // One disk write plus a round trip and the barrier wait (a few us), against three disk
    // writes plus three round trips.
    CHECK(fastUs > disk);
    CHECK(fastUs < disk + 15);
    CHECK(slowUs > 3 * disk);
    CHECK(slowUs < 3 * disk + 30);
}

TEST_CASE("onepipe_replication: with loss, retransmissions keep every replica's log equal",
          "[onepipe][apps][replication][checker]")
{
    InitIncsim();
    SECTION("one client: every write succeeds in the end")
    {
        TempDir dir;
        const nlohmann::json m = Run(dir, {"links.loss=0.02", "protocol.params.retry_timeout=100us"});
        CheckClean(m);
        CHECK(m.at("retransmissions").get<int>() > 0);
    }
    SECTION("four clients: the logs converge; a checksum mismatch is left to recovery")
    {
        // A replica that lost another client's earlier write answers a different checksum
        // until that write is retransmitted: the paper's case for consensus-based recovery,
        // which is not built, so such writes are counted unresolved, not retried.
        TempDir dir;
        const nlohmann::json m = Run(dir, kLossy);
        INFO(m.dump());
        CHECK(m.at("checks").at("mismatched_logs") == 0);
        CHECK(m.at("checks").at("lost_writes") == 0);
        CHECK(m.at("checks").at("unfinished_writes") == 0);
        CHECK(m.at("checks").at("succeeded").get<int>() > 10);
        CHECK(m.at("retransmissions").get<int>() > 0);
    }
}

TEST_CASE("onepipe_replication: retransmissions with a fresh timestamp are caught diverging",
          "[onepipe][apps][replication][checker]")
{
    InitIncsim();
    TempDir dir;
    std::vector<std::string> overrides = kLossy;
    overrides.push_back("protocol.params.retransmit_ts=fresh");
    const nlohmann::json m = Run(dir, overrides);
    INFO(m.dump());
    CHECK(m.at("checks").at("mismatched_logs").get<int>() > 0);
    CHECK(m.at("checksum_mismatches").get<int>() > 0);
}

TEST_CASE("onepipe_replication runs are deterministic",
          "[onepipe][apps][replication][determinism]")
{
    InitIncsim();
    TempDir first;
    TempDir second;
    Run(first, kLossy);
    Run(second, kLossy);
    CHECK(ReadFile(first.File("metrics.json")) == ReadFile(second.File("metrics.json")));
}

TEST_CASE("onepipe_replication refuses setups it cannot run, naming the JSON path",
          "[onepipe][apps][replication][config]")
{
    InitIncsim();
    TempDir dir;
    const std::string scenario = ReplicationScenario();
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.replicas=5"}),
                      Catch::Contains("/protocol/params/replicas"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.service=reliable"}),
                      Catch::Contains("/protocol/params/service"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.ordering=none"}),
                      Catch::Contains("/protocol/params/ordering"));
    CHECK_THROWS_WITH(RunIn(dir, scenario,
                            {"protocol.params.system=chain", "protocol.params.ordering=none",
                             "links.loss=0.01"}),
                      Catch::Contains("/links/loss"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"protocol.params.system=paxos"}),
                      Catch::Contains("/protocol/params/system"));
    CHECK_THROWS_WITH(RunIn(dir, scenario, {"workload.measure_from=2500us"}),
                      Catch::Contains("/workload/measure_from"));
}
