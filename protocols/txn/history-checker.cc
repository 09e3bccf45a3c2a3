#include "protocols/txn/history-checker.h"

#include "protocols/txn/txn-history.h"
#include "sim/core/diagnostics.h"
#include "sim/trace/csv-reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <queue>
#include <set>
#include <tuple>
#include <vector>

namespace incsim::txn
{

const char* const kSerializability = "serializability";
const char* const kStrictSerializability = "strict serializability";
const char* const kAtMostOnce = "at most once";
const char* const kNoLostWrites = "no lost or doubled writes";
const char* const kOutcomes = "outcomes";
const char* const kRequestIntegrity = "request integrity";
const char* const kAbortsJustified = "aborts justified";

namespace
{

constexpr uint64_t kEnd = std::numeric_limits<uint64_t>::max();

/// One txn_client group: an attempt's request or answer.
struct ClientRecord
{
    uint64_t client = 0;
    uint64_t attempt = 0;
    uint64_t logical = 0;
    Event event = Event::Send;
    By by = By::Client;
    int64_t timeNs = 0;
    uint64_t line = 0;
    std::vector<HistoryOp> ops;
};

/// One txn_log group: a server's decision on an attempt.
struct LogRecord
{
    uint64_t server = 0;
    uint64_t shard = 0;
    uint64_t replica = 0;
    uint64_t seq = 0;
    uint64_t client = 0;
    uint64_t attempt = 0;
    bool committed = false;
    int64_t timeNs = 0;
    uint64_t line = 0;
    std::vector<HistoryOp> ops;
    uint64_t pointAfter = 0;  ///< primaries: the serial history point right after it
};

bool
IsRead(const HistoryOp& op)
{
    return op.type != AccessType::Write;
}

std::string
DescribeOps(const std::vector<HistoryOp>& ops)
{
    std::string text;
    for (const HistoryOp& op : ops)
    {
        const char* kind = op.type == AccessType::Read    ? "r"
                           : op.type == AccessType::Write ? "w"
                                                          : "f";
        text += fmt::format("{}{}{}={}{}", text.empty() ? "" : " ", kind, op.key, op.value,
                            op.version ? fmt::format("@{}", *op.version) : "");
    }
    return text;
}

/// Reads the columns every history trace has, and the operation of each row, grouping
/// consecutive rows of one transaction.
class GroupReader
{
  public:
    GroupReader(const std::string& path, std::vector<std::string> extra)
        : m_path(path),
          m_reader(path, Columns(std::move(extra)))
    {
    }
    CsvReader& Reader() { return m_reader; }
    [[noreturn]] void Fail(const std::string& what) const
    {
        throw InputError(m_path, "", fmt::format("line {}: {}", m_reader.Line(), what));
    }
    HistoryOp Op() const
    {
        HistoryOp op;
        const std::string& type = m_reader.Text(m_reader.Column("type"));
        if (type == "read")
        {
            op.type = AccessType::Read;
        }
        else if (type == "write")
        {
            op.type = AccessType::Write;
        }
        else if (type == "fetch")
        {
            op.type = AccessType::Fetch;
        }
        else
        {
            Fail(fmt::format("unknown operation type \"{}\"", type));
        }
        op.key = m_reader.Uint(m_reader.Column("key"));
        op.value = m_reader.Uint(m_reader.Column("value"));
        if (!m_reader.Text(m_reader.Column("version")).empty())
        {
            op.version = m_reader.Uint(m_reader.Column("version"));
        }
        return op;
    }
    /// Whether this row starts a transaction; a later operation must continue `previous`.
    bool Starts(bool sameAsPrevious, size_t previousOps) const
    {
        const uint64_t index = m_reader.Uint(m_reader.Column("op"));
        if (index == 0)
        {
            return true;
        }
        if (!sameAsPrevious || index != previousOps)
        {
            Fail(fmt::format("operation {} does not continue the transaction before it", index));
        }
        return false;
    }

