#ifndef INCSIM_TXN_TXN_HISTORY_H
#define INCSIM_TXN_TXN_HISTORY_H

#include "protocols/txn/txn-workload.h"
#include "sim/trace/trace-schema.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace incsim
{
class CsvWriter;
}

namespace incsim::txn
{

/// The transaction-history traces (docs/txn.md, docs/traces.md):
///  - txn_client: per attempt, its request at the first send (what it read, with the value or
///    version seen, and what it writes) and the answer that settled it (outcome, who answered,
///    the values the answer carried);
///  - txn_log: per server (each replica of each shard), every transaction it decided, in its
///    order, with what it read and wrote: the commit log.
const TraceSchema& ClientHistoryTrace();
const TraceSchema& ServerLogTrace();
std::vector<TraceSchema> HistoryTraces();

/// Who a txn_client row comes from: the client's request, or the answer's sender.
enum class By : uint8_t
{
    Client,
    Server,
    Network
};

enum class Event : uint8_t
{
    Send,
    Commit,
    Abort
};

/// One operation as the history records it. `version` is what a read saw (stores with
/// versions), or the version a write installs.
struct HistoryOp
{
    AccessType type = AccessType::Read;
    uint64_t key = 0;
    uint64_t value = 0;
    std::optional<uint64_t> version;
};

/// Writes one attempt's request or answer to txn_client, a row per operation.
void LogClient(CsvWriter& log, uint32_t client, uint64_t attempt, uint64_t logical,
               const std::string& kind, Event event, By by, const std::vector<HistoryOp>& ops,
               int64_t timeNs);

/// Writes one server decision to txn_log, a row per operation.
void LogServer(CsvWriter& log, uint32_t server, uint32_t shard, uint32_t replica, uint64_t seq,
               uint32_t client, uint64_t attempt, bool committed,
               const std::vector<HistoryOp>& ops, int64_t timeNs);

/// A digest of a store's state (keys never written left out), exact as a double: 53 bits.
uint64_t StateDigest(const std::map<uint64_t, uint64_t>& values);

const char* AccessTypeName(AccessType type);

} // namespace incsim::txn

#endif
