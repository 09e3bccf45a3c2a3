// The shared history checker (protocols/txn/history-checker) on hand-made histories of two
// shards with versions and a backup: the clean history holds every property, and each
// corruption is caught under exactly the property it breaks (the negative controls).

#include "test-support.h"

#include "protocols/txn/history-checker.h"
#include "protocols/txn/txn-history.h"
#include "sim/core/diagnostics.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

struct Op
{
    std::string type;  ///< read, write, fetch
    uint64_t key;
    uint64_t value;
    std::optional<uint64_t> version;
};

struct Attempt
{
    uint64_t client;
    uint64_t attempt;
    uint64_t logical;
    int64_t sendNs;
    std::vector<Op> ops;
    std::string answer;  ///< commit, abort, or empty: never answered
    std::string by = "server";
    int64_t answerNs = 0;
};

struct Decision
{
    uint64_t server;
    uint64_t shard;
    uint64_t replica;
    uint64_t client;
    uint64_t attempt;
    bool committed;
    int64_t timeNs;
    std::vector<Op> ops;
};

std::string
Row(const Op& op)
{
    return fmt::format("{},{},{},{}", op.type, op.key, op.value,
                       op.version ? std::to_string(*op.version) : "");
}

/// A history: attempts in the client trace's order, decisions in each server's order.
struct History
{
    std::vector<Attempt> attempts;
    std::vector<Decision> log;
    txn::HistoryCheckOptions options;

    void Write(const std::string& dir) const
    {
        std::string client = "client,attempt,logical,kind,event,by,op,type,key,value,version,"
                             "time_ns\n";
        for (const Attempt& a : attempts)
        {
            for (size_t i = 0; i < a.ops.size(); ++i)
            {
                client += fmt::format("{},{},{},k,send,client,{},{},{}\n", a.client, a.attempt,
                                      a.logical, i, Row(a.ops[i]), a.sendNs);
            }
            for (size_t i = 0; !a.answer.empty() && i < a.ops.size(); ++i)
            {
                client += fmt::format("{},{},{},k,{},{},{},{},{}\n", a.client, a.attempt,
                                      a.logical, a.answer, a.by, i, Row(a.ops[i]), a.answerNs);
            }
        }
        std::string log = "server,shard,replica,seq,client,attempt,outcome,op,type,key,value,"
                          "version,time_ns\n";
        std::map<uint64_t, uint64_t> seq;
        for (const Decision& d : this->log)
        {
            const uint64_t s = seq[d.server]++;
            for (size_t i = 0; i < d.ops.size(); ++i)
            {
                log += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", d.server, d.shard,
                                   d.replica, s, d.client, d.attempt,
                                   d.committed ? "commit" : "abort", i, Row(d.ops[i]), d.timeNs);
            }
        }
        WriteFile(dir + "/txn_client.csv", client);
        WriteFile(dir + "/txn_log.csv", log);
    }
    Attempt& Find(uint64_t client, uint64_t attempt)
    {
        for (Attempt& a : attempts)
        {
            if (a.client == client && a.attempt == attempt)
            {
                return a;
            }
        }
        throw std::logic_error("no such attempt");
    }
};

/// Shard 0 (primary server 10, backup 20) holds key 0, shard 1 (server 11) key 100.
/// T1 (client 1) increments both keys, T2 (client 2) key 0 again, T3 (client 1) reads key 100.
History
Clean()
{
    History h;
    h.attempts = {
        {1, 1, 1, 100, {{"read", 0, 0, 0}, {"write", 0, 1, {}}, {"read", 100, 0, 0},
                        {"write", 100, 1, {}}},
         "commit", "server", 300},
        {2, 1, 1, 400, {{"read", 0, 1, 1}, {"write", 0, 2, {}}}, "commit", "server", 600},
        {1, 2, 2, 700, {{"read", 100, 1, 1}}, "commit", "server", 900},
    };
    h.log = {
        {10, 0, 0, 1, 1, true, 200, {{"read", 0, 0, 0}, {"write", 0, 1, 1}}},
        {11, 1, 0, 1, 1, true, 200, {{"read", 100, 0, 0}, {"write", 100, 1, 1}}},
        {20, 0, 1, 1, 1, true, 250, {{"write", 0, 1, 1}}},
        {10, 0, 0, 2, 1, true, 500, {{"read", 0, 1, 1}, {"write", 0, 2, 2}}},
        {20, 0, 1, 2, 1, true, 550, {{"write", 0, 2, 2}}},
        {11, 1, 0, 1, 2, true, 800, {{"read", 100, 1, 1}}},
    };
    h.options.finalStates[0] = {1, txn::StateDigest({{0, 2}})};
    h.options.finalStates[1] = {1, txn::StateDigest({{100, 1}})};
    return h;
}

