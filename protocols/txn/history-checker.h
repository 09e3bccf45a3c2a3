#ifndef INCSIM_TXN_HISTORY_CHECKER_H
#define INCSIM_TXN_HISTORY_CHECKER_H

#include "sim/scenario/protocol.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace incsim::txn
{

/// The properties CheckHistory reports (docs/txn.md defines each).
extern const char* const kSerializability;
extern const char* const kStrictSerializability;
extern const char* const kAtMostOnce;
extern const char* const kNoLostWrites;
extern const char* const kOutcomes;
extern const char* const kRequestIntegrity;
extern const char* const kAbortsJustified;

struct HistoryCheckOptions
{
    /// Per shard, the final state its primary reported: (keys written, StateDigest). Shards
    /// not listed are not compared.
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> finalStates;
    /// Server answers carry the server's value of every key the transaction names (after
    /// the transaction): check them.
    bool answersCarryValues = false;
    /// The store aborts only on a stale read (OCC by value compare): check that every abort
    /// had one (property "aborts justified").
    bool abortsOnlyOnStaleReads = false;
    /// Servers that crashed during the run. A backup's install is final only if its attempt
    /// commits: a crashed server's backup log may hold installs of attempts decided aborted
    /// after the crash (no live replica had them), so only its committed attempts' decisions
    /// are compared with the primary's.
    std::set<uint64_t> crashedServers;
    /// Clients that failed during the run. A client that writes its request only when the
    /// servers' answers bring its values (1Pipe's independent transactions) has no request
    /// for the attempts the live servers executed after it failed: those are not
    /// request-integrity violations (everything else is checked as for any attempt).
    std::set<uint64_t> failedClients;
};

/// Checks the transaction history of a run directory (txn_client.csv, txn_log.csv):
///  - serializability: each server's log is its whole history; the committed transactions'
///    conflict graph (over the primaries' logs) is acyclic, and a serial replay in its order
///    reproduces every read (value, and version where logged); what the network answered by
///    itself held together at one point of that order;
///  - strict serializability: an order exists that also puts every transaction after those
///    whose commit its client had been told before it was sent;
///  - at most once: no server executed an attempt twice, and no logical transaction
///    committed twice;
///  - no lost or doubled writes: every write of a committed attempt is in the commit logs,
///    backups' committed writes equal their primary's, the final states equal the replay's,
///    and a key written only by increments holds the number of committed increments;
///  - outcomes: every answer a client settled with is the servers' fate of that attempt
///    (and carries their values, with answersCarryValues); no attempt settled twice;
///  - request integrity: servers executed only attempts clients sent, as sent, after
///    sending them;
///  - aborts justified (with abortsOnlyOnStaleReads): every abort had a stale read.
/// Throws InputError (file and line) on a malformed trace.
CheckReport CheckHistory(const std::string& runDir, const HistoryCheckOptions& options);

} // namespace incsim::txn

#endif
