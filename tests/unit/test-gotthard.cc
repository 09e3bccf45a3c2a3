// Gotthard: serializability of every mode on randomized seeds, with and without loss; the
// broken switch as the checker's negative control; the paper's headline trends; TPC-C with
// fragmented transactions; fragment reassembly. The trust regressions (at most once, replays,
// crashes, transaction ids, limits) are in test-gotthard-trust.cc, the checker's own tests in
// test-gotthard-checker.cc.

#include "gotthard-test-support.h"
#include "test-support.h"

#include "protocols/gotthard/gotthard-checker.h"
#include "protocols/gotthard/gotthard-wire.h"
#include "sim/runner/runner.h"
#include "sim/trace/csv-reader.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <set>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

double
Metric(const RunSummary& run, const char* name)
{
    return run.metrics["gotthard"][name].get<double>();
}

/// Real time is not expected of the caching modes when store answers can be lost, nor with
/// more than one switch between clients and the store (docs/gotthard.md).
const std::set<std::string> kButRealTime = {"strict serializability"};

} // namespace

TEST_CASE("Gotthard runs are serializable in every mode, with and without loss",
          "[gotthard][checker]")
{
    InitIncsim();
    const char* workloads[] = {R"("kind": "counter", "writes": 0.5)",
                               R"("kind": "zipf", "keys": 10, "zipf": 1.5, "writes": 0.3)"};
    for (const char* mode : {"gotthard", "read-cache", "forward"})
    {
        for (const char* workload : workloads)
        {
            for (double loss : {0.0, 0.02})
            {
                for (int seed : {1, 2})
                {
                    TempDir dir;
                    RunSummary run = RunIn(dir, GotthardScenario(mode, workload, loss),
                                         {fmt::format("seed={}", seed)});
                    INFO(mode << " | " << workload << " | loss " << loss << " | seed " << seed);
                    const bool strict = loss == 0 || std::string(mode) == "forward";
                    CheckGotthardRun(run.runDir, strict ? std::set<std::string>{} : kButRealTime);
                    CHECK(Metric(run, "committed_writes") > 100);
                    if (loss > 0)
                    {
                        CHECK(Metric(run, "timeouts") > 0);
                    }
                }
            }
        }
    }
}

TEST_CASE("TPC-C runs are serializable in every mode, with fragments and loss",
          "[gotthard][checker][tpcc]")
{
    InitIncsim();
    for (const char* mode : {"gotthard", "read-cache", "forward"})
    {
        for (double loss : {0.0, 0.02})
        {
            TempDir dir;
            RunSummary run =
                RunIn(dir, GotthardScenario(mode, R"("kind": "tpcc", "payment": 0.7)", loss));
            INFO(mode << " | loss " << loss);
            const bool strict = loss == 0 || std::string(mode) == "forward";
            CheckGotthardRun(run.runDir, strict ? std::set<std::string>{} : kButRealTime);
            const auto& kinds = run.metrics["gotthard"]["kinds"];
            CHECK(kinds["payment"]["committed"].get<uint64_t>() > 50);
            CHECK(kinds["order_status"]["committed"].get<uint64_t>() > 20);
            if (loss > 0)
            {
                CHECK(Metric(run, "timeouts") > 0);
            }

            // Order-Status of customers with more than 8 order lines spans two packets.
            CsvReader log(run.runDir + "/txn_log.csv", {"seq", "outcome", "op"});
            const size_t seq = log.Column("seq");
            const size_t outcome = log.Column("outcome");
            const size_t op = log.Column("op");
            std::set<uint64_t> fragmentedCommits;
            while (log.Next())
            {
                if (log.Uint(op) >= gotthard::kMaxOpsPerPacket && log.Text(outcome) == "commit")
                {
                    fragmentedCommits.insert(log.Uint(seq));
                }
            }
            CHECK(fragmentedCommits.size() > 10);
        }
    }
}

TEST_CASE("Optimistic abort doubles TPC-C Payment throughput over the read cache",
          "[gotthard][trend][tpcc]")
{
    InitIncsim();
    // Paper Sec. 5.4: about 2x the read cache for Payment; asserted at each delta. Switches
    // that keep a pending value until its own transaction's response (0.64x at delta 0.2) or
    // reset it on every store abort (1.49x) fall into a livelock or a metastable state of
    // aborts; one that lets any transaction start a chain of optimistic writes, at delta 0 and
    // 0.1, into a livelock of two chains each rooted on the other's doomed values (0.66x and
    // 0.63x). See docs/gotthard.md.
    for (const char* delta : {"0", "0.1", "0.2"})
    {
        auto payments = [delta](const char* mode) {
            TempDir dir;
            const std::string deltaOverride = fmt::format("/topology/params/delta={}", delta);
            RunSummary run = RunIn(dir, GotthardScenario(mode, R"("kind": "tpcc")"),
                                   {"duration=60s", deltaOverride});
            return run.metrics["gotthard"]["kinds"]["payment"]["throughput_txn_per_s"]
                .get<double>();
        };
        const double ratio = payments("gotthard") / payments("read-cache");
        INFO("delta " << delta << ": Payment, Gotthard / read cache: " << ratio << "x");
        CHECK(ratio >= 2.0);
    }
}