  private:
    static std::vector<std::string> Columns(std::vector<std::string> extra)
    {
        for (const char* column :
             {"client", "attempt", "op", "type", "key", "value", "version", "time_ns"})
        {
            extra.emplace_back(column);
        }
        return extra;
    }
    std::string m_path;
    CsvReader m_reader;
};

std::vector<ClientRecord>
ReadClient(const std::string& path)
{
    GroupReader in(path, {"logical", "kind", "event", "by"});
    CsvReader& r = in.Reader();
    const size_t client = r.Column("client");
    const size_t attempt = r.Column("attempt");
    const size_t logical = r.Column("logical");
    const size_t event = r.Column("event");
    const size_t by = r.Column("by");
    const size_t time = r.Column("time_ns");
    std::vector<ClientRecord> records;
    while (r.Next())
    {
        ClientRecord c;
        const std::string& e = r.Text(event);
        c.event = e == "send" ? Event::Send : e == "commit" ? Event::Commit : Event::Abort;
        if (e != "send" && e != "commit" && e != "abort")
        {
            in.Fail(fmt::format("unknown event \"{}\"", e));
        }
        const std::string& b = r.Text(by);
        c.by = b == "client" ? By::Client : b == "server" ? By::Server : By::Network;
        if ((b != "client" && b != "server" && b != "network") ||
            (c.event == Event::Send) != (c.by == By::Client))
        {
            in.Fail(fmt::format("\"{}\" cannot be by \"{}\"", e, b));
        }
        c.client = r.Uint(client);
        c.attempt = r.Uint(attempt);
        c.logical = r.Uint(logical);
        c.timeNs = r.Int(time);
        c.line = r.Line();
        const bool same = !records.empty() && records.back().client == c.client &&
                          records.back().attempt == c.attempt &&
                          records.back().event == c.event && records.back().by == c.by;
        if (in.Starts(same, records.empty() ? 0 : records.back().ops.size()))
        {
            records.push_back(std::move(c));
        }
        records.back().ops.push_back(in.Op());
    }
    return records;
}

std::vector<LogRecord>
ReadLog(const std::string& path)
{
    GroupReader in(path, {"server", "shard", "replica", "seq", "outcome"});
    CsvReader& r = in.Reader();
    std::vector<LogRecord> records;
    while (r.Next())
    {
        LogRecord l;
        const std::string& outcome = r.Text(r.Column("outcome"));
        if (outcome != "commit" && outcome != "abort")
        {
            in.Fail(fmt::format("unknown outcome \"{}\"", outcome));
        }
        l.committed = outcome == "commit";
        l.server = r.Uint(r.Column("server"));
        l.shard = r.Uint(r.Column("shard"));
        l.replica = r.Uint(r.Column("replica"));
        l.seq = r.Uint(r.Column("seq"));
        l.client = r.Uint(r.Column("client"));
        l.attempt = r.Uint(r.Column("attempt"));
        l.timeNs = r.Int(r.Column("time_ns"));
        l.line = r.Line();
        const bool same = !records.empty() && records.back().server == l.server &&
                          records.back().seq == l.seq && records.back().client == l.client &&
                          records.back().attempt == l.attempt &&
                          records.back().committed == l.committed;
        if (in.Starts(same, records.empty() ? 0 : records.back().ops.size()))
        {
            records.push_back(std::move(l));
        }
        records.back().ops.push_back(in.Op());
    }
    return records;
}

/// When each key held each value and version, over the serial order: point p is the state
/// after the first p committed transactions.
class KeyHistory
{
  public:
    struct Version
    {
        uint64_t point;
        uint64_t value;
    };
    uint64_t Value(uint64_t key) const { return At(key, kEnd).value; }
    /// The key's committed writes so far.
    uint64_t Count(uint64_t key) const
    {
        const auto it = m_versions.find(key);
        return it == m_versions.end() ? 0 : it->second.size();
    }
    void Write(uint64_t key, uint64_t value, uint64_t point)
    {
        m_versions[key].push_back({point, value});
    }
    /// The value at point `point`, and its version (writes before it).
    Version At(uint64_t key, uint64_t point) const
    {
        const auto it = m_versions.find(key);
        if (it == m_versions.end())
        {
            return {0, 0};
        }
        const auto after = std::upper_bound(
            it->second.begin(), it->second.end(), point,
            [](uint64_t p, const Version& v) { return p < v.point; });
        const auto count = static_cast<uint64_t>(after - it->second.begin());
        return {count, count == 0 ? 0 : (after - 1)->value};
    }
    std::map<uint64_t, uint64_t> State(const std::set<uint64_t>& keys) const
    {
        std::map<uint64_t, uint64_t> state;
        for (uint64_t key : keys)
        {
            state[key] = Value(key);
        }
        return state;
    }
    /// The points [from, to) at which every read of `ops` held its value.
    std::vector<std::pair<uint64_t, uint64_t>> HeldTogether(
        const std::vector<HistoryOp>& ops) const
    {
        std::vector<std::pair<uint64_t, uint64_t>> common = {{0, kEnd}};
        for (const HistoryOp& op : ops)
        {
            if (!IsRead(op))
            {
                continue;
            }
            std::vector<std::pair<uint64_t, uint64_t>> next;
            for (const auto& [from, to] : Held(op.key, op.value))
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
        std::sort(common.begin(), common.end());
        return common;
    }

  private:
    std::vector<std::pair<uint64_t, uint64_t>> Held(uint64_t key, uint64_t value) const
    {
        std::vector<Version> versions = {{0, 0}};
        const auto found = m_versions.find(key);
        if (found != m_versions.end())
        {
            versions.insert(versions.end(), found->second.begin(), found->second.end());
        }
        std::vector<std::pair<uint64_t, uint64_t>> spans;
        for (size_t i = 0; i < versions.size(); ++i)
        {
            const uint64_t to = i + 1 < versions.size() ? versions[i + 1].point : kEnd;
            if (versions[i].value == value && versions[i].point < to)
            {
                spans.emplace_back(versions[i].point, to);
            }
        }
        return spans;
    }

    std::map<uint64_t, std::vector<Version>> m_versions;
};

/// An attempt: its request, the answers it was settled with, the servers' decisions.
struct Attempt
{
    uint64_t client = 0;
    uint64_t attempt = 0;
    const ClientRecord* request = nullptr;
    std::vector<const ClientRecord*> answers;
    std::vector<const LogRecord*> primary;  ///< decisions of shard primaries
    std::vector<const LogRecord*> backups;
    std::optional<size_t> position;  ///< in the serial order, if committed at a server
    std::vector<std::pair<uint64_t, uint64_t>> held;  ///< network commit: where reads held

    bool CommittedAtServer() const
    {
        return std::any_of(primary.begin(), primary.end(),
                           [](const LogRecord* l) { return l->committed; });
    }
    const ClientRecord* Answer() const { return answers.size() == 1 ? answers[0] : nullptr; }
    bool ToldCommit(By by) const
    {
        const ClientRecord* answer = Answer();
        return answer && answer->event == Event::Commit && answer->by == by;
    }
    std::string Describe() const
    {
        const std::vector<HistoryOp>& ops = request          ? request->ops
                                            : !answers.empty() ? answers.front()->ops
                                                               : primary.empty()
                                                                     ? backups.front()->ops
                                                                     : primary.front()->ops;
        return fmt::format("client {} attempt {:#x}{} [{}]", client, attempt,
                           request ? fmt::format(" (logical {})", request->logical) : "",
                           DescribeOps(ops));
    }
};

using AttemptKey = std::pair<uint64_t, uint64_t>;

class Checker
{
  public:
    Checker(const std::string& runDir, const HistoryCheckOptions& options)
        : m_options(options),
          m_client(ReadClient(runDir + "/txn_client.csv")),
          m_log(ReadLog(runDir + "/txn_log.csv")),
          m_findings(Properties(options))
    {
    }