CheckReport
Check(const History& h)
{
    TempDir dir;
    h.Write(dir.Path());
    return txn::CheckHistory(dir.Path(), h.options);
}

std::string
PropertyOf(const std::string& line)
{
    return line.substr(0, line.find(':'));
}

/// Every declared property is reported once, and exactly `property` is violated.
void
ExpectOnly(const History& h, const std::string& property, size_t properties = 6)
{
    const CheckReport report = Check(h);
    INFO(ViolationText(report));
    std::set<std::string> held;
    std::set<std::string> violated;
    for (const std::string& line : report.passed)
    {
        held.insert(PropertyOf(line));
    }
    for (const std::string& line : report.violations)
    {
        violated.insert(PropertyOf(line));
    }
    CHECK(violated == std::set<std::string>{property});
    CHECK(held.size() + violated.size() == properties);
}

} // namespace

TEST_CASE("The history checker passes a clean sharded, replicated history", "[txn][checker]")
{
    const CheckReport report = Check(Clean());
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(report.passed.size() == 6);
}

TEST_CASE("The history checker catches each property's violation, under that property",
          "[txn][checker]")
{
    SECTION("serializability: a cycle of conflicts across shards")
    {
        // T2 also reads key 100 before T1 writes it at shard 1, but reads T1's key 0.
        History h = Clean();
        h.Find(2, 1).ops.push_back({"read", 100, 0, 0});
        h.log.insert(h.log.begin(), {11, 1, 0, 2, 1, true, 450, {{"read", 100, 0, 0}}});
        ExpectOnly(h, txn::kSerializability);
    }
    SECTION("serializability: a read the serial replay does not have")
    {
        History h = Clean();
        h.Find(1, 2).ops[0].value = 5;
        h.log.back().ops[0].value = 5;
        ExpectOnly(h, txn::kSerializability);
    }
    SECTION("serializability: a version the serial replay does not have")
    {
        History h = Clean();
        h.Find(1, 2).ops[0].version = 0;
        h.log.back().ops[0].version = 0;
        ExpectOnly(h, txn::kSerializability);
    }
    SECTION("strict serializability: a commit told before it was executed")
    {
        History h = Clean();
        h.Find(1, 1).answerNs = 150;
        ExpectOnly(h, txn::kStrictSerializability);
    }
    SECTION("strict serializability: a read of a value overwritten before it was sent")
    {
        // T3, sent after T1 was told COMMIT, reads key 100 before T1's write at shard 1.
        History h = Clean();
        h.Find(1, 2).ops[0] = {"read", 100, 0, 0};
        h.log.pop_back();
        h.log.insert(h.log.begin(), {11, 1, 0, 1, 2, true, 800, {{"read", 100, 0, 0}}});
        ExpectOnly(h, txn::kStrictSerializability);
    }
    SECTION("at most once: one logical transaction committed by two attempts")
    {
        History h = Clean();
        h.attempts.push_back(
            {2, 2, 1, 1000, {{"read", 0, 2, 2}, {"write", 0, 3, {}}}, "commit", "server", 1200});
        h.log.push_back({10, 0, 0, 2, 2, true, 1100, {{"read", 0, 2, 2}, {"write", 0, 3, 3}}});
        h.log.push_back({20, 0, 1, 2, 2, true, 1150, {{"write", 0, 3, 3}}});
        h.options.finalStates[0] = {1, txn::StateDigest({{0, 3}})};
        ExpectOnly(h, txn::kAtMostOnce);
    }
    SECTION("at most once: an attempt executed twice by one server")
    {
        History h = Clean();
        h.log.push_back({11, 1, 0, 1, 2, true, 850, {{"read", 100, 1, 1}}});
        ExpectOnly(h, txn::kAtMostOnce);
    }
    SECTION("no lost or doubled writes: a backup missing a commit")
    {
        History h = Clean();
        h.log.erase(h.log.begin() + 2);
        ExpectOnly(h, txn::kNoLostWrites);
    }
    SECTION("no lost or doubled writes: a final state unlike the replay's")
    {
        History h = Clean();
        h.options.finalStates[1] = {1, txn::StateDigest({{100, 2}})};
        ExpectOnly(h, txn::kNoLostWrites);
    }
    SECTION("no lost or doubled writes: a write committed by the network alone")
    {
        History h = Clean();
        h.attempts.push_back({3, 1, 1, 1000, {{"write", 0, 9, {}}}, "commit", "network", 1100});
        ExpectOnly(h, txn::kNoLostWrites);
    }
    SECTION("outcomes: a commit reported as an abort")
    {
        History h = Clean();
        h.Find(1, 2).answer = "abort";
        ExpectOnly(h, txn::kOutcomes);
    }
    SECTION("outcomes: an abort by the network of a committed attempt")
    {
        History h = Clean();
        h.Find(2, 1).answer = "abort";
        h.Find(2, 1).by = "network";
        ExpectOnly(h, txn::kOutcomes);
    }
    SECTION("outcomes: one shard committed and another aborted")
    {
        History h = Clean();
        h.log[1].committed = false;
        h.Find(1, 2).ops[0] = {"read", 100, 0, 0};
        h.log.back().ops[0] = {"read", 100, 0, 0};
        h.options.finalStates.erase(1);
        ExpectOnly(h, txn::kOutcomes);
    }
    SECTION("request integrity: an execution no client sent")
    {
        History h = Clean();
        h.log.push_back({10, 0, 0, 9, 9, false, 1000, {{"read", 0, 7, 0}}});
        ExpectOnly(h, txn::kRequestIntegrity);
    }
    SECTION("request integrity: an execution before its request was sent")
    {
        History h = Clean();
        h.Find(1, 2).sendNs = 850;
        ExpectOnly(h, txn::kRequestIntegrity);
    }
    SECTION("aborts justified: an abort whose reads held")
    {
        History h = Clean();
        h.options.abortsOnlyOnStaleReads = true;
        h.attempts.push_back(
            {3, 1, 1, 1000, {{"read", 0, 2, 2}, {"write", 0, 3, {}}}, "abort", "server", 1200});
        h.log.push_back({10, 0, 0, 3, 1, false, 1100, {{"read", 0, 2, 2}, {"write", 0, 3, {}}}});
        ExpectOnly(h, txn::kAbortsJustified, 7);
    }
}

