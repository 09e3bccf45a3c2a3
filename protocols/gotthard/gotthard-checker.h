#ifndef INCSIM_GOTTHARD_GOTTHARD_CHECKER_H
#define INCSIM_GOTTHARD_GOTTHARD_CHECKER_H

#include "sim/runner/protocol.h"

#include <string>

namespace incsim::gotthard
{

/// Checks a Gotthard run directory (traces gotthard_store and gotthard_client, metrics.json):
///  - serializability: replaying the store's log serially (all keys start at 0) reproduces
///    every committed transaction's compares and reads, and every abort had a stale compare;
///  - the replayed final state is the store's (metrics store_keys and store_digest), and a
///    key written only by increments holds the number of committed increments;
///  - the switch commits no write: every commit a client saw for a transaction with writes is
///    a commit in the store's log, of the same operations;
///  - what a switch answered by itself (compare-only OKs, read-cache reads) is a state the
///    store held: one point of its history where every key had the answered value.
CheckReport CheckRun(const std::string& runDir);

} // namespace incsim::gotthard

#endif