    CheckReport Run()
    {
        Collect();
        CheckRequests();
        CheckAtMostOnce();
        Order();
        Replay();
        CheckWrites();
        CheckOutcomes();
        CheckRealTime();
        return m_findings.Report();
    }

  private:
    static std::vector<std::string> Properties(const HistoryCheckOptions& options)
    {
        std::vector<std::string> properties = {kSerializability, kStrictSerializability,
                                               kAtMostOnce,      kNoLostWrites,
                                               kOutcomes,        kRequestIntegrity};
        if (options.abortsOnlyOnStaleReads)
        {
            properties.emplace_back(kAbortsJustified);
        }
        return properties;
    }

    Attempt& Of(uint64_t client, uint64_t attempt)
    {
        Attempt& a = m_attempts[{client, attempt}];
        a.client = client;
        a.attempt = attempt;
        return a;
    }

    void Collect()
    {
        for (const ClientRecord& c : m_client)
        {
            Attempt& a = Of(c.client, c.attempt);
            if (c.event != Event::Send)
            {
                a.answers.push_back(&c);
            }
            else if (a.request)
            {
                m_findings.Add(kRequestIntegrity,
                               fmt::format("line {}: client {} sent attempt {:#x} again as a new "
                                           "attempt (first at line {})",
                                           c.line, c.client, c.attempt, a.request->line));
            }
            else
            {
                a.request = &c;
            }
        }
        std::map<uint64_t, uint64_t> nextSeq;  // by server
        for (LogRecord& l : m_log)
        {
            uint64_t& expected = nextSeq[l.server];
            if (l.seq != expected)
            {
                m_findings.Add(kSerializability,
                               fmt::format("line {}: server {} seq {} where its history has {}: "
                                           "the log is not the server's whole history",
                                           l.line, l.server, l.seq, expected));
            }
            expected = l.seq + 1;
            Attempt& a = Of(l.client, l.attempt);
            (l.replica == 0 ? a.primary : a.backups).push_back(&l);
            if (l.replica == 0)
            {
                m_primaryLogs[l.shard].push_back(&l);
            }
            else
            {
                m_backupLogs[{l.shard, l.server}].push_back(&l);
            }
        }
        // A shard whose primary failed has had several primaries, one after the other: keep
        // each one's decisions in its order, and the primaries in the order they led (a row
        // the old one settles late, a decision it had placed before its crash, stays with it).
        for (auto& [shard, log] : m_primaryLogs)
        {
            std::map<uint64_t, int64_t> since;  // by server: its first decision's time
            for (const LogRecord* l : log)
            {
                since.emplace(l->server, l->timeNs);
            }
            if (since.size() > 1)
            {
                std::stable_sort(log.begin(), log.end(),
                                 [&since](const LogRecord* a, const LogRecord* b) {
                                     return since.at(a->server) < since.at(b->server);
                                 });
            }
        }
    }

    /// Every decision is of an attempt its client sent, as sent, after it was sent.
    void CheckRequests()
    {
        uint64_t decisions = 0;
        for (const auto& [key, a] : m_attempts)
        {
            std::vector<bool> covered(a.request ? a.request->ops.size() : 0, false);
            for (const auto* list : {&a.primary, &a.backups})
            {
                for (const LogRecord* l : *list)
                {
                    ++decisions;
                    const std::string what =
                        fmt::format("server {} seq {}: client {} attempt {:#x} [{}]", l->server,
                                    l->seq, l->client, l->attempt, DescribeOps(l->ops));
                    if (!a.request && m_options.failedClients.count(l->client) > 0)
                    {
                        continue;
                    }
                    if (!a.request)
                    {
                        m_findings.Add(kRequestIntegrity,
                                       fmt::format("{} was executed, but its client never sent "
                                                   "it",
                                                   what));
                        continue;
                    }
                    if (!MatchSent(l->ops, a.request->ops, list == &a.primary ? &covered
                                                                              : nullptr))
                    {
                        m_findings.Add(kRequestIntegrity,
                                       fmt::format("{} was executed, but its client sent [{}]",
                                                   what, DescribeOps(a.request->ops)));
                    }
                    if (l->timeNs < a.request->timeNs)
                    {
                        m_findings.Add(kRequestIntegrity,
                                       fmt::format("{} was executed at {} ns, before its client "
                                                   "sent it at {} ns",
                                                   what, l->timeNs, a.request->timeNs));
                    }
                }
            }
            if (a.request && a.CommittedAtServer() &&
                std::find(covered.begin(), covered.end(), false) != covered.end())
            {
                m_findings.Add(kRequestIntegrity,
                               fmt::format("{} committed, but no server executed all of it",
                                           a.Describe()));
            }
        }
        m_findings.Checked(kRequestIntegrity,
                           fmt::format("{} decisions are of attempts sent as executed",
                                       decisions));
    }

