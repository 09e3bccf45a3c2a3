// The Gotthard checker (the shared history checker, protocols/txn) against hand-made
// corruptions of good Gotthard runs' histories: each must be caught under the property it
// breaks, and the clean runs must pass.

#include "gotthard-test-support.h"
#include "test-support.h"

#include "protocols/gotthard/gotthard-checker.h"
#include "sim/core/diagnostics.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

/// A CSV trace as text fields (the history traces have no quoted fields).
struct Table
{
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;

    static Table Read(const std::string& path)
    {
        Table table;
        std::istringstream in(ReadFile(path));
        std::string line;
        while (std::getline(in, line))
        {
            std::vector<std::string> fields;
            std::istringstream split(line);
            std::string field;
            while (std::getline(split, field, ','))
            {
                fields.push_back(field);
            }
            (table.header.empty() ? table.header : table.rows.emplace_back()) = fields;
        }
        return table;
    }
    void Write(const std::string& path) const
    {
        std::string text = Join(header);
        for (const auto& row : rows)
        {
            text += Join(row);
        }
        WriteFile(path, text);
    }
    static std::string Join(const std::vector<std::string>& fields)
    {
        std::string line;
        for (const std::string& field : fields)
        {
            line += (line.empty() ? "" : ",") + field;
        }
        return line + "\n";
    }
    size_t Col(const std::string& name) const
    {
        for (size_t i = 0; i < header.size(); ++i)
        {
            if (header[i] == name)
            {
                return i;
            }
        }
        throw std::logic_error("no column " + name);
    }
    std::string& At(size_t row, const std::string& name) { return rows.at(row).at(Col(name)); }
    const std::string& At(size_t row, const std::string& name) const
    {
        return rows.at(row).at(Col(name));
    }
    uint64_t Uint(size_t row, const std::string& name) const { return std::stoull(At(row, name)); }

    /// Each transaction's rows: (first row, count).
    std::vector<std::pair<size_t, size_t>> Groups() const
    {
        std::vector<std::pair<size_t, size_t>> groups;
        for (size_t r = 0; r < rows.size(); ++r)
        {
            if (At(r, "op") == "0")
            {
                groups.emplace_back(r, 0);
            }
            ++groups.back().second;
        }
        return groups;
    }
};

/// A run directory's history traces and metrics, to corrupt and write elsewhere.
struct Traces
{
    Table store;
    Table client;
    nlohmann::json metrics;

    static Traces Read(const std::string& dir)
    {
        return Traces{Table::Read(dir + "/txn_log.csv"),
                      Table::Read(dir + "/txn_client.csv"),
                      ReadJsonFile(dir + "/metrics.json")};
    }
    void Write(const std::string& dir) const
    {
        store.Write(dir + "/txn_log.csv");
        client.Write(dir + "/txn_client.csv");
        WriteFile(dir + "/metrics.json", metrics.dump());
    }

    /// The first client group for which `match(first row, count)` holds; fails if none.
    std::pair<size_t, size_t> ClientGroup(
        const std::function<bool(size_t, size_t)>& match) const
    {
        for (const auto& [first, count] : client.Groups())
        {
            if (match(first, count))
            {
                return {first, count};
            }
        }
        throw std::logic_error("the clean run has no client group of the kind needed");
    }
    /// The store's execution of the attempt of client row `row`; fails if none.
    std::pair<size_t, size_t> StoreGroupOf(size_t row) const
    {
        for (const auto& [first, count] : store.Groups())
        {
            if (store.At(first, "client") == client.At(row, "client") &&
                store.At(first, "attempt") == client.At(row, "attempt"))
            {
                return {first, count};
            }
        }
        throw std::logic_error("no store execution of the attempt");
    }
    /// The client's `event` group of the attempt of store row `row`, if any.
    std::optional<std::pair<size_t, size_t>> ClientGroupOf(size_t row,
                                                           const std::string& event) const
    {
        for (const auto& [first, count] : client.Groups())
        {
            if (client.At(first, "client") == store.At(row, "client") &&
                client.At(first, "attempt") == store.At(row, "attempt") &&
                client.At(first, "event") == event)
            {
                return std::make_pair(first, count);
            }
        }
        return std::nullopt;
    }
};

