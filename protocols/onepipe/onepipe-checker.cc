#include "protocols/onepipe/onepipe-checker.h"

#include "protocols/onepipe/onepipe-protocol.h"

#include "sim/core/diagnostics.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/csv-reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
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

/// Whether metrics.json shows no frame lost in the network (consumed beacons aside).
bool
NetworkDroppedNothing(const std::string& runDir)
{
    const std::string path = runDir + "/metrics.json";
    if (!std::filesystem::exists(path))
    {
        return false;
    }
    const nlohmann::json drops =
        ReadJsonFile(path).value("/network/drops"_json_pointer, nlohmann::json::object());
    for (const auto& [reason, count] : drops.items())
    {
        if (reason != "consumed" && count.get<uint64_t>() > 0)
        {
            return false;
        }
    }
    return true;
}

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

    std::unordered_map<uint64_t, Sent> sent;
    // Per process, its sends and its deliveries in time order (the traces' order).
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
            sendsBy[csv.Uint(src)].push_back(Event{csv.Int(sendNs), csv.Uint(ts), key});
        }
    }
    std::unordered_set<uint64_t> failed;
    std::unordered_set<uint64_t> naked;
    {
        CsvReader csv(runDir + "/onepipe_failures.csv", {"src", "seq", "reason"});
        const size_t src = csv.Column("src"), seq = csv.Column("seq"),
                     reason = csv.Column("reason");
        while (csv.Next())
        {
            const uint64_t key = MessageKey(csv.Uint(src), csv.Uint(seq));
            failed.insert(key);
            if (csv.Text(reason) == "nak")
            {
                naked.insert(key);
            }
        }
    }

    const bool lossless = NetworkDroppedNothing(runDir);
    std::vector<std::string> properties = {"never sent", "duplicate", "receiver order",
                                           "total order"};
    if (clockTimestamps)
    {
        properties.push_back("causality");
    }
    if (lossless)
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
    {
        CsvReader csv(runDir + "/onepipe_deliveries.csv",
                      {"dst", "src", "seq", "ts", "dst_clock", "deliver_ns"});
        const size_t dstCol = csv.Column("dst"), srcCol = csv.Column("src"),
                     seqCol = csv.Column("seq"), tsCol = csv.Column("ts"),
                     clockCol = csv.Column("dst_clock"), timeCol = csv.Column("deliver_ns");
        while (csv.Next())
        {
            ++deliveries;
            const uint64_t dst = csv.Uint(dstCol), src = csv.Uint(srcCol), seq = csv.Uint(seqCol);
            const uint64_t ts = csv.Uint(tsCol), clock = csv.Uint(clockCol);
            const uint64_t key = MessageKey(src, seq);
            deliveriesBy[dst].push_back(Event{csv.Int(timeCol), ts, key});
            auto it = sent.find(key);
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
            auto previous = last.find(dst);
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
            last[dst] = {order, key, scattering};
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

    uint64_t accountable = 0;
    for (const auto& [key, message] : sent)
    {
        const bool counted = message.sendNs + ackTimeoutNs + kSettleNs <= durationNs;
        accountable += counted ? 1 : 0;
        if (delivered.count(key))
        {
            continue;
        }
        if (counted && !failed.count(key))
        {
            findings.Add("conservation",
                         fmt::format("{} to process {} (sent at {} ns) was neither delivered nor "
                                     "reported failed",
                                     MessageName(key), message.dst, message.sendNs));
        }
        else if (lossless && (naked.count(key) || (counted && failed.count(key))))
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
    if (lossless)
    {
        findings.Checked("completeness", "the network dropped nothing, no message was NAKed, "
                                         "and every counted message was delivered");
    }
    findings.Checked("conservation",
                     fmt::format("{} messages delivered or reported failed ({} sent too late to "
                                 "count)",
                                 accountable, sent.size() - accountable));
    return findings.Report();
}

} // namespace incsim::onepipe