    /// `executed` is a subsequence of `sent` (types and keys; read and write values, read
    /// versions); marks the operations of `sent` it covers.
    static bool MatchSent(const std::vector<HistoryOp>& executed,
                          const std::vector<HistoryOp>& sent, std::vector<bool>* covered)
    {
        size_t next = 0;
        for (const HistoryOp& op : executed)
        {
            while (next < sent.size() &&
                   (sent[next].type != op.type || sent[next].key != op.key))
            {
                ++next;
            }
            if (next == sent.size())
            {
                return false;
            }
            const HistoryOp& s = sent[next];
            if (op.type != AccessType::Fetch &&
                (s.value != op.value ||
                 (op.type == AccessType::Read && s.version && s.version != op.version)))
            {
                return false;
            }
            if (covered)
            {
                (*covered)[next] = true;
            }
            ++next;
        }
        return true;
    }

    void CheckAtMostOnce()
    {
        std::map<AttemptKey, std::vector<const Attempt*>> commitsOf;  // (client, logical)
        for (const auto& [key, a] : m_attempts)
        {
            // By replica: a server may hold replicas of several shards (one's primary,
            // another's backup), each deciding the attempt once.
            std::map<std::tuple<uint64_t, uint64_t, uint64_t>, uint64_t> executions;
            for (const auto* list : {&a.primary, &a.backups})
            {
                for (const LogRecord* l : *list)
                {
                    if (++executions[{l->server, l->shard, l->replica}] == 2)
                    {
                        m_findings.Add(kAtMostOnce,
                                       fmt::format("{} was executed twice by server {}",
                                                   a.Describe(), l->server));
                    }
                }
            }
            if (a.request && (a.CommittedAtServer() || a.ToldCommit(By::Network)))
            {
                commitsOf[{a.client, a.request->logical}].push_back(&a);
            }
        }
        for (const auto& [logical, commits] : commitsOf)
        {
            if (commits.size() > 1)
            {
                std::string which;
                for (const Attempt* a : commits)
                {
                    which += fmt::format("{}{:#x}", which.empty() ? "" : ", ", a->attempt);
                }
                m_findings.Add(kAtMostOnce,
                               fmt::format("client {} logical transaction {} committed {} times "
                                           "(attempts {})",
                                           logical.first, logical.second, commits.size(), which));
            }
        }
        m_findings.Checked(kAtMostOnce,
                           fmt::format("{} attempts executed at most once by each server, {} "
                                       "logical transactions committed at most once",
                                       m_attempts.size(), commitsOf.size()));
    }

    /// The serial order: a topological order of the committed transactions' conflict graph
    /// (from the primaries' logs), taking the earliest decided first; and whether real time
    /// can be respected too (the graph with real-time edges is acyclic), in which case the
    /// order respects it.
    void Order()
    {
        std::vector<Attempt*> nodes;
        std::map<const Attempt*, size_t> index;
        for (auto& [key, a] : m_attempts)
        {
            const bool committed = a.CommittedAtServer();
            const bool aborted = std::any_of(a.primary.begin(), a.primary.end(),
                                             [](const LogRecord* l) { return !l->committed; });
            if (committed && aborted)
            {
                m_findings.Add(kOutcomes, fmt::format("{}: some shards committed it and some "
                                                      "aborted it",
                                                      a.Describe()));
            }
            if (committed)
            {
                index[&a] = nodes.size();
                nodes.push_back(&a);
            }
        }
        std::vector<std::vector<size_t>> edges(nodes.size());
        for (const auto& [shard, log] : m_primaryLogs)
        {
            std::map<uint64_t, std::pair<std::optional<size_t>, std::vector<size_t>>> keys;
            for (const LogRecord* l : log)
            {
                if (!l->committed)
                {
                    continue;
                }
                const size_t node = index.at(&m_attempts.at({l->client, l->attempt}));
                for (const HistoryOp& op : l->ops)
                {
                    auto& [writer, readers] = keys[op.key];
                    const auto edge = [&](size_t from) {
                        if (from != node)
                        {
                            edges[from].push_back(node);
                        }
                    };
                    if (writer)
                    {
                        edge(*writer);
                    }
                    if (IsRead(op))
                    {
                        readers.push_back(node);
                        continue;
                    }
                    for (size_t reader : readers)
                    {
                        edge(reader);
                    }
                    readers.clear();
                    writer = node;
                }
            }
        }
        const auto rank = [&](size_t node) {
            const LogRecord* first = *std::min_element(
                nodes[node]->primary.begin(), nodes[node]->primary.end(),
                [](const LogRecord* a, const LogRecord* b) {
                    return std::tie(a->timeNs, a->server, a->seq) <
                           std::tie(b->timeNs, b->server, b->seq);
                });
            return std::make_tuple(first->timeNs, first->server, first->seq);
        };
        std::vector<size_t> conflictOrder = Topological(nodes.size(), edges, rank);
        if (conflictOrder.size() < nodes.size())
        {
            // The rest, by rank: the order the real-time check then judges.
            std::vector<bool> placed(nodes.size(), false);
            for (size_t n : conflictOrder)
            {
                placed[n] = true;
            }
            std::vector<size_t> rest;
            for (size_t n = 0; n < nodes.size(); ++n)
            {
                if (!placed[n])
                {
                    rest.push_back(n);
                }
            }
            std::sort(rest.begin(), rest.end(),
                      [&](size_t a, size_t b) { return rank(a) < rank(b); });
            std::string cycle;
            for (size_t i = 0; i < std::min<size_t>(rest.size(), 4); ++i)
            {
                cycle += fmt::format("{}{}", cycle.empty() ? "" : "; ", nodes[rest[i]]->Describe());
            }
            conflictOrder.insert(conflictOrder.end(), rest.begin(), rest.end());
            m_findings.Add(kSerializability,
                           fmt::format("the committed transactions' conflicts form a cycle, "
                                       "among: {}",
                                       cycle));
            m_cyclic = true;
        }

        // Real-time edges through barrier nodes: barrier k follows the first k + 1 commits
        // answered by a server, in answer time; a transaction sent after them follows it.
        std::vector<size_t> answered;
        for (size_t n = 0; n < nodes.size(); ++n)
        {
            if (nodes[n]->ToldCommit(By::Server))
            {
                answered.push_back(n);
            }
        }
        std::sort(answered.begin(), answered.end(), [&](size_t a, size_t b) {
            return nodes[a]->Answer()->timeNs < nodes[b]->Answer()->timeNs;
        });
        std::vector<std::vector<size_t>> all = edges;
        all.resize(nodes.size() + answered.size());
        std::vector<int64_t> answerTimes;
        for (size_t k = 0; k < answered.size(); ++k)
        {
            const size_t barrier = nodes.size() + k;
            all[answered[k]].push_back(barrier);
            if (k > 0)
            {
                all[barrier - 1].push_back(barrier);
            }
            answerTimes.push_back(nodes[answered[k]]->Answer()->timeNs);
        }
        for (size_t n = 0; n < nodes.size(); ++n)
        {
            if (!nodes[n]->request)
            {
                continue;
            }
            const auto before = static_cast<size_t>(
                std::lower_bound(answerTimes.begin(), answerTimes.end(),
                                 nodes[n]->request->timeNs) -
                answerTimes.begin());
            if (before > 0)
            {
                all[nodes.size() + before - 1].push_back(n);
            }
        }
        const auto rankAll = [&](size_t node) {
            return node < nodes.size() ? rank(node)
                                       : std::make_tuple(answerTimes[node - nodes.size()],
                                                         uint64_t{0}, uint64_t{0});
        };
        std::vector<size_t> realTimeOrder = Topological(all.size(), all, rankAll);
        m_realTimeOk = !m_cyclic && realTimeOrder.size() == all.size();
        const std::vector<size_t>& order = m_realTimeOk ? realTimeOrder : conflictOrder;
        for (size_t n : order)
        {
            if (n < nodes.size())
            {
                nodes[n]->position = m_order.size();
                m_order.push_back(nodes[n]);
            }
        }
    }

