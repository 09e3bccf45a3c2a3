#ifndef INCSIM_ONEPIPE_APPS_DECISION_LOG_H
#define INCSIM_ONEPIPE_APPS_DECISION_LOG_H

#include "protocols/txn/txn-history.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

namespace incsim
{
class CsvWriter;
}

namespace incsim::onepipe::apps
{

/// One server's commit log (the shared txn_log trace, docs/txn.md) when a decision's place in
/// the server's order is fixed before its outcome is known: a FaRM-like server logs a
/// transaction where it validated it, and a 1Pipe server a best-effort read-only transaction
/// where it executed it, but either may still abort (another server failed validation, or a
/// best-effort message was lost and the initiator retries). Decisions are appended in the
/// server's order and written once every earlier one is resolved; an outcome resolved before
/// its decision is appended (an initiator that gave up on a message still in flight) is kept
/// for it. Decisions still open at the end of the run are written as aborts (their initiators
/// never learnt an outcome).
class DecisionLog
{
  public:
    /// The log of `server`, holding replica `replica` (0: the primary) of `shard`.
    DecisionLog(CsvWriter* log, uint32_t server, uint32_t shard, uint32_t replica)
        : m_log(log),
          m_server(server),
          m_shard(shard),
          m_replica(replica)
    {
    }

    /// Appends the decision on (client, attempt) with `ops`, at `timeNs`; `outcome` is
    /// true (committed) or false, or unknown until Resolve. Returns its index, for Resolve.
    uint64_t Append(uint32_t client, uint64_t attempt, const std::vector<txn::HistoryOp>& ops,
                    int64_t timeNs, std::optional<bool> outcome);
    /// The outcome of decision `index`.
    void Resolve(uint64_t index, bool committed);
    /// The outcome of (client, attempt)'s decision here, whose index its initiator does not
    /// know: appended already or still to come (an attempt given up with a message in
    /// flight). Rare; a scan of the open decisions.
    void ResolveUnseen(uint32_t client, uint64_t attempt, bool committed);
    /// Writes what is left open as aborts (the end of the run).
    void Close();

  private:
    struct Entry
    {
        uint32_t client;
        uint64_t attempt;
        int64_t timeNs;
        std::optional<bool> outcome;
        std::vector<txn::HistoryOp> ops;
    };
    static uint64_t Key(uint32_t client, uint64_t attempt)
    {
        return attempt ^ (uint64_t{client} << 48);
    }
    void Write(const Entry& e);
    void WriteResolved();

    CsvWriter* m_log;
    uint32_t m_server;
    uint32_t m_shard;
    uint32_t m_replica;
    uint64_t m_next = 0;      ///< the index of the next decision appended
    uint64_t m_firstOpen = 0; ///< the index of m_open.front()
    std::deque<Entry> m_open; ///< from the oldest decision not written yet
    /// Outcomes resolved before their decision was appended, by (client, attempt).
    std::unordered_map<uint64_t, bool> m_early;
    std::vector<std::vector<txn::HistoryOp>> m_spare; ///< written entries' storage, reused
};

} // namespace incsim::onepipe::apps

#endif
