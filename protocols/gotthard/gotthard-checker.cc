#include "protocols/gotthard/gotthard-checker.h"

#include "protocols/gotthard/gotthard-store.h"
#include "protocols/gotthard/gotthard-wire.h"
#include "sim/core/diagnostics.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/csv-reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace incsim::gotthard
{

namespace
{

const char* const kSerializability = "serializability";
const char* const kSwitchAnswers = "switch answers";
const char* const kSwitchCommitsNoWrite = "switch commits no write";
const char* const kFinalState = "final state";
const char* const kRequestIntegrity = "request integrity";
const char* const kAtMostOnce = "at most once";
const char* const kClientOutcomes = "client outcomes";
const char* const kRealTime = "real time";

/// One transaction's consecutive rows in a log.
struct Group
{
    uint64_t client = 0;
    uint64_t txn = 0;
    std::string event;      ///< store: commit, abort; client: send, ok, abort
    bool fromSwitch = false;
    uint64_t seq = 0;       ///< store only
    uint64_t logical = 0;   ///< client only
    int64_t timeNs = 0;
    uint64_t line = 0;
    std::vector<Op> ops;
};

std::vector<Group>
ReadGroups(const std::string& path, bool store)
{
    std::vector<std::string> columns = {"client", "txn", "op", "type", "key", "value", "time_ns"};
    for (const char* extra : store ? std::vector<const char*>{"seq", "outcome"}
                                   : std::vector<const char*>{"logical", "event", "from_switch"})
    {
        columns.emplace_back(extra);
    }
    CsvReader reader(path, columns);
    const size_t client = reader.Column("client");
    const size_t txn = reader.Column("txn");
    const size_t op = reader.Column("op");
    const size_t type = reader.Column("type");
    const size_t key = reader.Column("key");
    const size_t value = reader.Column("value");
    const size_t time = reader.Column("time_ns");
    const size_t event = reader.Column(store ? "outcome" : "event");
    const size_t seq = store ? reader.Column("seq") : 0;
    const size_t logical = store ? 0 : reader.Column("logical");
    const size_t fromSwitch = store ? 0 : reader.Column("from_switch");
    const std::set<std::string> events =
        store ? std::set<std::string>{"commit", "abort"}
              : std::set<std::string>{"send", "ok", "abort"};
    const auto fail = [&](const std::string& what) {
        throw InputError(path, "", fmt::format("line {}: {}", reader.Line(), what));
    };
    std::vector<Group> groups;
    while (reader.Next())
    {
        const uint64_t index = reader.Uint(op);
        if (!events.count(reader.Text(event)))
        {
            fail(fmt::format("unknown {} \"{}\"", store ? "outcome" : "event",
                             reader.Text(event)));
        }
        if (index == 0)
        {
            Group g;
            g.client = reader.Uint(client);
            g.txn = reader.Uint(txn);
            g.event = reader.Text(event);
            g.timeNs = reader.Int(time);
            g.line = reader.Line();
            if (store)
            {
                g.seq = reader.Uint(seq);
            }
            else
            {
                g.logical = reader.Uint(logical);
                g.fromSwitch = reader.Uint(fromSwitch) != 0;
            }
            groups.push_back(std::move(g));
        }
        else if (groups.empty() || index != groups.back().ops.size() ||
                 reader.Uint(client) != groups.back().client ||
                 reader.Uint(txn) != groups.back().txn || reader.Text(event) != groups.back().event)
        {
            fail(fmt::format("operation {} does not continue the transaction before it", index));
        }
        const uint64_t opType = reader.Uint(type);
        if (opType < static_cast<uint64_t>(OpType::Read) ||
            opType > static_cast<uint64_t>(OpType::Compare))
        {
            fail(fmt::format("unknown operation type {}", opType));
        }
        const uint64_t opKey = reader.Uint(key);
        if (opKey > std::numeric_limits<uint32_t>::max())
        {
            fail(fmt::format("key {} is wider than 32 bits", opKey));
        }
        groups.back().ops.push_back(
            Op{static_cast<OpType>(opType), static_cast<uint32_t>(opKey), reader.Uint(value)});
    }
    return groups;
}

std::string
DescribeOps(const std::vector<Op>& ops)
{
    std::string text;
    for (const Op& op : ops)
    {
        const char* kind = op.type == OpType::Read    ? "r"
                           : op.type == OpType::Write ? "w"
                                                      : "c";
        text += fmt::format("{}{}{}={}", text.empty() ? "" : " ", kind, op.key, op.value);
    }
    return text;
}

bool
HasWrites(const std::vector<Op>& ops)
{
    return std::any_of(ops.begin(), ops.end(),
                       [](const Op& op) { return op.type == OpType::Write; });
}

/// Same operation types and keys, in the same order.
bool
SameShape(const std::vector<Op>& a, const std::vector<Op>& b)
{
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](const Op& x, const Op& y) {
               return x.type == y.type && x.key == y.key;
           });
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

    /// The points [from, to) at which every key of `ops` held its value (to = UINT64_MAX:
    /// still holds).
    std::vector<std::pair<uint64_t, uint64_t>> HeldTogether(const std::vector<Op>& ops) const
    {
        std::vector<std::pair<uint64_t, uint64_t>> common = {{0, UINT64_MAX}};
        for (const Op& op : ops)
        {
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
    std::vector<std::pair<uint64_t, uint64_t>> Held(uint32_t key, uint64_t value) const
    {
        std::vector<std::pair<uint64_t, uint64_t>> spans;
        std::vector<std::pair<uint64_t, uint64_t>> versions = {{0, 0}};
        const auto found = m_versions.find(key);
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

    std::map<uint32_t, uint64_t> m_state;
    std::map<uint32_t, std::vector<std::pair<uint64_t, uint64_t>>> m_versions;
};

/// One transaction the store executed.
struct Execution
{
    const Group* logged = nullptr;
    std::vector<uint64_t> answer;  ///< the store's value of each operation's key afterwards
};

/// One attempt of a client: its request (first send) and the answers it settled with.
struct Attempt
{
    uint64_t client = 0;
    uint64_t txn = 0;
    const Group* request = nullptr;  ///< null: answered or executed, but never sent
    std::vector<const Group*> answers;
    std::vector<const Execution*> executions;
    std::vector<std::pair<uint64_t, uint64_t>> held;  ///< switch OK without writes: see History

    std::string Describe() const
    {
        return fmt::format("client {} txn {:#x}{} [{}]", client, txn,
                           request ? fmt::format(" (logical {})", request->logical) : "",
                           DescribeOps(request ? request->ops
                                       : !answers.empty() ? answers.front()->ops
                                                          : executions.front()->logged->ops));
    }
    bool Committed() const
    {
        return std::any_of(executions.begin(), executions.end(),
                           [](const Execution* e) { return e->logged->event == "commit"; });
    }
};

using AttemptKey = std::pair<uint64_t, uint64_t>;  // (client, txn)

/// The serial replay of the store's log; records what each execution answered.
void
Replay(const std::vector<Group>& store, std::vector<Execution>& executions, History& history,
       CheckFindings& findings, std::map<uint32_t, uint64_t>& increments,
       std::set<uint32_t>& notIncrementOnly)
{
    for (size_t i = 0; i < store.size(); ++i)
    {
        const Group& t = store[i];
        Execution& e = executions[i];
        e.logged = &t;
        if (t.seq != i)
        {
            findings.Add(kSerializability,
                         fmt::format("line {}: seq {} where the store's history has {}: the log "
                                     "is not the store's whole history",
                                     t.line, t.seq, i));
        }
        const std::string what = fmt::format("seq {}: client {} txn {:#x} [{}]", i, t.client,
                                             t.txn, DescribeOps(t.ops));
        bool stale = false;
        std::map<uint32_t, uint64_t> compared;
        for (const Op& op : t.ops)
        {
            if (op.type == OpType::Compare)
            {
                stale |= op.value != history.Value(op.key);
                compared[op.key] = op.value;
            }
        }
        const bool committed = t.event == "commit";
        if (!committed && !stale)
        {
            findings.Add(kSerializability,
                         fmt::format("{} aborted though its compares held", what));
        }
        if (committed && stale)
        {
            findings.Add(kSerializability, fmt::format("{} committed against stale values", what));
        }
        if (committed)
        {
            for (const Op& op : t.ops)
            {
                if (op.type != OpType::Write)
                {
                    continue;
                }
                history.Write(op.key, op.value, i + 1);
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
            for (const Op& op : t.ops)
            {
                if (op.type == OpType::Read && op.value != history.Value(op.key))
                {
                    findings.Add(kSerializability,
                                 fmt::format("{} read key {} as {}, the serial replay has {}", what,
                                             op.key, op.value, history.Value(op.key)));
                }
            }
        }
        for (const Op& op : t.ops)
        {
            e.answer.push_back(history.Value(op.key));
        }
    }
}

void
CheckFinalState(const std::string& runDir, const History& history,
                std::map<uint32_t, uint64_t>& increments,
                const std::set<uint32_t>& notIncrementOnly, CheckFindings& findings)
{
    const nlohmann::json metrics = ReadJsonFile(runDir + "/metrics.json");
    const auto storeKeys = metrics.at("/gotthard/store_keys"_json_pointer).get<uint64_t>();
    const auto storeDigest = metrics.at("/gotthard/store_digest"_json_pointer).get<uint64_t>();
    if (storeKeys != history.State().size() || storeDigest != StateDigest(history.State()))
    {
        findings.Add(kFinalState,
                     fmt::format("the store ends with {} keys (digest {:#x}), the serial replay "
                                 "with {} (digest {:#x})",
                                 storeKeys, storeDigest, history.State().size(),
                                 StateDigest(history.State())));
    }
    for (const auto& [key, value] : history.State())
    {
        if (!notIncrementOnly.count(key) && value != increments[key])
        {
            findings.Add(kFinalState,
                         fmt::format("key {}: {} committed increments but the value is {}", key,
                                     increments[key], value));
        }
    }
    findings.Checked(kFinalState,
                     fmt::format("{} keys match the replay", history.State().size()));
}

/// Each execution is of an attempt a client sent, as sent, after it was sent.
void
CheckRequests(std::map<AttemptKey, Attempt>& attempts, const std::vector<Execution>& executions,
              CheckFindings& findings)
{
    for (const Execution& e : executions)
    {
        const Group& t = *e.logged;
        Attempt& attempt = attempts[{t.client, t.txn}];
        attempt.client = t.client;
        attempt.txn = t.txn;
        attempt.executions.push_back(&e);
        const std::string what = fmt::format("seq {}: client {} txn {:#x} [{}]", t.seq, t.client,
                                             t.txn, DescribeOps(t.ops));
        if (!attempt.request)
        {
            findings.Add(kRequestIntegrity,
                         fmt::format("{} was executed, but its client never sent it", what));
            continue;
        }
        const Group& request = *attempt.request;
        bool same = SameShape(request.ops, t.ops);
        for (size_t i = 0; same && i < t.ops.size(); ++i)
        {
            same = t.ops[i].type == OpType::Read || t.ops[i].value == request.ops[i].value;
        }
        if (!same)
        {
            findings.Add(kRequestIntegrity,
                         fmt::format("{} was executed, but its client sent [{}]", what,
                                     DescribeOps(request.ops)));
        }
        if (t.timeNs < request.timeNs)
        {
            findings.Add(kRequestIntegrity,
                         fmt::format("{} was executed at {} ns, before its client sent it at {} "
                                     "ns",
                                     what, t.timeNs, request.timeNs));
        }
    }
}

void
CheckAtMostOnce(const std::map<AttemptKey, Attempt>& attempts, CheckFindings& findings)
{
    // Commits by logical transaction: store commits, and switch OKs the client was told.
    std::map<AttemptKey, std::vector<const Attempt*>> commitsOf;
    uint64_t logicals = 0;
    for (const auto& [key, attempt] : attempts)
    {
        if (attempt.executions.size() > 1)
        {
            std::string seqs;
            for (const Execution* e : attempt.executions)
            {
                seqs += fmt::format("{}{}", seqs.empty() ? "" : ", ", e->logged->seq);
            }
            findings.Add(kAtMostOnce, fmt::format("{} was executed {} times (seq {})",
                                                  attempt.Describe(), attempt.executions.size(),
                                                  seqs));
        }
        if (!attempt.request)
        {
            continue;
        }
        const bool switchOk =
            std::any_of(attempt.answers.begin(), attempt.answers.end(),
                        [](const Group* a) { return a->fromSwitch && a->event == "ok"; });
        std::vector<const Attempt*>& commits =
            commitsOf[{attempt.client, attempt.request->logical}];
        if (attempt.Committed() || switchOk)
        {
            commits.push_back(&attempt);
        }
    }
    for (const auto& [logical, commits] : commitsOf)
    {
        ++logicals;
        if (commits.size() > 1)
        {
            std::string which;
            for (const Attempt* attempt : commits)
            {
                which += fmt::format("{}{:#x}", which.empty() ? "" : ", ", attempt->txn);
            }
            findings.Add(kAtMostOnce,
                         fmt::format("client {} logical transaction {} committed {} times "
                                     "(attempts {})",
                                     logical.first, logical.second, commits.size(), which));
        }
    }
    findings.Checked(kAtMostOnce,
                     fmt::format("{} attempts executed at most once, {} logical transactions "
                                 "committed at most once",
                                 attempts.size(), logicals));
}

/// Every answer a client settled with is the truth about its attempt.
void
CheckOutcomes(std::map<AttemptKey, Attempt>& attempts, const History& history,
              CheckFindings& findings)
{
    uint64_t storeAnswers = 0;
    uint64_t switchAborts = 0;
    uint64_t switchOks = 0;
    for (auto& [key, attempt] : attempts)
    {
        if (attempt.answers.size() > 1)
        {
            findings.Add(kClientOutcomes, fmt::format("{} was settled {} times",
                                                      attempt.Describe(), attempt.answers.size()));
        }
        for (const Group* answer : attempt.answers)
        {
            const bool ok = answer->event == "ok";
            const std::string told = fmt::format("{} was told {} at {} ns{} [{}]",
                                                 attempt.Describe(), ok ? "OK" : "ABORT",
                                                 answer->timeNs,
                                                 answer->fromSwitch ? " by a switch" : "",
                                                 DescribeOps(answer->ops));
            if (!attempt.request)
            {
                findings.Add(kClientOutcomes, fmt::format("{}, but never sent it", told));
                continue;
            }
            if (!SameShape(attempt.request->ops, answer->ops))
            {
                findings.Add(kClientOutcomes,
                             fmt::format("{}: not the operations it sent", told));
                continue;
            }
            if (answer->fromSwitch && !ok)
            {
                ++switchAborts;
                if (attempt.Committed())
                {
                    findings.Add(kClientOutcomes,
                                 fmt::format("{}, but the store committed it", told));
                }
                continue;
            }
            if (answer->fromSwitch)
            {
                if (HasWrites(answer->ops))
                {
                    findings.Add(kSwitchCommitsNoWrite,
                                 fmt::format("{}: the switch committed its writes", told));
                    continue;
                }
                ++switchOks;
                bool asSent = true;
                for (size_t i = 0; i < answer->ops.size(); ++i)
                {
                    asSent &= answer->ops[i].type != OpType::Compare ||
                              answer->ops[i].value == attempt.request->ops[i].value;
                }
                if (!asSent)
                {
                    findings.Add(kClientOutcomes,
                                 fmt::format("{}: an OK must confirm the compares as sent [{}]",
                                             told, DescribeOps(attempt.request->ops)));
                }
                attempt.held = history.HeldTogether(answer->ops);
                if (attempt.held.empty())
                {
                    findings.Add(kSwitchAnswers,
                                 fmt::format("{}: values the store never held together", told));
                }
                continue;
            }
            ++storeAnswers;
            if (attempt.executions.empty())
            {
                findings.Add(kClientOutcomes,
                             fmt::format("{}, but the store never executed it", told));
                continue;
            }
            const Execution& e = *attempt.executions.front();
            const bool committed = e.logged->event == "commit";
            bool sameValues = true;
            for (size_t i = 0; i < answer->ops.size(); ++i)
            {
                sameValues &= answer->ops[i].value == e.answer[i];
            }
            if (committed != ok)
            {
                findings.Add(kClientOutcomes,
                             fmt::format("{}, but the store {} it (seq {})", told,
                                         committed ? "committed" : "aborted", e.logged->seq));
            }
            else if (!sameValues)
            {
                std::vector<Op> truth = answer->ops;
                for (size_t i = 0; i < truth.size(); ++i)
                {
                    truth[i].value = e.answer[i];
                }
                findings.Add(kClientOutcomes,
                             fmt::format("{}, but the store answered [{}] (seq {})", told,
                                         DescribeOps(truth), e.logged->seq));
            }
        }
    }
    findings.Checked(kClientOutcomes,
                     fmt::format("{} store answers and {} switch aborts agree with the store",
                                 storeAnswers, switchAborts));
    findings.Checked(kSwitchAnswers,
                     fmt::format("{} switch OKs are states the store held", switchOks));
    findings.Checked(kSwitchCommitsNoWrite, "no switch answered OK to a transaction with writes");
}

/// Strict serializability: committed transactions (store commits at their seq, switch
/// answers at a point of their choosing) in an order that respects real time. Answers are
/// placed by the time their client got them, each switch answer at the earliest point it
/// may take, which leaves the most room to the ones after it.
void
CheckRealTime(const std::map<AttemptKey, Attempt>& attempts,
              const std::vector<Execution>& executions, CheckFindings& findings)
{
    struct Committed
    {
        const Attempt* attempt;
        const Group* answer;  ///< the OK its client got; null if it never got one
        const Execution* execution;  ///< null for a switch answer
    };
    std::vector<Committed> answered;
    std::vector<Committed> unanswered;
    for (const auto& [key, attempt] : attempts)
    {
        if (!attempt.request || attempt.answers.size() > 1)
        {
            continue;  // reported as request integrity and client outcomes
        }
        const Group* answer = attempt.answers.empty() ? nullptr : attempt.answers.front();
        const Execution* execution = attempt.executions.empty() ? nullptr
                                                                : attempt.executions.front();
        const bool storeCommit = execution && execution->logged->event == "commit";
        if (answer && answer->event == "ok" && !answer->fromSwitch && storeCommit)
        {
            answered.push_back({&attempt, answer, execution});
        }
        else if (answer && answer->event == "ok" && answer->fromSwitch && !attempt.held.empty())
        {
            answered.push_back({&attempt, answer, nullptr});
        }
        else if (!answer && storeCommit)
        {
            unanswered.push_back({&attempt, nullptr, execution});
        }
    }
    std::stable_sort(answered.begin(), answered.end(), [](const Committed& a, const Committed& b) {
        return a.answer->timeNs < b.answer->timeNs;
    });
    std::vector<int64_t> storeTimes;
    for (const Execution& e : executions)
    {
        storeTimes.push_back(e.logged->timeNs);
    }

    // For the answers placed so far, by answer time: the latest point any of the first k
    // requires of a transaction sent after them (a commit's seq + 1, a switch answer's
    // point), and which one.
    std::vector<int64_t> finishes;
    std::vector<std::pair<uint64_t, const Committed*>> latest;
    const auto lowerBound = [&](int64_t sentNs) -> std::pair<uint64_t, const Committed*> {
        const size_t before = static_cast<size_t>(
            std::lower_bound(finishes.begin(), finishes.end(), sentNs) - finishes.begin());
        return before == 0 ? std::make_pair(uint64_t{0}, nullptr) : latest[before - 1];
    };
    const auto blame = [](const Committed* by) {
        return fmt::format("{}, answered OK at {} ns", by->attempt->Describe(), by->answer->timeNs);
    };
    const auto checkCommit = [&](const Committed& c) {
        const Group& request = *c.attempt->request;
        const uint64_t seq = c.execution->logged->seq;
        const auto [lower, by] = lowerBound(request.timeNs);
        if (seq < lower)
        {
            findings.Add(kRealTime,
                         fmt::format("{}, sent at {} ns, committed at seq {}, before {} (history "
                                     "point {}) before it was sent",
                                     c.attempt->Describe(), request.timeNs, seq, blame(by), lower));
        }
        if (c.answer && c.answer->timeNs < c.execution->logged->timeNs)
        {
            findings.Add(kRealTime,
                         fmt::format("{} was answered OK at {} ns, before the store executed it "
                                     "at {} ns",
                                     c.attempt->Describe(), c.answer->timeNs,
                                     c.execution->logged->timeNs));
        }
    };

    for (const Committed& c : answered)
    {
        uint64_t point = 0;
        if (c.execution)
        {
            checkCommit(c);
            point = c.execution->logged->seq + 1;
        }
        else
        {
            const int64_t sentNs = c.attempt->request->timeNs;
            const auto [lower, by] = lowerBound(sentNs);
            // History points the store had reached when the client got the answer.
            const auto upper = static_cast<uint64_t>(
                std::upper_bound(storeTimes.begin(), storeTimes.end(), c.answer->timeNs) -
                storeTimes.begin());
            std::optional<uint64_t> chosen;
            for (const auto& [from, to] : c.attempt->held)
            {
                const uint64_t candidate = std::max(from, lower);
                if (candidate < to && candidate <= upper)
                {
                    chosen = candidate;
                    break;
                }
            }
            if (!chosen)
            {
                std::string spans;
                const auto& held = c.attempt->held;
                for (size_t i = held.size() > 3 ? held.size() - 3 : 0; i < held.size(); ++i)
                {
                    spans += fmt::format("{}[{}, {})", spans.empty() ? "" : ", ",
                                         held[i].first,
                                         held[i].second == UINT64_MAX
                                             ? std::string("end")
                                             : std::to_string(held[i].second));
                }
                findings.Add(kRealTime,
                             fmt::format("{}, sent at {} ns and answered by a switch at {} ns, "
                                         "must reflect a history point from {}{} to {} (what the "
                                         "store had executed by the answer), but its values "
                                         "held together only at points {}",
                                         c.attempt->Describe(), sentNs, c.answer->timeNs, lower,
                                         by ? fmt::format(" ({} before it was sent)", blame(by))
                                            : "",
                                         upper, spans));
            }
            point = chosen.value_or(lower);
        }
        const std::pair<uint64_t, const Committed*> previous =
            latest.empty() ? std::make_pair(uint64_t{0}, nullptr) : latest.back();
        finishes.push_back(c.answer->timeNs);
        latest.push_back(point >= previous.first ? std::make_pair(point, &c) : previous);
    }
    for (const Committed& c : unanswered)
    {
        checkCommit(c);
    }
    findings.Checked(kRealTime,
                     fmt::format("{} answered commits and {} commits never answered are in an "
                                 "order that respects real time",
                                 answered.size(), unanswered.size()));
}

} // namespace

CheckReport
CheckRun(const std::string& runDir)
{
    const std::vector<Group> store = ReadGroups(runDir + "/gotthard_store.csv", true);
    const std::vector<Group> client = ReadGroups(runDir + "/gotthard_client.csv", false);
    CheckFindings findings({kSerializability, kSwitchAnswers, kSwitchCommitsNoWrite, kFinalState,
                            kRequestIntegrity, kAtMostOnce, kClientOutcomes, kRealTime});

    std::vector<Execution> executions(store.size());
    History history;
    std::map<uint32_t, uint64_t> increments;
    std::set<uint32_t> notIncrementOnly;
    Replay(store, executions, history, findings, increments, notIncrementOnly);
    const auto commits = static_cast<uint64_t>(std::count_if(
        store.begin(), store.end(), [](const Group& t) { return t.event == "commit"; }));
    findings.Checked(kSerializability,
                     fmt::format("{} store transactions replayed serially ({} commits)",
                                 store.size(), commits));
    CheckFinalState(runDir, history, increments, notIncrementOnly, findings);

    std::map<AttemptKey, Attempt> attempts;
    for (const Group& g : client)
    {
        Attempt& attempt = attempts[{g.client, g.txn}];
        attempt.client = g.client;
        attempt.txn = g.txn;
        if (g.event != "send")
        {
            attempt.answers.push_back(&g);
        }
        else if (attempt.request)
        {
            findings.Add(kRequestIntegrity,
                         fmt::format("line {}: client {} sent txn {:#x} again as a new attempt "
                                     "(first at line {})",
                                     g.line, g.client, g.txn, attempt.request->line));
        }
        else
        {
            attempt.request = &g;
        }
    }
    CheckRequests(attempts, executions, findings);
    findings.Checked(kRequestIntegrity,
                     fmt::format("{} executions are of attempts sent as executed",
                                 executions.size()));
    CheckAtMostOnce(attempts, findings);
    CheckOutcomes(attempts, history, findings);
    CheckRealTime(attempts, executions, findings);
    return findings.Report();
}

} // namespace incsim::gotthard