    template <typename Rank>
    static std::vector<size_t> Topological(size_t n, const std::vector<std::vector<size_t>>& edges,
                                           const Rank& rank)
    {
        std::vector<size_t> indegree(n, 0);
        for (const auto& out : edges)
        {
            for (size_t to : out)
            {
                ++indegree[to];
            }
        }
        using Entry = std::pair<decltype(rank(0)), size_t>;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
        for (size_t v = 0; v < n; ++v)
        {
            if (indegree[v] == 0)
            {
                ready.push({rank(v), v});
            }
        }
        std::vector<size_t> order;
        while (!ready.empty())
        {
            const size_t v = ready.top().second;
            ready.pop();
            order.push_back(v);
            for (size_t to : edges[v])
            {
                if (--indegree[to] == 0)
                {
                    ready.push({rank(to), to});
                }
            }
        }
        return order;
    }

    /// Replays the committed transactions in the serial order; places every primary decision
    /// at a history point.
    void Replay()
    {
        for (size_t p = 0; p < m_order.size(); ++p)
        {
            const Attempt& a = *m_order[p];
            std::map<uint64_t, uint64_t> compared;  // key -> value read, for increments
            for (const LogRecord* l : a.primary)
            {
                if (!l->committed)
                {
                    continue;  // its shard aborted it: reported under outcomes
                }
                for (const HistoryOp& op : l->ops)
                {
                    const KeyHistory::Version now = m_history.At(op.key, kEnd);
                    if (IsRead(op))
                    {
                        compared.emplace(op.key, op.value);
                        if (op.value != now.value || (op.version && *op.version != now.point))
                        {
                            m_findings.Add(kSerializability,
                                           fmt::format("{} read key {} as {}{}, the serial "
                                                       "replay has {}@{}",
                                                       a.Describe(), op.key, op.value,
                                                       op.version ? fmt::format("@{}",
                                                                                *op.version)
                                                                  : "",
                                                       now.value, now.point));
                        }
                        continue;
                    }
                    if (op.version && *op.version != now.point + 1)
                    {
                        m_findings.Add(kSerializability,
                                       fmt::format("{} installed key {} as version {}, the "
                                                   "serial replay as {}",
                                                   a.Describe(), op.key, *op.version,
                                                   now.point + 1));
                    }
                    m_history.Write(op.key, op.value, p + 1);
                    m_shardKeys[l->shard].insert(op.key);
                    const auto c = compared.find(op.key);
                    if (c != compared.end() && op.value == c->second + 1)
                    {
                        ++m_increments[op.key];
                    }
                    else
                    {
                        m_notIncrementOnly.insert(op.key);
                    }
                }
            }
        }
        uint64_t aborts = 0;
        uint64_t unjustified = 0;
        for (auto& [shard, log] : m_primaryLogs)
        {
            uint64_t point = 0;
            for (LogRecord* l : log)
            {
                const Attempt& a = m_attempts.at({l->client, l->attempt});
                if (l->committed && a.position)
                {
                    point = *a.position + 1;
                }
                l->pointAfter = point;
                if (l->committed || !m_options.abortsOnlyOnStaleReads)
                {
                    continue;
                }
                ++aborts;
                const bool stale = std::any_of(l->ops.begin(), l->ops.end(), [&](const auto& op) {
                    return op.type == AccessType::Read &&
                           op.value != m_history.At(op.key, point).value;
                });
                if (!stale)
                {
                    ++unjustified;
                    m_findings.Add(kAbortsJustified,
                                   fmt::format("server {} seq {}: {} aborted though its reads "
                                               "held",
                                               l->server, l->seq, a.Describe()));
                }
            }
        }
        if (m_options.abortsOnlyOnStaleReads)
        {
            m_findings.Checked(kAbortsJustified,
                               fmt::format("{} aborts each had a stale read", aborts));
        }
    }

