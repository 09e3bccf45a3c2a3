#include "protocols/onepipe/onepipe-checker.h"

#include "protocols/onepipe/onepipe-protocol.h"

#include "sim/core/diagnostics.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/csv-reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace incsim::onepipe
{

namespace
{

uint64_t
MessageKey(uint64_t src, uint64_t sequence)
{
    return (src << 32) | sequence;
}

std::string
MessageName(uint64_t key)
{
    return fmt::format("message {}#{}", key >> 32, key & 0xFFFFFFFFu);
}

/// A scattering (all the messages a process sent with one timestamp): the unit receivers
/// must agree on the order of. Timestamps are 48-bit.
uint64_t
ScatteringKey(uint64_t src, uint64_t ts)
{
    return (src << 48) | ts;
}

std::string
ScatteringName(uint64_t key)
{
    return fmt::format("the scattering of process {} at ts {}", key >> 48,
                       key & ((uint64_t{1} << 48) - 1));
}

struct Sent
{
    uint64_t ts;
    uint64_t dst;
    int64_t sendNs;
};

/// A send or a delivery at one process.
struct Event
{
    int64_t timeNs;
    uint64_t ts;
    uint64_t message;
};

/// Causality across a process's own events (Lamport): whatever a process sends after it
/// delivered a timestamp must carry a larger one. Sends and deliveries of each process are in
/// time order; events in the same ns are not ordered by the traces and are not compared.
void
CheckSendsAfterDeliveries(const std::unordered_map<uint64_t, std::vector<Event>>& sendsBy,
                          const std::unordered_map<uint64_t, std::vector<Event>>& deliveriesBy,
                          CheckFindings& findings)
{
    for (const auto& [process, sends] : sendsBy)
    {
        auto found = deliveriesBy.find(process);
        if (found == deliveriesBy.end())
        {
            continue;
        }
        const std::vector<Event>& deliveries = found->second;
        size_t next = 0;
        const Event* highest = nullptr;
        for (const Event& send : sends)
        {
            for (; next < deliveries.size() && deliveries[next].timeNs < send.timeNs; ++next)
            {
                if (highest == nullptr || deliveries[next].ts > highest->ts)
                {
                    highest = &deliveries[next];
                }
            }
            if (highest != nullptr && send.ts <= highest->ts)
            {
                findings.Add("causality",
                             fmt::format("process {} sent {} with ts {} at {} ns, after it had "
                                         "delivered {} with ts {} at {} ns",
                                         process, MessageName(send.message), send.ts,
                                         send.timeNs, MessageName(highest->message), highest->ts,
                                         highest->timeNs));
            }
        }
    }
}

/// Whether metrics.json shows no frame lost in the network (consumed beacons aside) and none
/// dropped by lib1pipe on receipt (receive_loss).
bool
NetworkDroppedNothing(const std::string& runDir)
{
    const std::string path = runDir + "/metrics.json";
    if (!std::filesystem::exists(path))
    {
        return false;
    }
    const nlohmann::json metrics = ReadJsonFile(path);
    if (metrics.value("/onepipe/receive_drops"_json_pointer, uint64_t{0}) > 0)
    {
        return false;
    }
    const nlohmann::json drops =
        metrics.value("/network/drops"_json_pointer, nlohmann::json::object());
    for (const auto& [reason, count] : drops.items())
    {
        if (reason != "consumed" && count.get<uint64_t>() > 0)
        {
            return false;
        }
    }
    return true;
}

/// A message's timestamp and when its receiver held all of it (never: the maximum).
struct PrepareAt
{
    uint64_t ts;
    int64_t prepareNs;
    uint64_t message;
};

/// Commit before delivery, from the traces alone: the messages sorted by timestamp, with the
/// latest prepare time over every prefix, answer "was everything with ts <= T prepared by
/// time t" for each delivery in O(log n).
class PreparedPrefix
{
  public:
    explicit PreparedPrefix(std::vector<PrepareAt> messages)
        : m_messages(std::move(messages))
    {
        std::sort(m_messages.begin(), m_messages.end(),
                  [](const PrepareAt& a, const PrepareAt& b) { return a.ts < b.ts; });
        m_latest.reserve(m_messages.size());
        for (size_t i = 0; i < m_messages.size(); ++i)
        {
            const bool later = i == 0 || m_messages[i].prepareNs >
                                             m_messages[m_latest.back()].prepareNs;
            m_latest.push_back(later ? i : m_latest.back());
        }
    }

    /// The message with timestamp at most `ts` prepared last, or null if there is none.
    const PrepareAt* LatestUpTo(uint64_t ts) const
    {
        auto end = std::upper_bound(m_messages.begin(), m_messages.end(), ts,
                                    [](uint64_t t, const PrepareAt& m) { return t < m.ts; });
        if (end == m_messages.begin())
        {
            return nullptr;
        }
        return &m_messages[m_latest[static_cast<size_t>(end - m_messages.begin()) - 1]];
    }

  private:
    std::vector<PrepareAt> m_messages;
    std::vector<size_t> m_latest; ///< per prefix, the index of its latest prepare
};

constexpr int64_t kNeverNs = std::numeric_limits<int64_t>::max();

/// Whether the receivers' orders, joined into one graph of "delivered just before" edges,
/// have a cycle (then no single order agrees with all of them). Kahn's algorithm.
bool
OrdersHaveCycle(const std::unordered_map<uint64_t, std::vector<uint64_t>>& next,
                std::unordered_map<uint64_t, uint32_t> indegree, uint64_t& stuck)
{
    std::vector<uint64_t> ready;
    for (const auto& [node, degree] : indegree)
    {
        if (degree == 0)
        {
            ready.push_back(node);
        }
    }
    size_t visited = 0;
    while (!ready.empty())
    {
        const uint64_t node = ready.back();
        ready.pop_back();
        ++visited;
        auto it = next.find(node);
        if (it == next.end())
        {
            continue;
        }
        for (uint64_t successor : it->second)
        {
            if (--indegree[successor] == 0)
            {
                ready.push_back(successor);
            }
        }
    }
    if (visited == indegree.size())
    {
        return false;
    }
    for (const auto& [node, degree] : indegree)
    {
        if (degree > 0)
        {
            stuck = node;
            break;
        }
    }
    return true;
}
/// A process identity (docs/onepipe.md, "Receiver recovery and rejoin"): a process that the
/// controller declared failed and that rejoined is a new identity, named by the process and
/// its first timestamp; the old one sent below it, and was sent to before it rejoined.
struct Identity
{
    uint64_t firstTs = 0;
    int64_t startNs = 0;
    uint64_t failedTs = std::numeric_limits<uint64_t>::max(); ///< its failure timestamp, if any
    bool recovered = false; ///< it kept its receive buffer and delivered it on recovery
};

/// Every process's identities from the controller's `failed`, `recovered` and `rejoined`
/// rows (onepipe_controller), and the identity of each message's sender and receiver. An
/// identity's key is its process | its index << 40.
class Identities
{
  public:
    static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

    /// A reliable run whose faults can fail something must have the trace.
    Identities(const std::string& runDir, const Scenario& scenario, bool reliable)
    {
        if (!reliable)
        {
            return;
        }
        const std::string path = runDir + "/onepipe_controller.csv";
        if (!std::filesystem::exists(path))
        {
            const ParamView faults = scenario.Section("faults");
            for (size_t i = 0; i < faults.Size(); ++i)
            {
                if (faults.At(i).Choice("action", FaultActionChoices()) != FaultAction::LossRate)
                {
                    throw InputError(runDir + "/scenario.resolved.json", "/outputs/traces",
                                     "a reliable run with failures is checked against the "
                                     "controller's decisions: enable the onepipe_controller "
                                     "trace");
                }
            }
            return;
        }
        CsvReader csv(path, {"time_ns", "event", "process", "ts"});
        const size_t time = csv.Column("time_ns"), event = csv.Column("event"),
                     process = csv.Column("process"), ts = csv.Column("ts");
        while (csv.Next())
        {
            const std::string what = csv.Text(event);
            if (what != "failed" && what != "recovered" && what != "rejoined")
            {
                continue;
            }
            std::vector<Identity>& list = m_byProcess[csv.Uint(process)];
            if (list.empty())
            {
                list.emplace_back();
            }
            if (what == "failed")
            {
                list.back().failedTs = csv.Uint(ts);
                ++m_failures;
            }
            else if (what == "recovered")
            {
                list.back().recovered = true;
            }
            else
            {
                list.push_back(Identity{csv.Uint(ts), csv.Int(time)});
            }
        }
    }

    /// The identity that sent timestamp `ts`.
    uint64_t Sender(uint64_t process, uint64_t ts) const
    {
        return Find(process, [ts](const Identity& id) { return id.firstTs <= ts; });
    }
    /// The identity a message sent at `sendNs` went to.
    uint64_t Receiver(uint64_t process, int64_t sendNs) const
    {
        return Find(process, [sendNs](const Identity& id) { return id.startNs <= sendNs; });
    }
    const Identity& Of(uint64_t key) const
    {
        static const Identity live;
        auto it = m_byProcess.find(key & kProcessMask);
        return it == m_byProcess.end() ? live : it->second[key >> 40];
    }
    /// "P", or "P@J" for an identity that rejoined with first timestamp J.
    std::string Name(uint64_t key) const
    {
        return key >> 40 == 0 ? std::to_string(key)
                              : fmt::format("{}@{}", key & kProcessMask, Of(key).firstTs);
    }
    /// Identities the controller declared failed.
    uint64_t Failures() const { return m_failures; }

  private:
    static constexpr uint64_t kProcessMask = (uint64_t{1} << 40) - 1;

    template <typename Started>
    uint64_t Find(uint64_t process, Started started) const
    {
        auto it = m_byProcess.find(process);
        if (it == m_byProcess.end())
        {
            return process;
        }
        uint64_t index = 0;
        for (uint64_t i = 1; i < it->second.size(); ++i)
        {
            index = started(it->second[i]) ? i : index;
        }
        return process | (index << 40);
    }

    std::unordered_map<uint64_t, std::vector<Identity>> m_byProcess;
    uint64_t m_failures = 0;
};

} // namespace

CheckReport
CheckRun(const std::string& runDir)
{
    const Scenario scenario = LoadRunScenario(runDir);
    const ParamView params = scenario.Section("protocol").Get("params");
    // The baselines' keys: sequencers hand them out in the network (senders log 0), and only
    // 1Pipe's are clock readings.
    const Ordering ordering = params.Choice("ordering", OrderingChoices());
    const bool keysFromSequencer =
        ordering == Ordering::SequencerSwitch || ordering == Ordering::SequencerHost;
    const bool clockTimestamps = ordering == Ordering::Total || ordering == Ordering::None;
    const int64_t durationNs = scenario.DurationNs();
    const int64_t ackTimeoutNs = params.DurationNs("ack_timeout");
    const bool reliable = params.Choice("service", ServiceChoices()) == Service::Reliable;

    // Reliable: the identities of the processes the controller declared failed and rejoined.
    const Identities identities(runDir, scenario, reliable);
    std::unordered_map<uint64_t, Sent> sent;
    // Per process identity, its sends and its deliveries in time order (the traces' order).
    std::unordered_map<uint64_t, std::vector<Event>> sendsBy;
    std::unordered_map<uint64_t, std::vector<Event>> deliveriesBy;
    {
        CsvReader csv(runDir + "/onepipe_sends.csv", {"src", "seq", "dst", "ts", "send_ns"});
        const size_t src = csv.Column("src"), seq = csv.Column("seq"), dst = csv.Column("dst"),
                     ts = csv.Column("ts"), sendNs = csv.Column("send_ns");
        while (csv.Next())
        {
            const uint64_t key = MessageKey(csv.Uint(src), csv.Uint(seq));
            sent[key] = Sent{csv.Uint(ts), csv.Uint(dst), csv.Int(sendNs)};
            sendsBy[identities.Sender(csv.Uint(src), csv.Uint(ts))].push_back(
                Event{csv.Int(sendNs), csv.Uint(ts), key});
        }
    }
    std::unordered_set<uint64_t> failed;
    std::unordered_set<uint64_t> naked;
    // Reliable: the scatterings their senders aborted (a receiver failed before ACKing).
    std::unordered_set<uint64_t> recalled;
    {
        CsvReader csv(runDir + "/onepipe_failures.csv", {"src", "seq", "ts", "reason"});
        const size_t src = csv.Column("src"), seq = csv.Column("seq"), ts = csv.Column("ts"),
                     reason = csv.Column("reason");
        while (csv.Next())
        {
            const uint64_t key = MessageKey(csv.Uint(src), csv.Uint(seq));
            failed.insert(key);
            if (csv.Text(reason) == "nak")
            {
                naked.insert(key);
            }
            if (csv.Text(reason) == "recalled")
            {
                recalled.insert(ScatteringKey(csv.Uint(src), csv.Uint(ts)));
            }
        }
    }
    // Messages the reliable service need not deliver: recalled, discarded (their sender's
    // identity failed at or below their timestamp), or to a failed receiver identity that did
    // not recover its buffer.
    auto senderFailedBefore = [&identities](uint64_t src, uint64_t ts) {
        return ts >= identities.Of(identities.Sender(src, ts)).failedTs;
    };
    // The identity a message went to.
    auto receiverOf = [&identities](const Sent& message) {
        return identities.Receiver(message.dst, message.sendNs);
    };
    auto withdrawn = [&](uint64_t key, const Sent& message) {
        return recalled.count(ScatteringKey(key >> 32, message.ts)) ||
               senderFailedBefore(key >> 32, message.ts);
    };
    auto exempt = [&](uint64_t key, const Sent& message) {
        const Identity& receiver = identities.Of(receiverOf(message));
        return withdrawn(key, message) ||
               (receiver.failedTs != Identities::kNever && !receiver.recovered);
    };

    // Reliable: when each message was prepared at its receiver.
    std::unordered_map<uint64_t, int64_t> preparedNs;
    if (reliable)
    {
        const std::string path = runDir + "/onepipe_prepares.csv";
        if (!std::filesystem::exists(path))
        {
            throw InputError(runDir + "/scenario.resolved.json", "/outputs/traces",
                             "the reliable service's checks need the onepipe_prepares trace; "
                             "enable it");
        }
        CsvReader csv(path, {"dst", "src", "seq", "ts", "prepare_ns"});
        const size_t src = csv.Column("src"), seq = csv.Column("seq"),
                     at = csv.Column("prepare_ns");
        while (csv.Next())
        {
            preparedNs.emplace(MessageKey(csv.Uint(src), csv.Uint(seq)), csv.Int(at));
        }
    }

    const bool lossless = NetworkDroppedNothing(runDir);
    // The reliable service retransmits what the network loses.
    const bool complete = lossless || reliable;
    std::vector<std::string> properties = {"never sent", "duplicate", "receiver order",
                                           "total order"};
    if (clockTimestamps)
    {
        properties.push_back("causality");
    }
    if (reliable)
    {
        properties.push_back("commit before delivery");
        properties.push_back("atomicity");
        properties.push_back("no recalled delivery");
        properties.push_back("delivered after recovery");
    }
    if (complete)
    {
        properties.push_back("completeness");
    }
    properties.push_back("conservation");
    CheckFindings findings(properties);
    std::unordered_set<uint64_t> delivered;
    // Per receiver: the last (ts, src, seq) delivered, its message and its scattering.
    struct Last
    {
        std::tuple<uint64_t, uint64_t, uint64_t> order;
        uint64_t message;
        uint64_t scattering;
    };
    std::unordered_map<uint64_t, Last> last;
    std::unordered_map<uint64_t, std::vector<uint64_t>> next;
    std::unordered_map<uint64_t, uint32_t> indegree;
    uint64_t deliveries = 0;
    std::optional<PreparedPrefix> prepared;
    if (reliable)
    {
        std::vector<PrepareAt> messages;
        messages.reserve(sent.size());
        for (const auto& [key, message] : sent)
        {
            if (exempt(key, message))
            {
                continue; // never had to be prepared
            }
            auto it = preparedNs.find(key);
            messages.push_back(
                PrepareAt{message.ts, it == preparedNs.end() ? kNeverNs : it->second, key});
        }
        prepared.emplace(std::move(messages));
    }
    {
        std::vector<std::string> columns = {"dst", "src", "seq", "ts", "dst_clock", "deliver_ns"};
        if (reliable)
        {
            columns.push_back("barrier");
        }
        CsvReader csv(runDir + "/onepipe_deliveries.csv", columns);
        const size_t dstCol = csv.Column("dst"), srcCol = csv.Column("src"),
                     seqCol = csv.Column("seq"), tsCol = csv.Column("ts"),
                     clockCol = csv.Column("dst_clock"), timeCol = csv.Column("deliver_ns");
        const size_t barrierCol = reliable ? csv.Column("barrier") : 0;
        while (csv.Next())
        {
            ++deliveries;
            const uint64_t dst = csv.Uint(dstCol), src = csv.Uint(srcCol), seq = csv.Uint(seqCol);
            const uint64_t ts = csv.Uint(tsCol), clock = csv.Uint(clockCol);
            const uint64_t key = MessageKey(src, seq);
            const int64_t deliverNs = csv.Int(timeCol);
            auto it = sent.find(key);
            // The receiving identity: the one the message was sent to.
            const uint64_t receiver = it == sent.end() ? dst : receiverOf(it->second);
            deliveriesBy[receiver].push_back(Event{deliverNs, ts, key});
            if (reliable)
            {
                const PrepareAt* latest = prepared->LatestUpTo(ts);
                if (latest != nullptr && latest->prepareNs > deliverNs)
                {
                    findings.Add(
                        "commit before delivery",
                        fmt::format("process {} delivered {} (ts {}) at {} ns, before {} (ts {}) "
                                    "was prepared at its receiver ({}; line {})",
                                    dst, MessageName(key), ts, deliverNs,
                                    MessageName(latest->message), latest->ts,
                                    latest->prepareNs == kNeverNs
                                        ? "never"
                                        : fmt::format("at {} ns", latest->prepareNs),
                                    csv.Line()));
                }
                if (ts >= csv.Uint(barrierCol))
                {
                    findings.Add("commit before delivery",
                                 fmt::format("process {} delivered {} (ts {}) on a commit "
                                             "barrier of {}, not above it (line {})",
                                             dst, MessageName(key), ts, csv.Uint(barrierCol),
                                             csv.Line()));
                }
            }
            if (reliable && it != sent.end() && withdrawn(key, it->second))
            {
                findings.Add("no recalled delivery",
                             fmt::format("process {} delivered {} (ts {}), which its sender "
                                         "{} (line {})",
                                         dst, MessageName(key), ts,
                                         senderFailedBefore(src, ts)
                                             ? fmt::format("failed before (failure timestamp "
                                                           "{}): it had to be discarded",
                                                           identities
                                                               .Of(identities.Sender(src, ts))
                                                               .failedTs)
                                             : std::string("recalled"),
                                         csv.Line()));
            }
            if (it == sent.end() || it->second.dst != dst ||
                (!keysFromSequencer && it->second.ts != ts))
            {
                findings.Add("never sent",
                             fmt::format("process {} delivered {} (ts {}), which was not sent to "
                                         "it with that timestamp (line {})",
                                         dst, MessageName(key), ts, csv.Line()));
            }
            if (!delivered.insert(key).second)
            {
                findings.Add("duplicate", fmt::format("process {} delivered {} again (line {})",
                                                      dst, MessageName(key), csv.Line()));
                continue;
            }
            if (clockTimestamps && ts >= clock)
            {
                findings.Add("causality",
                             fmt::format("process {} delivered {} with ts {} when its clock read "
                                         "{} (line {})",
                                         dst, MessageName(key), ts, clock, csv.Line()));
            }
            const auto order = std::make_tuple(ts, src, seq);
            const uint64_t scattering = ScatteringKey(src, ts);
            indegree.try_emplace(scattering, 0);
            auto previous = last.find(receiver);
            if (previous != last.end())
            {
                if (!(previous->second.order < order))
                {
                    findings.Add("receiver order",
                                 fmt::format("process {} delivered {} (ts {}) after {} (ts {}) "
                                             "(line {})",
                                             dst, MessageName(key), ts,
                                             MessageName(previous->second.message),
                                             std::get<0>(previous->second.order), csv.Line()));
                }
                if (previous->second.scattering != scattering)
                {
                    next[previous->second.scattering].push_back(scattering);
                    ++indegree[scattering];
                }
            }
            last[receiver] = {order, key, scattering};
        }
    }

    if (clockTimestamps)
    {
        CheckSendsAfterDeliveries(sendsBy, deliveriesBy, findings);
    }

    uint64_t stuck = 0;
    if (OrdersHaveCycle(next, indegree, stuck))
    {
        findings.Add("total order",
                     fmt::format("no single order agrees with every receiver: {} is on a cycle "
                                 "of \"delivered before\" across receivers",
                                 ScatteringName(stuck)));
    }

    // Atomicity: a receiver of a scattering that others delivered must deliver it too before
    // anything ordered after it (its commit barrier has passed it by then). One still waiting
    // at the end of the run, having delivered nothing later, is not a violation.
    std::unordered_map<uint64_t, uint64_t> deliveredPerScattering;
    if (reliable)
    {
        for (uint64_t key : delivered)
        {
            auto it = sent.find(key);
            if (it != sent.end())
            {
                ++deliveredPerScattering[ScatteringKey(key >> 32, it->second.ts)];
            }
        }
    }
    uint64_t accountable = 0;
    for (const auto& [key, message] : sent)
    {
        const bool counted = message.sendNs + ackTimeoutNs + kSettleNs <= durationNs;
        accountable += counted ? 1 : 0;
        if (delivered.count(key))
        {
            continue;
        }
        if (reliable && exempt(key, message))
        {
            continue; // recalled, discarded or to a failed receiver: none is owed
        }
        if (reliable)
        {
            // Delivery goes in (ts, sender, sequence) order once the commit barrier passes: a
            // live receiver that delivered anything after this message owed it first.
            auto after = last.find(receiverOf(message));
            if (after != last.end() &&
                std::make_tuple(message.ts, key >> 32, key & 0xFFFFFFFFu) < after->second.order)
            {
                findings.Add("delivered after recovery",
                             fmt::format("{} (ts {}) to live process {}, neither recalled nor "
                                         "discarded, was not delivered, though the process "
                                         "delivered {} (ts {}) after it in the order",
                                         MessageName(key), message.ts, message.dst,
                                         MessageName(after->second.message),
                                         std::get<0>(after->second.order)));
            }
        }
        if (reliable && deliveredPerScattering.count(ScatteringKey(key >> 32, message.ts)))
        {
            auto after = last.find(receiverOf(message));
            if (after != last.end() &&
                std::make_tuple(message.ts, key >> 32, key & 0xFFFFFFFFu) < after->second.order)
            {
                findings.Add("atomicity",
                             fmt::format("{} reached some of its receivers but not process {}, "
                                         "which delivered {} (ts {}) after it in the order",
                                         MessageName(key), message.dst,
                                         MessageName(after->second.message),
                                         std::get<0>(after->second.order)));
            }
        }
        if (counted && !failed.count(key))
        {
            findings.Add("conservation",
                         fmt::format("{} to process {} (sent at {} ns) was neither delivered nor "
                                     "reported failed",
                                     MessageName(key), message.dst, message.sendNs));
        }
        else if (complete && (naked.count(key) || (counted && failed.count(key))) &&
                 !recalled.count(ScatteringKey(key >> 32, message.ts)))
        {
            // A NAK settles the matter whenever it came: the receiver dropped the message.
            findings.Add("completeness",
                         fmt::format("{} to process {} (sent at {} ns) was not delivered though "
                                     "the network lost nothing: it arrived below a barrier{}",
                                     MessageName(key), message.dst, message.sendNs,
                                     naked.count(key) ? " (NAKed)" : ""));
        }
    }

    findings.Checked("never sent",
                     fmt::format("{} deliveries match {} sent messages", deliveries, sent.size()));
    findings.Checked("duplicate",
                     fmt::format("{} distinct messages delivered once each", delivered.size()));
    findings.Checked("receiver order",
                     fmt::format("{} receivers deliver in (ts, sender) order", last.size()));
    findings.Checked("total order", "one order agrees with every receiver");
    if (clockTimestamps)
    {
        findings.Checked("causality", "every delivered timestamp is below the receiver's clock "
                                      "and below every timestamp the receiver sent afterwards");
    }
    if (reliable)
    {
        findings.Checked("commit before delivery",
                         fmt::format("at every delivery of timestamp T, all {} messages with "
                                     "timestamps up to T were already prepared, and T was below "
                                     "the commit barrier",
                                     sent.size()));
        findings.Checked("atomicity",
                         fmt::format("{} delivered scatterings reached all their live "
                                     "receivers, or the others had delivered nothing after them "
                                     "yet ({} processes failed)",
                                     deliveredPerScattering.size(), identities.Failures()));
        findings.Checked("no recalled delivery",
                         fmt::format("none of the {} recalled scatterings, nor any message at or "
                                     "above its failed sender's failure timestamp, was delivered",
                                     recalled.size()));
        findings.Checked("delivered after recovery",
                         "every message to a live receiver, neither recalled nor discarded, was "
                         "delivered before anything the receiver delivered after it");
    }
    if (complete)
    {
        findings.Checked("completeness",
                         lossless ? "the network dropped nothing, no message was NAKed, and "
                                    "every counted message was delivered"
                                  : "the reliable service retransmitted what the network lost: "
                                    "every counted message was delivered, none NAKed");
    }
    findings.Checked("conservation",
                     fmt::format("{} messages delivered or reported failed ({} sent too late to "
                                 "count)",
                                 accountable, sent.size() - accountable));
    return findings.Report();
}

} // namespace incsim::onepipe
