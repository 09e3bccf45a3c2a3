#ifndef INCSIM_SWITCHTX_SERVER_LOG_H
#define INCSIM_SWITCHTX_SERVER_LOG_H

#include "protocols/txn/txn-history.h"

#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <vector>

namespace incsim
{
class CsvWriter;
}

namespace incsim::switchtx
{

/// One server's commit log (txn_log, docs/txn.md), in the order of its decisions. A decision
/// takes its place when the server makes it; a primary that validates reads takes it at the
/// validation, its serialization point there, though whether the transaction commits is known
/// only later (a read-only participant never learns it: the client's outcome, or the first
/// install at a primary, settles it; see HistoryRecorder). So a decision can be
/// pending: rows are written, and numbered, once every decision before them is settled, and
/// a decision that turns out aborted is left out.
class ServerLog
{
  public:
    using Handle = uint64_t;

    /// `log` may be null (trace not requested): decisions are then settled and dropped.
    ServerLog(CsvWriter* log, uint32_t server);

    /// Appends a decision of `shard`'s replica `replica`; `settled` with `committed`, or pending.
    Handle Append(uint32_t shard, uint32_t replica, uint32_t client, uint64_t attempt,
                  bool settled, bool committed, int64_t timeNs);
    /// The operations of a decision (filled by the caller, until it is settled).
    std::vector<txn::HistoryOp>& Ops(Handle handle);
    void Settle(Handle handle, bool committed);
    bool Pending(Handle handle) const;
    /// End of the run: decisions still pending are left out (their attempts did not commit
    /// within the run), and the ones after them written. Returns how many were pending.
    uint64_t Flush();

  private:
    struct Entry
    {
        uint32_t shard = 0;
        uint32_t replica = 0;
        uint32_t client = 0;
        uint64_t attempt = 0;
        bool settled = false;
        bool committed = false;
        int64_t timeNs = 0;
        std::vector<txn::HistoryOp> ops;
    };
    void Emit();

    CsvWriter* m_log;
    uint32_t m_server;
    std::deque<Entry> m_entries;
    Handle m_first = 0;  ///< handle of m_entries.front()
    uint64_t m_seq = 0;
};

/// Settles read-only participants' pending decisions from what only the whole system knows:
/// an attempt committed once a primary installed it (every validate_ok had been gathered, and
/// its writes are visible) or its client was told so (read-only attempts); it aborted when its
/// client decided so.
class HistoryRecorder
{
  public:
    /// A pending decision settled by the attempt's fate. `commitSettles` false: the server
    /// settles a commit itself (it also installs writes), only an abort settles it here.
    void AddPending(uint32_t client, uint64_t attempt, ServerLog* log, ServerLog::Handle handle,
                    bool commitSettles);
    void Settle(uint32_t client, uint64_t attempt, bool committed);

  private:
    struct Pending
    {
        ServerLog* log;
        ServerLog::Handle handle;
        bool commitSettles;
    };
    std::map<std::pair<uint32_t, uint64_t>, std::vector<Pending>> m_pending;
};

} // namespace incsim::switchtx

#endif