TEST_CASE("Gotthard on every switch of Fig. 4 keeps committing TPC-C", "[gotthard][checker][tpcc]")
{
    InitIncsim();
    // The middle switch's aborts pass the edges. An edge that ignored them kept its chains of
    // writes the store never sees, and aborted every client on them: 6 commits in 3 minutes.
    auto run = [](const char* mode, const TempDir& dir) {
        RunSummary summary = RunIn(dir, GotthardScenario(mode, R"("kind": "tpcc")"),
                                   {"/topology/params/layout=two-edge",
                                    R"(/protocol/params/switches=["G1", "G2", "S"])"});
        return summary.metrics["gotthard"]["throughput_txn_per_s"].get<double>();
    };
    TempDir stacked;
    TempDir forward;
    const double ratio = run("gotthard", stacked) / run("forward", forward);
    INFO("Gotthard on G1, G2 and S / forwarding: " << ratio << "x");
    CHECK(ratio >= 0.9);
    // The edges never see each other's commits, so their compare-only OKs can be stale.
    CheckGotthardRun(stacked.Path(), kButRealTime);
}

TEST_CASE("Two edge switches answer from caches that miss each other's commits",
          "[gotthard][checker]")
{
    InitIncsim();
    // Fig. 4 with the read cache on both edges: each edge learns only from its own clients'
    // answers, so it serves values the other site has overwritten. Serializable (they held,
    // earlier), but not strictly: the real-time property must catch it, and only it.
    TempDir dir;
    const char* zipf = R"("kind": "zipf", "keys": 10, "zipf": 1.0, "writes": 0.3)";
    RunSummary run = RunIn(dir, GotthardScenario("read-cache", zipf),
                           {"/topology/params/layout=two-edge", "/topology/params/clients=4",
                            R"(/protocol/params/switches=["G1", "G2"])"});
    const CheckReport report = CheckGotthardRun(run.runDir, kButRealTime);
    CHECK_FALSE(report.Ok());
}

TEST_CASE("Negative control: a switch that answers OK to writes is caught", "[gotthard][checker]")
{
    InitIncsim();
    TempDir dir;
    RunSummary run =
        RunIn(dir, GotthardScenario("broken-ok-writes", R"("kind": "counter", "writes": 0.5)"));
    const CheckReport report = gotthard::CheckRun(run.runDir);
    REQUIRE_FALSE(report.Ok());
    // Its OKs commit writes that no store committed: lost writes.
    CHECK(ViolationText(report).find("no lost or doubled writes: ") != std::string::npos);
    for (const std::string& line : report.passed)
    {
        CHECK(PropertyOf(line) != "no lost or doubled writes");
    }
}

TEST_CASE("Optimistic abort beats the read cache under write contention", "[gotthard][trend]")
{
    InitIncsim();
    // Paper Sec. 5.3: 1.5x the read cache's throughput at 20% writes, 3.3x at about 50%.
    // Asserted: Gotthard ahead by at least 1.3x at 20% and 2.5x at 50%, and its lead grows.
    auto throughput = [](const char* mode, double writes) {
        TempDir dir;
        RunSummary run = RunIn(
            dir, GotthardScenario(mode, fmt::format(R"("kind": "counter", "writes": {})", writes)));
        return Metric(run, "throughput_txn_per_s");
    };
    const double at20 = throughput("gotthard", 0.2) / throughput("read-cache", 0.2);
    const double at50 = throughput("gotthard", 0.5) / throughput("read-cache", 0.5);
    INFO("Gotthard / read cache: " << at20 << "x at 20% writes, " << at50 << "x at 50%");
    CHECK(at20 >= 1.3);
    CHECK(at50 >= 2.5);
    CHECK(at50 > at20);
}

namespace
{

/// Two client sites A and B (4 clients each) behind their own Gotthard switch, and a third
/// switch at the store's site S (the paper's Fig. 4), over `keys` keys.
std::string
LocalityScenario(double locality)
{
    return fmt::format(R"({{
        "seed": 1,
        "duration": "10s",
        "topology": {{"generator": "wan", "params": {{
            "sites": ["A", "B", "S"], "site_hosts": [4, 4, 1],
            "links": [["A", "S"], ["B", "S"]],
            "one_way_delay": [["0ns", "4ms", "8ms"], ["4ms", "0ns", "8ms"],
                              ["8ms", "8ms", "0ns"]],
            "site_link_delay": "1ms"}}}},
        "links": {{"rate": "1Gbps"}},
        "routing": {{"metric": "delay"}},
        "protocol": {{"name": "gotthard", "params": {{"store": "S-h0",
                      "switches": ["A", "B", "S"]}}}},
        "workload": {{"kind": "locality", "keys": 10, "zipf": 3, "writes": 0.5,
                      "locality": {}}},
        "outputs": {{"traces": ["txn_log", "txn_client"], "progress": "never"}}
    }})",
                       locality);
}

} // namespace

