#ifndef INCSIM_GOTTHARD_GOTTHARD_CHECKER_H
#define INCSIM_GOTTHARD_GOTTHARD_CHECKER_H

#include "sim/runner/protocol.h"

#include <string>

namespace incsim::gotthard
{

/// Checks a Gotthard run directory (traces gotthard_store and gotthard_client, metrics.json;
/// docs/gotthard.md lists the properties and what each catches):
///  - serializability: the store's log is its whole history, and replaying it serially (all
///    keys start at 0) reproduces every commit's compares and reads; every abort had a stale
///    compare;
///  - switch answers: what a switch answered by itself (compare-only OKs, read-cache reads)
///    is a state the store held: one point of its history where every key had those values;
///  - switch commits no write: a switch never answered OK to a transaction with writes;
///  - final state: the replay ends in the store's state (metrics store_keys, store_digest),
///    and a key written only by increments holds the number of committed increments;
///  - request integrity: the store executed only attempts that clients sent, as they sent
///    them, after they sent them; no client reused an attempt id;
///  - at most once: no attempt executed twice, and no logical transaction committed twice;
///  - client outcomes: every answer a client settled an attempt with is the truth: the
///    store's OK or ABORT of that attempt with the store's values, or a switch's ABORT of an
///    attempt the store never committed;
///  - real time (strict serializability, beyond the paper's claim): every committed
///    transaction, switch answers included, can be placed in the serial order after every
///    transaction that was answered OK before it was sent, and before every one sent after
///    it was answered.
CheckReport CheckRun(const std::string& runDir);

} // namespace incsim::gotthard

#endif
