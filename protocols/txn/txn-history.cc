#include "protocols/txn/txn-history.h"

#include "sim/trace/csv-writer.h"

namespace incsim::txn
{

namespace
{
const char* kRows = " One row per operation, in order (`op` = 0, 1, ...); a transaction's rows are "
                    "consecutive.";
const TraceColumn kClient{"client", "int", "The client's index (for hosts: the host index)."};
const TraceColumn kAttempt{"attempt", "uint64",
                           "The attempt's id, unique among the client's attempts (Gotthard: "
                           "the transaction id, (client + 1) << 48 | attempt counter)."};
const TraceColumn kOp{"op", "int", "The operation's position in the transaction."};
const TraceColumn kType{"type", "string",
                        "`read` (a read of the value or version the execution saw, validated "
                        "at commit), `write`, or `fetch` (a read whose value the server "
                        "supplies at commit)."};
const TraceColumn kKey{"key", "uint64", "The key."};
const TraceColumn kTime{"time_ns", "ns",
                        "When the request was first sent, the answer arrived, or the server "
                        "decided."};

std::string
VersionText(const std::optional<uint64_t>& version)
{
    return version ? std::to_string(*version) : std::string();
}
} // namespace

const char*
AccessTypeName(AccessType type)
{
    switch (type)
    {
    case AccessType::Read:
        return "read";
    case AccessType::Write:
        return "write";
    case AccessType::Fetch:
        return "fetch";
    }
    return "?";
}

const TraceSchema&
ClientHistoryTrace()
{
    static const TraceSchema trace{
        "txn_client",
        std::string("Each attempt's request at its first send (retransmissions are not "
                    "logged), and the answer the client settled it with. An attempt in flight "
                    "when the client crashed or the run ended has no answer.") +
            kRows,
        {kClient, kAttempt,
         {"logical", "uint64",
          "The client's logical transaction, 1, 2, ...: all attempts of one transaction share "
          "it; it only grows, across crashes too."},
         {"kind", "string", "The workload's kind of transaction (e.g. `payment`)."},
         {"event", "string", "`send`, or the answer: `commit`, `abort`."},
         {"by", "string",
          "`client` for `send`; who answered: `server`, or `network` (a switch answered by "
          "itself)."},
         kOp, kType, kKey,
         {"value", "uint64",
          "`send`: the value a read saw, the value a write writes (fetches: 0); answers: the "
          "value the answer carried for the key (a server's: its value after the transaction; "
          "a switch's: the value it holds)."},
         {"version", "uint64",
          "`send`: the version a read saw, for stores with versions; empty otherwise."},
         kTime}};
    return trace;
}

const TraceSchema&
ServerLogTrace()
{
    static const TraceSchema trace{
        "txn_log",
        std::string("Every transaction each server (a replica of a shard) decided, in its "
                    "order: the commit log, aborts included.") +
            kRows,
        {{"server", "int", "The server (for hosts: the host index)."},
         {"shard", "int", "The shard (partition) it holds."},
         {"replica", "int", "0 for the shard's primary, 1, 2, ... for its backups."},
         {"seq", "uint64", "Decision number at this server, 0, 1, 2, ...: its order."},
         kClient, kAttempt,
         {"outcome", "string", "`commit` or `abort`."},
         kOp, kType, kKey,
         {"value", "uint64",
          "Reads: the value validated; writes: the value written; fetches: the value "
          "returned."},
         {"version", "uint64",
          "Reads: the version validated; writes: the version installed (the key's count of "
          "committed writes); empty for stores without versions."},
         kTime}};
    return trace;
}

std::vector<TraceSchema>
HistoryTraces()
{
    return {ClientHistoryTrace(), ServerLogTrace()};
}

void
LogClient(CsvWriter& log, uint32_t client, uint64_t attempt, uint64_t logical,
          const std::string& kind, Event event, By by, const std::vector<HistoryOp>& ops,
          int64_t timeNs)
{
    const char* eventName = event == Event::Send ? "send" : event == Event::Commit ? "commit"
                                                                                   : "abort";
    const char* byName = by == By::Client ? "client" : by == By::Server ? "server" : "network";
    for (size_t i = 0; i < ops.size(); ++i)
    {
        const HistoryOp& op = ops[i];
        log.Row(client, attempt, logical, kind, eventName, byName, i, AccessTypeName(op.type),
                op.key, op.value, VersionText(op.version), timeNs);
    }
}

void
LogServer(CsvWriter& log, uint32_t server, uint32_t shard, uint32_t replica, uint64_t seq,
          uint32_t client, uint64_t attempt, bool committed, const std::vector<HistoryOp>& ops,
          int64_t timeNs)
{
    for (size_t i = 0; i < ops.size(); ++i)
    {
        const HistoryOp& op = ops[i];
        log.Row(server, shard, replica, seq, client, attempt, committed ? "commit" : "abort", i,
                AccessTypeName(op.type), op.key, op.value, VersionText(op.version), timeNs);
    }
}

uint64_t
StateDigest(const std::map<uint64_t, uint64_t>& values)
{
    uint64_t hash = 14695981039346656037ull;  // FNV-1a
    const auto mix = [&hash](uint64_t word) {
        for (int byte = 0; byte < 8; ++byte)
        {
            hash = (hash ^ ((word >> (8 * byte)) & 0xff)) * 1099511628211ull;
        }
    };
    for (const auto& [key, value] : values)
    {
        mix(key);
        mix(value);
    }
    return hash & ((uint64_t{1} << 53) - 1);
}

} // namespace incsim::txn
