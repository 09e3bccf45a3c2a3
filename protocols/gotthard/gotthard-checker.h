#ifndef INCSIM_GOTTHARD_GOTTHARD_CHECKER_H
#define INCSIM_GOTTHARD_GOTTHARD_CHECKER_H

#include "sim/scenario/protocol.h"

#include <string>

namespace incsim::gotthard
{

/// Checks a Gotthard run directory with the shared history checker (txn::CheckHistory, on
/// the traces txn_client and txn_log; docs/txn.md defines the properties), for one store
/// that compares values: the store's final state is metrics.json's store_keys and
/// store_digest, its answers carry its values, and it aborts only on a stale compare
/// ("aborts justified"). Network answers are the switches' (read-cache reads, compare-only
/// OKs, aborts); docs/gotthard.md says which properties each mode is expected to keep.
CheckReport CheckRun(const std::string& runDir);

} // namespace incsim::gotthard

#endif