// Gotthard's operations as the history logs them: a read is a fetch, a compare a read.
const char* const kRead = "fetch";
const char* const kWrite = "write";
const char* const kCompare = "read";

bool
HasType(const Table& table, size_t first, size_t count, const char* type)
{
    for (size_t r = first; r < first + count; ++r)
    {
        if (table.At(r, "type") == type)
        {
            return true;
        }
    }
    return false;
}

/// The first row of `group` with operation `type`.
size_t
RowOf(const Table& table, std::pair<size_t, size_t> group, const char* type)
{
    for (size_t r = group.first; r < group.first + group.second; ++r)
    {
        if (table.At(r, "type") == type)
        {
            return r;
        }
    }
    throw std::logic_error("no such operation");
}

void
AddTo(std::string& field, int64_t delta)
{
    field = std::to_string(static_cast<int64_t>(std::stoull(field)) + delta);
}

/// Removes `group` of `table` (in the store's log, the later seqs stay: a hole).
void
Erase(Table& table, std::pair<size_t, size_t> group)
{
    table.rows.erase(table.rows.begin() + static_cast<std::ptrdiff_t>(group.first),
                     table.rows.begin() + static_cast<std::ptrdiff_t>(group.first + group.second));
}

/// Copies `group` to the end of `table`.
void
AppendCopy(Table& table, std::pair<size_t, size_t> group)
{
    const std::vector<std::vector<std::string>> copy(
        table.rows.begin() + static_cast<std::ptrdiff_t>(group.first),
        table.rows.begin() + static_cast<std::ptrdiff_t>(group.first + group.second));
    table.rows.insert(table.rows.end(), copy.begin(), copy.end());
}

/// Copies `group` of the store's log right after itself, and moves the later seqs on by one.
void
ExecuteAgain(Table& store, std::pair<size_t, size_t> group)
{
    std::vector<std::vector<std::string>> copy(
        store.rows.begin() + static_cast<std::ptrdiff_t>(group.first),
        store.rows.begin() + static_cast<std::ptrdiff_t>(group.first + group.second));
    const uint64_t seq = store.Uint(group.first, "seq");
    for (auto& row : copy)
    {
        row[store.Col("seq")] = std::to_string(seq + 1);
    }
    for (size_t r = group.first + group.second; r < store.rows.size(); ++r)
    {
        AddTo(store.At(r, "seq"), 1);
    }
    store.rows.insert(store.rows.begin() + static_cast<std::ptrdiff_t>(group.first + group.second),
                      copy.begin(), copy.end());
}

struct Corruption
{
    const char* what;
    const char* property;  ///< the property it must be caught under
    std::function<void(Traces&)> apply;
};

/// Every property is reported once; `property` is violated.
void
ExpectCaught(const Traces& clean, const Corruption& corruption)
{
    Traces traces = clean;
    corruption.apply(traces);
    TempDir dir;
    traces.Write(dir.Path());
    const CheckReport report = gotthard::CheckRun(dir.Path());
    INFO(corruption.what << "\n" << ViolationText(report));
    std::set<std::string> held;
    for (const std::string& line : report.passed)
    {
        held.insert(PropertyOf(line));
    }
    std::set<std::string> violated;
    for (const std::string& line : report.violations)
    {
        violated.insert(PropertyOf(line));
        CHECK(held.count(PropertyOf(line)) == 0);
    }
    CHECK(violated.count(corruption.property) == 1);
    CHECK(held.size() + violated.size() == 7);
}

/// A client group: event, who answered, and whether it has operations of `type` (null: any).
std::function<bool(size_t, size_t)>
Is(const Traces& t, const char* event, const char* by, const char* type = nullptr)
{
    return [&t, event, by, type](size_t first, size_t count) {
        return t.client.At(first, "event") == event && t.client.At(first, "by") == by &&
               (type == nullptr || HasType(t.client, first, count, type));
    };
}