TEST_CASE("The history checker refuses malformed traces with the line named", "[txn][checker]")
{
    TempDir dir;
    Clean().Write(dir.Path());
    const std::string log = ReadFile(dir.Path() + "/txn_log.csv");
    const auto refused = [&](const std::string& from, const std::string& to) {
        std::string text = log;
        text.replace(text.find(from), from.size(), to);
        WriteFile(dir.Path() + "/txn_log.csv", text);
        return txn::CheckHistory(dir.Path(), {});
    };
    CHECK_THROWS_WITH(refused("commit,0,read,0,0,0", "commit,0,peek,0,0,0"),
                      Catch::Contains("txn_log.csv") && Catch::Contains("line 2") &&
                          Catch::Contains("unknown operation type \"peek\""));
    CHECK_THROWS_WITH(refused("commit,1,write,0,1,1", "commit,2,write,0,1,1"),
                      Catch::Contains("line 3") && Catch::Contains("does not continue"));
    CHECK_THROWS_WITH(refused("commit,0,read,0,0,0", "done,0,read,0,0,0"),
                      Catch::Contains("unknown outcome \"done\""));
}

TEST_CASE("The history checker takes one decision per replica, on servers that hold several",
          "[txn][checker]")
{
    // SwitchTx's placement: a server is one shard's primary and another's backup, so it
    // decides an attempt that writes both shards twice, once per replica.
    History h = Clean();
    for (Decision& d : h.log)
    {
        if (d.server == 20)
        {
            d.server = 11;
        }
    }
    const CheckReport report = Check(h);
    INFO(ViolationText(report));
    CHECK(report.Ok());

    // The same replica deciding it twice is still caught.
    h.log.push_back(h.log[0]);
    const CheckReport twice = Check(h);
    CHECK(std::any_of(twice.violations.begin(), twice.violations.end(), [](const auto& line) {
        return PropertyOf(line) == txn::kAtMostOnce;
    }));
}