    void CheckWrites()
    {
        uint64_t writes = 0;
        for (const auto& [key, a] : m_attempts)
        {
            if (!a.request)
            {
                continue;
            }
            const bool toldNetwork = a.ToldCommit(By::Network);
            const bool splitFate = std::any_of(a.primary.begin(), a.primary.end(),
                                               [](const LogRecord* l) { return !l->committed; });
            if ((!a.CommittedAtServer() && !toldNetwork) || (a.CommittedAtServer() && splitFate))
            {
                continue;  // not committed, or reported under outcomes
            }
            for (const HistoryOp& op : a.request->ops)
            {
                if (op.type != AccessType::Write)
                {
                    continue;
                }
                ++writes;
                const bool logged = std::any_of(a.primary.begin(), a.primary.end(),
                                                [&](const LogRecord* l) {
                    return l->committed &&
                           std::any_of(l->ops.begin(), l->ops.end(), [&](const HistoryOp& w) {
                               return w.type == AccessType::Write && w.key == op.key &&
                                      w.value == op.value;
                           });
                });
                if (!logged)
                {
                    m_findings.Add(kNoLostWrites,
                                   fmt::format("{} was told {}, but no server committed its "
                                               "write of key {}",
                                               a.Describe(),
                                               toldNetwork ? "commit by the network" : "commit",
                                               op.key));
                }
            }
        }
        for (const auto& [where, log] : m_backupLogs)
        {
            // Per key, the backup's committed writes and the primary's, in their orders:
            // transactions with disjoint writes commute, so a backup may install them in
            // another order than its primary; writes to one key may not.
            std::map<uint64_t, std::vector<const LogRecord*>> mine;
            std::map<uint64_t, std::vector<const LogRecord*>> theirs;
            const auto collect = [](const auto& records,
                                    std::map<uint64_t, std::vector<const LogRecord*>>& byKey) {
                for (const LogRecord* l : records)
                {
                    if (!l->committed)
                    {
                        continue;
                    }
                    for (const HistoryOp& op : l->ops)
                    {
                        if (op.type == AccessType::Write)
                        {
                            byKey[op.key].push_back(l);
                        }
                    }
                }
            };
            if (m_options.crashedServers.count(where.second) > 0)
            {
                std::vector<const LogRecord*> kept;
                for (const LogRecord* l : log)
                {
                    if (m_attempts.at({l->client, l->attempt}).CommittedAtServer())
                    {
                        kept.push_back(l);
                    }
                }
                collect(kept, mine);
            }
            else
            {
                collect(log, mine);
            }
            const auto primary = m_primaryLogs.find(where.first);
            if (primary != m_primaryLogs.end())
            {
                collect(primary->second, theirs);
            }
            for (const auto& [key, writes] : mine)
            {
                const std::vector<const LogRecord*>& expected = theirs[key];
                // Either may be ahead by the transactions in flight at the end of the run.
                for (size_t i = 0; i < std::min(writes.size(), expected.size()); ++i)
                {
                    if (writes[i]->client != expected[i]->client ||
                        writes[i]->attempt != expected[i]->attempt ||
                        !SameWrites(*writes[i], *expected[i]))
                    {
                        m_findings.Add(kNoLostWrites,
                                       fmt::format("shard {} backup server {}: write {} of key "
                                                   "{} is client {} attempt {:#x} [{}], its "
                                                   "primary's is client {} attempt {:#x} [{}]",
                                                   where.first, where.second, i, key,
                                                   writes[i]->client, writes[i]->attempt,
                                                   DescribeOps(writes[i]->ops),
                                                   expected[i]->client, expected[i]->attempt,
                                                   DescribeOps(expected[i]->ops)));
                        break;
                    }
                }
            }
        }
        for (const auto& [shard, expected] : m_options.finalStates)
        {
            const std::map<uint64_t, uint64_t> state = m_history.State(m_shardKeys[shard]);
            if (expected.first != state.size() || expected.second != StateDigest(state))
            {
                m_findings.Add(kNoLostWrites,
                               fmt::format("shard {} ends with {} keys (digest {:#x}), the "
                                           "serial replay with {} (digest {:#x})",
                                           shard, expected.first, expected.second, state.size(),
                                           StateDigest(state)));
            }
        }
        for (const auto& [shard, keys] : m_shardKeys)
        {
            for (uint64_t key : keys)
            {
                if (!m_notIncrementOnly.count(key) && m_history.Value(key) != m_increments[key])
                {
                    m_findings.Add(kNoLostWrites,
                                   fmt::format("key {}: {} committed increments but the value "
                                               "is {}",
                                               key, m_increments[key], m_history.Value(key)));
                }
            }
        }
        m_findings.Checked(kNoLostWrites,
                           fmt::format("{} writes of committed attempts are in the logs; {} "
                                       "backup logs agree; {} final states match the replay",
                                       writes, m_backupLogs.size(), m_options.finalStates.size()));
    }

    static bool SameWrites(const LogRecord& a, const LogRecord& b)
    {
        std::vector<std::pair<uint64_t, uint64_t>> wa;
        std::vector<std::pair<uint64_t, uint64_t>> wb;
        for (const HistoryOp& op : a.ops)
        {
            if (op.type == AccessType::Write)
            {
                wa.emplace_back(op.key, op.value);
            }
        }
        for (const HistoryOp& op : b.ops)
        {
            if (op.type == AccessType::Write)
            {
                wb.emplace_back(op.key, op.value);
            }
        }
        return wa == wb;
    }

