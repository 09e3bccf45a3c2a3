#include "protocols/gotthard/gotthard-checker.h"

#include "protocols/gotthard/gotthard-store.h"
#include "protocols/gotthard/gotthard-wire.h"
#include "sim/core/diagnostics.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/csv-reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace incsim::gotthard
{

namespace
{

struct LoggedTxn
{
    uint64_t client = 0;
    uint64_t txn = 0;
    bool committed = false;  ///< store: commit; client: ok
    bool fromSwitch = false;
    uint64_t seq = 0;
    std::vector<Op> ops;
};

std::string
Describe(const LoggedTxn& t)
{
    std::string ops;
    for (const Op& op : t.ops)
    {
        const char* kind = op.type == OpType::Read    ? "r"
                           : op.type == OpType::Write ? "w"
                                                      : "c";
        ops += fmt::format("{}{}{}={}", ops.empty() ? "" : " ", kind, op.key, op.value);
    }
    return fmt::format("client {} txn {:#x} [{}]", t.client, t.txn, ops);
}

/// Reads consecutive rows of one transaction (same `group` columns) into LoggedTxns.
std::vector<LoggedTxn>
ReadLog(const std::string& path, bool store)
{
    std::vector<std::string> columns = {"client", "txn", "outcome", "op", "type", "key", "value"};
    columns.push_back(store ? "seq" : "from_switch");
    CsvReader reader(path, columns);
    const size_t client = reader.Column("client");
    const size_t txn = reader.Column("txn");
    const size_t outcome = reader.Column("outcome");
    const size_t op = reader.Column("op");
    const size_t type = reader.Column("type");
    const size_t key = reader.Column("key");
    const size_t value = reader.Column("value");
    const size_t extra = reader.Column(store ? "seq" : "from_switch");
    std::vector<LoggedTxn> txns;
    while (reader.Next())
    {
        if (reader.Uint(op) == 0)
        {
            LoggedTxn t;
            t.client = reader.Uint(client);
            t.txn = reader.Uint(txn);
            t.committed = reader.Text(outcome) == (store ? "commit" : "ok");
            if (store)
            {
                t.seq = reader.Uint(extra);
            }
            else
            {
                t.fromSwitch = reader.Uint(extra) != 0;
            }
            txns.push_back(t);
        }
        if (txns.empty())
        {
            throw InputError(path, "", fmt::format("line {}: an operation before its "
                                                   "transaction's first",
                                                   reader.Line()));
        }
        txns.back().ops.push_back(Op{static_cast<OpType>(reader.Uint(type)),
                                     static_cast<uint32_t>(reader.Uint(key)),
                                     reader.Uint(value)});
    }
    return txns;
}

/// When each key held each value: history point p is the state before store transaction p
/// (point 0: all keys 0).
class History
{
  public:
    uint64_t Value(uint32_t key) const
    {
        const auto it = m_state.find(key);
        return it == m_state.end() ? 0 : it->second;
    }
    void Write(uint32_t key, uint64_t value, uint64_t point)
    {
        m_state[key] = value;
        m_versions[key].push_back({point, value});
    }
    const std::map<uint32_t, uint64_t>& State() const { return m_state; }

    /// The points [from, to) at which `key` held `value` (to = UINT64_MAX: still holds).
    std::vector<std::pair<uint64_t, uint64_t>> Held(uint32_t key, uint64_t value) const
    {
        std::vector<std::pair<uint64_t, uint64_t>> spans;
        const auto found = m_versions.find(key);
        std::vector<std::pair<uint64_t, uint64_t>> versions = {{0, 0}};
        if (found != m_versions.end())
        {
            versions.insert(versions.end(), found->second.begin(), found->second.end());
        }
        for (size_t i = 0; i < versions.size(); ++i)
        {
            if (versions[i].second == value)
            {
                const uint64_t to = i + 1 < versions.size() ? versions[i + 1].first : UINT64_MAX;
                spans.emplace_back(versions[i].first, to);
            }
        }
        return spans;
    }

  private:
    std::map<uint32_t, uint64_t> m_state;
    std::map<uint32_t, std::vector<std::pair<uint64_t, uint64_t>>> m_versions;
};

bool
SameOperations(const LoggedTxn& a, const LoggedTxn& b)
{
    if (a.ops.size() != b.ops.size())
    {
        return false;
    }
    for (size_t i = 0; i < a.ops.size(); ++i)
    {
        if (a.ops[i].type != b.ops[i].type || a.ops[i].key != b.ops[i].key)
        {
            return false;
        }
    }
    return true;
}

} // namespace

CheckReport
CheckRun(const std::string& runDir)
{
    const std::vector<LoggedTxn> store = ReadLog(runDir + "/gotthard_store.csv", true);
    const std::vector<LoggedTxn> seen = ReadLog(runDir + "/gotthard_client.csv", false);
    CheckFindings findings({"serializability", "final state", "switch commits no write",
                            "client outcomes", "switch answers"});

    // Serial replay of the store's log.
    History history;
    std::map<uint32_t, uint64_t> increments;
    std::set<uint32_t> notIncrementOnly;
    std::map<std::pair<uint64_t, uint64_t>, const LoggedTxn*> commits;
    uint64_t committed = 0;
    for (const LoggedTxn& t : store)
    {
        bool stale = false;
        for (const Op& op : t.ops)
        {
            stale |= op.type == OpType::Compare && op.value != history.Value(op.key);
        }
        if (!t.committed)
        {
            if (!stale)
            {
                findings.Add("serializability",
                             fmt::format("seq {}: aborted {} though its compares held", t.seq,
                                         Describe(t)));
            }
            continue;
        }
        ++committed;
        if (stale)
        {
            findings.Add("serializability",
                           fmt::format("seq {}: committed {} against stale values", t.seq,
                                       Describe(t)));
        }
        std::map<uint32_t, uint64_t> compared;
        for (const Op& op : t.ops)
        {
            if (op.type == OpType::Compare)
            {
                compared[op.key] = op.value;
            }
        }
        for (const Op& op : t.ops)
        {
            if (op.type == OpType::Write)
            {
                history.Write(op.key, op.value, t.seq + 1);
                const auto c = compared.find(op.key);
                if (c != compared.end() && op.value == c->second + 1)
                {
                    ++increments[op.key];
                }
                else
                {
                    notIncrementOnly.insert(op.key);
                }
            }
        }
        for (const Op& op : t.ops)
        {
            if (op.type == OpType::Read && op.value != history.Value(op.key))
            {
                findings.Add("serializability",
                               fmt::format("seq {}: {} read key {} as {}, the serial replay "
                                           "has {}",
                                           t.seq, Describe(t), op.key, op.value,
                                           history.Value(op.key)));
            }
        }
        commits[{t.client, t.txn}] = &t;
    }

    // The replay ends in the store's final state; increment-only keys count their increments.
    const nlohmann::json metrics = ReadJsonFile(runDir + "/metrics.json");
    const auto storeKeys = metrics.at("/gotthard/store_keys"_json_pointer).get<uint64_t>();
    const auto storeDigest = metrics.at("/gotthard/store_digest"_json_pointer).get<uint64_t>();
    if (storeKeys != history.State().size() || storeDigest != StateDigest(history.State()))
    {
        findings.Add("final state",
                     fmt::format("the store ends with {} keys (digest {:#x}), the serial replay "
                                 "with {} (digest {:#x})",
                                 storeKeys, storeDigest, history.State().size(),
                                 StateDigest(history.State())));
    }
    for (const auto& [key, value] : history.State())
    {
        if (!notIncrementOnly.count(key) && value != increments[key])
        {
            findings.Add("final state",
                         fmt::format("key {}: {} committed increments but the value is {}", key,
                                     increments[key], value));
        }
    }

    // What clients were told.
    uint64_t storeOks = 0;
    uint64_t switchOks = 0;
    for (const LoggedTxn& t : seen)
    {
        if (!t.committed)
        {
            continue;
        }
        const bool writes = std::any_of(t.ops.begin(), t.ops.end(),
                                        [](const Op& op) { return op.type == OpType::Write; });
        const auto commit = commits.find({t.client, t.txn});
        if (!t.fromSwitch || writes)
        {
            ++storeOks;
            if (commit == commits.end() || !SameOperations(*commit->second, t))
            {
                findings.Add(t.fromSwitch ? "switch commits no write" : "client outcomes",
                               fmt::format("{} was told OK{} but the store did not commit it",
                                           Describe(t), t.fromSwitch ? " by a switch" : ""));
            }
            continue;
        }
        ++switchOks;
        // A switch's answer must be one state of the store's history.
        std::vector<std::pair<uint64_t, uint64_t>> common = {{0, UINT64_MAX}};
        for (const Op& op : t.ops)
        {
            std::vector<std::pair<uint64_t, uint64_t>> next;
            for (const auto& [from, to] : history.Held(op.key, op.value))
            {
                for (const auto& [cFrom, cTo] : common)
                {
                    const uint64_t lo = std::max(from, cFrom);
                    const uint64_t hi = std::min(to, cTo);
                    if (lo < hi)
                    {
                        next.emplace_back(lo, hi);
                    }
                }
            }
            common = std::move(next);
        }
        if (common.empty())
        {
            findings.Add("switch answers",
                           fmt::format("{} was answered by a switch with values the store never "
                                       "held together",
                                       Describe(t)));
        }
    }

    findings.Checked("serializability",
                     fmt::format("{} store transactions replayed serially ({} commits)",
                                 store.size(), committed));
    findings.Checked("final state",
                     fmt::format("{} keys match the replay", history.State().size()));
    findings.Checked("switch commits no write",
                     fmt::format("{} OKs for transactions with writes came from the store",
                                 storeOks));
    findings.Checked("client outcomes",
                     fmt::format("{} commits by the store checked", storeOks));
    findings.Checked("switch answers",
                     fmt::format("{} switch answers are states the store held", switchOks));
    return findings.Report();
}

} // namespace incsim::gotthard