/// Runs `scenario` and returns its traces, after checking that the clean run passes.
Traces
CleanRun(const std::string& scenario, const std::vector<std::string>& overrides = {})
{
    TempDir dir;
    RunSummary run = RunIn(dir, scenario, overrides);
    CheckGotthardRun(run.runDir);
    return Traces::Read(run.runDir);
}

} // namespace

TEST_CASE("The Gotthard checker catches hand-made corruptions of a good run",
          "[gotthard][checker]")
{
    InitIncsim();
    // Gotthard with loss: store OKs and ABORTs, switch aborts, retransmissions; reads at the
    // store.
    const Traces g = CleanRun(
        GotthardScenario("gotthard", R"("kind": "counter", "writes": 0.5)", 0.02), {"duration=5s"});
    // The read cache: reads answered by the switch.
    const Traces rc = CleanRun(
        GotthardScenario("read-cache", R"("kind": "counter", "writes": 0.2)"), {"duration=5s"});
    // TPC-C: compare-only Order-Status transactions answered OK by the switch.
    const Traces tpcc = CleanRun(GotthardScenario("gotthard", R"("kind": "tpcc", "payment": 0.5)"),
                                 {"duration=10s"});

    const std::vector<Corruption> onG = {
        {"a store OK whose values are wrong", "outcomes",
         [](Traces& t) {
             const auto group = t.ClientGroup(Is(t, "commit", "server", kWrite));
             AddTo(t.client.At(RowOf(t.client, group, kWrite), "value"), 1);
         }},
        {"a committed transaction reported to its client as ABORT", "outcomes",
         [](Traces& t) {
             const auto [first, count] = t.ClientGroup(Is(t, "commit", "server", kWrite));
             for (size_t r = first; r < first + count; ++r)
             {
                 t.client.At(r, "event") = "abort";
             }
         }},
        {"a committed transaction reported as aborted by a switch", "outcomes",
         [](Traces& t) {
             const auto [first, count] = t.ClientGroup(Is(t, "commit", "server", kWrite));
             for (size_t r = first; r < first + count; ++r)
             {
                 t.client.At(r, "event") = "abort";
                 t.client.At(r, "by") = "network";
             }
         }},
        {"a store ABORT with wrong corrections", "outcomes",
         [](Traces& t) {
             const auto group = t.ClientGroup(Is(t, "abort", "server", kCompare));
             AddTo(t.client.At(RowOf(t.client, group, kCompare), "value"), 7);
         }},
        {"an answer to an attempt never sent", "outcomes",
         [](Traces& t) {
             const auto [first, count] = t.ClientGroup(Is(t, "commit", "server", kWrite));
             for (size_t r = first; r < first + count; ++r)
             {
                 AddTo(t.client.At(r, "attempt"), int64_t{1} << 40);
             }
         }},
        {"an attempt settled twice", "outcomes",
         [](Traces& t) {
             AppendCopy(t.client, t.ClientGroup(Is(t, "abort", "server")));
         }},
        {"one logical transaction applied twice (two logical transactions merged)", "at most once",
         [](Traces& t) {
             // The client's logical transaction after its first store commit becomes part of it.
             const auto committed = t.ClientGroup(Is(t, "commit", "server", kWrite));
             const std::string client = t.client.At(committed.first, "client");
             const uint64_t logical = t.client.Uint(committed.first, "logical");
             for (size_t r = 0; r < t.client.rows.size(); ++r)
             {
                 if (t.client.At(r, "client") == client &&
                     t.client.Uint(r, "logical") == logical + 1)
                 {
                     t.client.At(r, "logical") = std::to_string(logical);
                 }
             }
         }},
        {"an attempt executed twice", "at most once",
         [](Traces& t) {
             // An abort changes nothing, so executing it again is still a serial history.
             for (const auto& group : t.store.Groups())
             {
                 if (t.store.At(group.first, "outcome") == "abort")
                 {
                     ExecuteAgain(t.store, group);
                     return;
                 }
             }
         }},
        {"a commit against a stale compare (sent so)", "serializability",
         [](Traces& t) {
             const auto answer = t.ClientGroup(Is(t, "commit", "server", kCompare));
             const auto executed = t.StoreGroupOf(answer.first);
             AddTo(t.store.At(RowOf(t.store, executed, kCompare), "value"), 1000);
             const auto sent = t.ClientGroupOf(executed.first, "send");
             AddTo(t.client.At(RowOf(t.client, *sent, kCompare), "value"), 1000);
         }},
        {"a store read of a value the serial replay does not have", "serializability",
         [](Traces& t) {
             const auto answer = t.ClientGroup(Is(t, "commit", "server", kRead));
             const auto executed = t.StoreGroupOf(answer.first);
             AddTo(t.store.At(RowOf(t.store, executed, kRead), "value"), 1);
         }},
        {"a store abort whose compares held", "aborts justified",
         [](Traces& t) {
             const auto answer = t.ClientGroup(Is(t, "commit", "server", kRead));
             const auto [first, count] = t.StoreGroupOf(answer.first);
             for (size_t r = first; r < first + count; ++r)
             {
                 t.store.At(r, "outcome") = "abort";
             }
         }},
        {"a hole in the store's history", "serializability",
         [](Traces& t) {
             for (const auto& group : t.store.Groups())
             {
                 if (t.store.At(group.first, "outcome") == "abort")
                 {
                     Erase(t.store, group);
                     return;
                 }
             }
         }},
        {"a final state unlike the replay's", "no lost or doubled writes",
         [](Traces& t) {
             auto& digest = t.metrics["gotthard"]["store_digest"];
             digest = digest.get<uint64_t>() ^ 1;
         }},
        {"a switch OK for writes the store aborted", "no lost or doubled writes",
         [](Traces& t) {
             const auto [first, count] = t.ClientGroup(Is(t, "abort", "server", kWrite));
             for (size_t r = first; r < first + count; ++r)
             {
                 t.client.At(r, "event") = "commit";
                 t.client.At(r, "by") = "network";
             }
         }},
        {"an execution no client sent", "request integrity",
         [](Traces& t) {
             for (const auto& [first, count] : t.store.Groups())
             {
                 if (t.store.At(first, "outcome") == "abort")
                 {
                     for (size_t r = first; r < first + count; ++r)
                     {
                         AddTo(t.store.At(r, "attempt"), int64_t{1} << 40);
                     }
                     return;
                 }
             }
         }},
        {"an execution of another write than the one sent", "request integrity",
         [](Traces& t) {
             const auto answer = t.ClientGroup(Is(t, "commit", "server", kWrite));
             const auto sent = t.ClientGroupOf(t.StoreGroupOf(answer.first).first, "send");
             AddTo(t.client.At(RowOf(t.client, *sent, kWrite), "value"), 1);
         }},
        {"an execution before its request was sent", "request integrity",
         [](Traces& t) {
             const auto answer = t.ClientGroup(Is(t, "commit", "server", kWrite));
             const auto executed = t.StoreGroupOf(answer.first);
             const auto [first, count] = *t.ClientGroupOf(executed.first, "send");
             for (size_t r = first; r < first + count; ++r)
             {
                 t.client.At(r, "time_ns") =
                     std::to_string(t.store.Uint(executed.first, "time_ns") + 1);
             }
         }},
        {"an attempt id sent twice", "request integrity",
         [](Traces& t) {
             AppendCopy(t.client, t.ClientGroup(Is(t, "send", "client")));
         }},
        {"a store OK received before the store executed it", "strict serializability",
         [](Traces& t) {
             const auto [first, count] = t.ClientGroup(Is(t, "commit", "server", kWrite));
             const uint64_t executed = t.store.Uint(t.StoreGroupOf(first).first, "time_ns");
             for (size_t r = first; r < first + count; ++r)
             {
                 t.client.At(r, "time_ns") = std::to_string(executed - 1);
             }
         }},
    };
    for (const Corruption& corruption : onG)
    {
        ExpectCaught(g, corruption);
    }

    const std::vector<Corruption> onRc = {
        {"a switch read of a value the store never held", "serializability",
         [](Traces& t) {
             const auto group = t.ClientGroup(Is(t, "commit", "network", kRead));
             t.client.At(group.first, "value") = "987654321";
         }},
        {"a stale switch read: a value overwritten by a commit answered before the read was sent",
         "strict serializability",
         [](Traces& t) {
             // A read answered v (v > 0) by the switch, sent after the client that wrote v was
             // told OK: it may not read v - 1 any more.
             std::map<uint64_t, int64_t> okAtOf;  // counter value -> when its writer got OK
             for (const auto& [first, count] : t.client.Groups())
             {
                 if (t.client.At(first, "event") == "commit" &&
                     HasType(t.client, first, count, kWrite))
                 {
                     const size_t write = RowOf(t.client, {first, count}, kWrite);
                     okAtOf[t.client.Uint(write, "value")] =
                         static_cast<int64_t>(t.client.Uint(first, "time_ns"));
                 }
             }
             std::map<std::string, int64_t> sentAt;  // client/txn -> first send
             for (const auto& [first, count] : t.client.Groups())
             {
                 if (t.client.At(first, "event") == "send")
                 {
                     sentAt[t.client.At(first, "client") + "/" + t.client.At(first, "attempt")] =
                         static_cast<int64_t>(t.client.Uint(first, "time_ns"));
                 }
             }
             const auto read = t.ClientGroup([&](size_t first, size_t count) {
                 if (!Is(t, "commit", "network", kRead)(first, count))
                 {
                     return false;
                 }
                 const uint64_t value = t.client.Uint(first, "value");
                 const auto ok = okAtOf.find(value);
                 return value > 0 && ok != okAtOf.end() &&
                        ok->second < sentAt[t.client.At(first, "client") + "/" +
                                            t.client.At(first, "attempt")];
             });
             AddTo(t.client.At(read.first, "value"), -1);
         }},
    };
    for (const Corruption& corruption : onRc)
    {
        ExpectCaught(rc, corruption);
    }

    ExpectCaught(tpcc, {"a switch OK that changes the compares it confirms", "outcomes",
                        [](Traces& t) {
                            const auto group = t.ClientGroup(Is(t, "commit", "network", kCompare));
                            AddTo(t.client.At(RowOf(t.client, group, kCompare), "value"), 1);
                        }});
}