    /// Every answer a client settled with is the servers' fate of its attempt.
    void CheckOutcomes()
    {
        uint64_t serverAnswers = 0;
        uint64_t networkAnswers = 0;
        for (auto& [key, a] : m_attempts)
        {
            if (a.answers.size() > 1)
            {
                m_findings.Add(kOutcomes, fmt::format("{} was settled {} times", a.Describe(),
                                                      a.answers.size()));
            }
            for (const ClientRecord* answer : a.answers)
            {
                const bool commit = answer->event == Event::Commit;
                const std::string told = fmt::format(
                    "{} was told {} at {} ns{} [{}]", a.Describe(), commit ? "COMMIT" : "ABORT",
                    answer->timeNs, answer->by == By::Network ? " by the network" : "",
                    DescribeOps(answer->ops));
                if (!a.request)
                {
                    m_findings.Add(kOutcomes, fmt::format("{}, but never sent it", told));
                    continue;
                }
                if (!SameShape(a.request->ops, answer->ops))
                {
                    m_findings.Add(kOutcomes, fmt::format("{}: not the operations it sent", told));
                    continue;
                }
                const bool committed = a.CommittedAtServer();
                if (answer->by == By::Network)
                {
                    ++networkAnswers;
                    if (!commit)
                    {
                        if (committed)
                        {
                            m_findings.Add(kOutcomes,
                                           fmt::format("{}, but a server committed it", told));
                        }
                        continue;
                    }
                    CheckNetworkCommit(a, *answer, told);
                    continue;
                }
                ++serverAnswers;
                if (a.primary.empty())
                {
                    if (commit)
                    {
                        m_findings.Add(kOutcomes,
                                       fmt::format("{}, but no server executed it", told));
                    }
                    continue;
                }
                const LogRecord& decision = *a.primary.front();
                if (committed != commit)
                {
                    m_findings.Add(kOutcomes,
                                   fmt::format("{}, but server {} {} it (seq {})", told,
                                               decision.server,
                                               committed ? "committed" : "aborted",
                                               decision.seq));
                    continue;
                }
                if (!m_options.answersCarryValues || a.primary.size() != 1)
                {
                    continue;
                }
                std::vector<HistoryOp> truth = answer->ops;
                for (HistoryOp& op : truth)
                {
                    op.value = m_history.At(op.key, decision.pointAfter).value;
                }
                const bool same = std::equal(truth.begin(), truth.end(), answer->ops.begin(),
                                             [](const HistoryOp& x, const HistoryOp& y) {
                                                 return x.value == y.value;
                                             });
                if (!same)
                {
                    m_findings.Add(kOutcomes,
                                   fmt::format("{}, but server {} answered [{}] (seq {})", told,
                                               decision.server, DescribeOps(truth),
                                               decision.seq));
                }
            }
        }
        m_findings.Checked(kOutcomes,
                           fmt::format("{} server answers and {} network answers agree with "
                                       "the servers",
                                       serverAnswers, networkAnswers));
        m_findings.Checked(kSerializability,
                           fmt::format("{} committed transactions replayed serially, {} "
                                       "network commits placed",
                                       m_order.size(), m_networkCommits));
    }

    /// Same operation types and keys, in the same order.
    static bool SameShape(const std::vector<HistoryOp>& a, const std::vector<HistoryOp>& b)
    {
        return a.size() == b.size() &&
               std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
                   return x.type == y.type && x.key == y.key;
               });
    }

    /// A commit the network answered by itself: read-only (its writes would be lost), the
    /// reads as the client saw them, and values that held together at some point.
    void CheckNetworkCommit(Attempt& a, const ClientRecord& answer, const std::string& told)
    {
        ++m_networkCommits;
        for (size_t i = 0; i < answer.ops.size(); ++i)
        {
            if (answer.ops[i].type == AccessType::Read &&
                answer.ops[i].value != a.request->ops[i].value)
            {
                m_findings.Add(kOutcomes,
                               fmt::format("{}: a commit must confirm the reads as sent [{}]",
                                           told, DescribeOps(a.request->ops)));
                return;
            }
        }
        a.held = m_history.HeldTogether(answer.ops);
        if (a.held.empty())
        {
            m_findings.Add(kSerializability,
                           fmt::format("{}: values the servers never held together", told));
        }
    }

