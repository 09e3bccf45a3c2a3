#ifndef INCSIM_GOTTHARD_GOTTHARD_HISTORY_H
#define INCSIM_GOTTHARD_GOTTHARD_HISTORY_H

#include "protocols/gotthard/gotthard-wire.h"
#include "protocols/txn/txn-history.h"

#include <vector>

namespace incsim::gotthard
{

// Gotthard's operations in the shared transaction layer's terms: a compare is a read of the
// value the client saw (validated at the store), a read is a fetch (the store supplies the
// value), a write is a write.

OpType ToOpType(txn::AccessType type);
txn::AccessType ToAccessType(OpType type);
/// `ops` as the history logs them (`out` is cleared first; its storage is reused).
void ToHistory(const std::vector<Op>& ops, std::vector<txn::HistoryOp>& out);

} // namespace incsim::gotthard

#endif