TEST_CASE("The locality workload keeps each site on its own keys, but for the remote share",
          "[gotthard][workload]")
{
    InitIncsim();
    // Hosts 0-3 are at site A (keys 0-4), 4-7 at B (keys 5-9). With locality 0.5 the first
    // two clients of each site use the other site's keys.
    for (double locality : {1.0, 0.5})
    {
        TempDir dir;
        RunSummary run = RunIn(dir, LocalityScenario(locality));
        INFO("locality " << locality);
        CheckGotthardRun(run.runDir, kButRealTime);
        std::vector<std::set<uint64_t>> keysOf(8);
        CsvReader store(run.runDir + "/txn_log.csv", {"client", "key"});
        while (store.Next())
        {
            keysOf[store.Uint(store.Column("client"))].insert(store.Uint(store.Column("key")));
        }
        for (uint64_t host = 0; host < 8; ++host)
        {
            const bool siteA = host < 4;
            const bool remote = locality < 1 && host % 4 < 2;
            const uint64_t first = (siteA != remote) ? 0 : 5;
            INFO("host " << host);
            REQUIRE_FALSE(keysOf[host].empty());
            CHECK(*keysOf[host].begin() >= first);
            CHECK(*keysOf[host].rbegin() < first + 5);
        }
    }
}

TEST_CASE("A one-slot cache still aborts early and stays serializable", "[gotthard][checker]")
{
    InitIncsim();
    // Ten keys share one slot: each write evicts the last key, compares mostly miss.
    TempDir dir;
    RunSummary run = RunIn(dir,
                           GotthardScenario("gotthard", R"("kind": "zipf", "keys": 10,
                                                           "zipf": 1.0, "writes": 0.5)"),
                           {"protocol.params.cache_slots=1"});
    CheckGotthardRun(run.runDir);
    CHECK(Metric(run, "switch_aborts") > 0);
    CHECK(Metric(run, "store_aborts") > 0);
}

TEST_CASE("Gotthard refuses scenarios that do not fit it", "[gotthard][config]")
{
    InitIncsim();
    TempDir dir;
    const std::string counter = R"("kind": "counter")";
    CHECK_THROWS_WITH(RunIn(dir, GotthardScenario("gotthard", counter), {"protocol.params.store=G"}),
                      Catch::Contains("/protocol/params/store") && Catch::Contains("not a host"));
    CHECK_THROWS_WITH(RunIn(dir, GotthardScenario("gotthard", counter),
                            {R"(protocol.params.switches=["G", "X"])"}),
                      Catch::Contains("/protocol/params/switches/1") &&
                          Catch::Contains("not a switch"));
    CHECK_THROWS_WITH(RunIn(dir, GotthardScenario("gotthard", R"("kind": "locality")")),
                      Catch::Contains("/workload/kind") && Catch::Contains("two sites"));
}

TEST_CASE("Gotthard messages fragment and reassemble in any order, with duplicates",
          "[gotthard][wire]")
{
    using namespace incsim::gotthard;
    Message message;
    message.header.txnId = gotthard::TxnId(3, 0x401234);
    for (uint32_t i = 0; i < 23; ++i)
    {
        message.ops.push_back(Op{i % 2 ? OpType::Write : OpType::Compare, i, 1000u + i});
    }
    std::vector<std::vector<uint8_t>> packets;
    message.EncodeFragments(packets);
    REQUIRE(packets.size() == 3);

    Reassembly reassembly;
    for (size_t i : {2, 0, 2})
    {
        auto fragment = Message::Decode(packets[i].data(), static_cast<uint32_t>(packets[i].size()));
        REQUIRE(fragment);
        CHECK(fragment->header.fragCount == 3);
        CHECK(reassembly.Add(*fragment) == Reassembly::Result::Incomplete);
    }
    auto last = Message::Decode(packets[1].data(), static_cast<uint32_t>(packets[1].size()));
    REQUIRE(reassembly.Add(*last) == Reassembly::Result::Complete);
    const Message whole = reassembly.Take();
    CHECK(whole.header.txnId == gotthard::TxnId(3, 0x401234));
    CHECK(whole.header.fragCount == 1);
    REQUIRE(whole.ops.size() == 23);
    for (uint32_t i = 0; i < 23; ++i)
    {
        CHECK(whole.ops[i].key == i);
        CHECK(whole.ops[i].value == 1000u + i);
    }

    Message stray = *last;
    stray.header.fragCount = 2;
    Reassembly other;
    CHECK(other.Add(*last) == Reassembly::Result::Incomplete);
    CHECK(other.Add(stray) == Reassembly::Result::Invalid);

    Message small;
    small.ops.resize(kMaxOpsPerPacket);
    small.EncodeFragments(packets);
    CHECK(packets.size() == 1);
}