TEST_CASE("The Gotthard checker refuses malformed traces with the line named",
          "[gotthard][checker]")
{
    InitIncsim();
    TempDir run;
    RunIn(run, GotthardScenario("gotthard", R"("kind": "counter", "writes": 0.5)"),
          {"duration=1s"});
    const Traces clean = Traces::Read(run.Path());
    TempDir dir;
    const auto refused = [&clean, &dir](const std::function<void(Traces&)>& corrupt) {
        Traces traces = clean;
        corrupt(traces);
        traces.Write(dir.Path());
        return dir.Path();
    };
    CHECK_THROWS_WITH(gotthard::CheckRun(
                          refused([](Traces& t) { t.client.At(0, "event") = "sent"; })),
                      Catch::Contains("txn_client.csv") && Catch::Contains("line 2") &&
                          Catch::Contains("unknown event \"sent\""));
    CHECK_THROWS_WITH(gotthard::CheckRun(refused([](Traces& t) { t.store.At(1, "op") = "5"; })),
                      Catch::Contains("txn_log.csv") && Catch::Contains("line 3") &&
                          Catch::Contains("does not continue"));
    CHECK_THROWS_WITH(gotthard::CheckRun(refused([](Traces& t) { t.store.At(0, "type") = "9"; })),
                      Catch::Contains("unknown operation type \"9\""));
}