TEST_CASE("The history checker lets a backup install disjoint writes in another order",
          "[txn][checker]")
{
    // T4 (client 3) writes key 1 of shard 0 between T1 and T2 at the primary, after them at
    // the backup; T5 (client 4) only reads key 0, so only the primary logs it.
    History h = Clean();
    h.attempts.push_back({3, 1, 1, 150, {{"write", 1, 7, {}}}, "commit", "server", 700});
    h.attempts.push_back({4, 1, 1, 150, {{"read", 0, 1, 1}}, "commit", "server", 700});
    h.log.insert(h.log.begin() + 1, {10, 0, 0, 3, 1, true, 300, {{"write", 1, 7, 1}}});
    h.log.insert(h.log.begin() + 2, {10, 0, 0, 4, 1, true, 300, {{"read", 0, 1, 1}}});
    h.log.push_back({20, 0, 1, 3, 1, true, 650, {{"write", 1, 7, 1}}});
    h.options.finalStates[0] = {2, txn::StateDigest({{0, 2}, {1, 7}})};
    const CheckReport report = Check(h);
    INFO(ViolationText(report));
    CHECK(report.Ok());

    SECTION("but not writes to one key in another order")
    {
        // The backup installs T2's write of key 0 before T1's.
        std::vector<Decision> log;
        for (const Decision& d : h.log)
        {
            if (d.server == 20 && d.client == 1)
            {
                continue;
            }
            log.push_back(d);
            if (d.server == 20 && d.client == 2)
            {
                log.push_back({20, 0, 1, 1, 1, true, 560, {{"write", 0, 1, 1}}});
            }
        }
        h.log = log;
        ExpectOnly(h, txn::kNoLostWrites);
    }
}

TEST_CASE("The history checker follows a shard's primaries across a server failure",
          "[txn][checker]")
{
    // Shard 0's primary (server 10) crashes after T1; its backup (server 20) takes over and
    // decides T2 as replica 0. T6 (client 5) read key 0 at the old primary at 450, before
    // T2's write, but its decision was settled (written) only after the crash, so the file
    // has it after the new primary's T2.
    History h = Clean();
    h.log = {
        {10, 0, 0, 1, 1, true, 200, {{"read", 0, 0, 0}, {"write", 0, 1, 1}}},
        {11, 1, 0, 1, 1, true, 200, {{"read", 100, 0, 0}, {"write", 100, 1, 1}}},
        {20, 0, 1, 1, 1, true, 250, {{"write", 0, 1, 1}}},
        {20, 0, 0, 2, 1, true, 500, {{"read", 0, 1, 1}, {"write", 0, 2, 2}}},
        {10, 0, 0, 5, 1, true, 450, {{"read", 0, 1, 1}}},
        {11, 1, 0, 1, 2, true, 800, {{"read", 100, 1, 1}}},
    };
    h.attempts.push_back({5, 1, 1, 420, {{"read", 0, 1, 1}}, "commit", "server", 700});
    h.options.crashedServers = {10};
    const CheckReport report = Check(h);
    INFO(ViolationText(report));
    CHECK(report.Ok());

    SECTION("a new primary's read of a version its own write replaced is still caught")
    {
        h.log[4].server = 20;
        h.log[4].timeNs = 550;
        ExpectOnly(h, txn::kSerializability);
    }
}

TEST_CASE("The history checker lets a crashed backup hold an install of an attempt that "
          "recovery aborted",
          "[txn][checker]")
{
    // Backup server 20 installed T7 (client 6, never answered: its server crashed too), then
    // crashed; no live replica held T7, so recovery aborted it and no primary logs it.
    History h = Clean();
    h.attempts.push_back({6, 1, 1, 510, {{"write", 0, 9, {}}}, "", "server", 0});
    h.log.insert(h.log.begin() + 3, {20, 0, 1, 6, 1, true, 520, {{"write", 0, 9, 2}}});
    for (Decision& d : h.log)
    {
        if (d.server == 20 && d.client == 2)
        {
            d.ops[0].version = 3;  // the backup's own count of installs
        }
    }
    SECTION("caught on a live backup")
    {
        ExpectOnly(h, txn::kNoLostWrites);
    }
    SECTION("allowed on a crashed one")
    {
        h.options.crashedServers = {20};
        const CheckReport report = Check(h);
        INFO(ViolationText(report));
        CHECK(report.Ok());
    }
}