    /// Server commits: the real-time graph is acyclic (else the witnesses in the serial
    /// order), and no commit was answered before it was executed. Network commits: each at
    /// the earliest point of its held spans after every commit answered before it was sent
    /// and no later than what the servers had committed by its answer (placed in answer
    /// order, which leaves the most room to the ones after).
    void CheckRealTime()
    {
        struct Told
        {
            int64_t answerNs;
            uint64_t point;  ///< the history point its commit requires of later ones
            const Attempt* by;
        };
        std::vector<const Attempt*> answered;
        uint64_t unanswered = 0;
        for (const auto& [key, a] : m_attempts)
        {
            if (!a.request)
            {
                continue;
            }
            if (a.position && a.ToldCommit(By::Server))
            {
                answered.push_back(&a);
                for (const LogRecord* l : a.primary)
                {
                    if (a.Answer()->timeNs < l->timeNs)
                    {
                        m_findings.Add(kStrictSerializability,
                                       fmt::format("{} was told COMMIT at {} ns, before server "
                                                   "{} executed it at {} ns",
                                                   a.Describe(), a.Answer()->timeNs, l->server,
                                                   l->timeNs));
                    }
                }
            }
            else if (a.ToldCommit(By::Network) && !a.held.empty())
            {
                answered.push_back(&a);
            }
            else if (a.position)
            {
                ++unanswered;
            }
        }
        std::stable_sort(answered.begin(), answered.end(), [](const Attempt* x, const Attempt* y) {
            return x->Answer()->timeNs < y->Answer()->timeNs;
        });
        // Commit times by serial point, as a running maximum: the points the servers had
        // surely reached by a time.
        std::vector<int64_t> reached;
        for (const Attempt* a : m_order)
        {
            int64_t t = std::numeric_limits<int64_t>::min();
            for (const LogRecord* l : a->primary)
            {
                t = std::max(t, l->timeNs);
            }
            reached.push_back(reached.empty() ? t : std::max(reached.back(), t));
        }
        std::vector<int64_t> finishes;
        std::vector<Told> latest;  // running maximum of the points required
        const auto lowerBound = [&](int64_t sentNs) -> Told {
            const size_t before = static_cast<size_t>(
                std::lower_bound(finishes.begin(), finishes.end(), sentNs) - finishes.begin());
            return before == 0 ? Told{0, 0, nullptr} : latest[before - 1];
        };
        const auto blame = [](const Attempt* by) {
            return fmt::format("{}, told COMMIT at {} ns", by->Describe(), by->Answer()->timeNs);
        };
        const auto checkServerCommit = [&](const Attempt& a) {
            const Told lower = lowerBound(a.request->timeNs);
            if (*a.position < lower.point)
            {
                m_findings.Add(kStrictSerializability,
                               fmt::format("{}, sent at {} ns, is at serial point {}, before {} "
                                           "(point {}) before it was sent",
                                           a.Describe(), a.request->timeNs, *a.position,
                                           blame(lower.by), lower.point));
            }
        };
        for (const Attempt* a : answered)
        {
            uint64_t point = 0;
            if (a->position)
            {
                if (!m_realTimeOk)
                {
                    checkServerCommit(*a);
                }
                point = *a->position + 1;
            }
            else
            {
                const int64_t sentNs = a->request->timeNs;
                const Told lower = lowerBound(sentNs);
                const auto upper = static_cast<uint64_t>(
                    std::upper_bound(reached.begin(), reached.end(), a->Answer()->timeNs) -
                    reached.begin());
                std::optional<uint64_t> chosen;
                for (const auto& [from, to] : a->held)
                {
                    const uint64_t candidate = std::max(from, lower.point);
                    if (candidate < to && candidate <= upper)
                    {
                        chosen = candidate;
                        break;
                    }
                }
                if (!chosen)
                {
                    std::string spans;
                    for (size_t i = a->held.size() > 3 ? a->held.size() - 3 : 0;
                         i < a->held.size(); ++i)
                    {
                        spans += fmt::format("{}[{}, {})", spans.empty() ? "" : ", ",
                                             a->held[i].first,
                                             a->held[i].second == kEnd
                                                 ? std::string("end")
                                                 : std::to_string(a->held[i].second));
                    }
                    m_findings.Add(kStrictSerializability,
                                   fmt::format("{}, sent at {} ns and answered by the network at "
                                               "{} ns, must reflect a serial point from {}{} to "
                                               "{} (what the servers had committed by the "
                                               "answer), but its values held together only at "
                                               "points {}",
                                               a->Describe(), sentNs, a->Answer()->timeNs,
                                               lower.point,
                                               lower.by ? fmt::format(" ({} before it was sent)",
                                                                      blame(lower.by))
                                                        : "",
                                               upper, spans));
                }
                point = chosen.value_or(lower.point);
            }
            const Told previous = latest.empty() ? Told{0, 0, nullptr} : latest.back();
            finishes.push_back(a->Answer()->timeNs);
            latest.push_back(point >= previous.point ? Told{a->Answer()->timeNs, point, a}
                                                     : previous);
        }
        if (!m_realTimeOk)
        {
            for (const Attempt* a : m_order)
            {
                if (a->request && !a->ToldCommit(By::Server))
                {
                    checkServerCommit(*a);
                }
            }
            if (!m_cyclic && !m_findings.Any(kStrictSerializability))
            {
                m_findings.Add(kStrictSerializability,
                               "no serial order of the committed transactions respects real "
                               "time");
            }
        }
        m_findings.Checked(kStrictSerializability,
                           fmt::format("{} answered commits and {} commits never answered are in "
                                       "an order that respects real time",
                                       answered.size(), unanswered));
    }

    HistoryCheckOptions m_options;
    std::vector<ClientRecord> m_client;
    std::vector<LogRecord> m_log;
    CheckFindings m_findings;
    std::map<AttemptKey, Attempt> m_attempts;
    std::map<uint64_t, std::vector<LogRecord*>> m_primaryLogs;  // by shard
    std::map<std::pair<uint64_t, uint64_t>, std::vector<const LogRecord*>> m_backupLogs;
    std::vector<Attempt*> m_order;  ///< committed transactions in the serial order
    bool m_cyclic = false;
    bool m_realTimeOk = false;
    KeyHistory m_history;
    std::map<uint64_t, std::set<uint64_t>> m_shardKeys;  ///< keys written, by shard
    std::map<uint64_t, uint64_t> m_increments;
    std::set<uint64_t> m_notIncrementOnly;
    uint64_t m_networkCommits = 0;
};

} // namespace

CheckReport
CheckHistory(const std::string& runDir, const HistoryCheckOptions& options)
{
    return Checker(runDir, options).Run();
}

} // namespace incsim::txn
