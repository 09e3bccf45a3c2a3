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
    DecisionLog(CsvWriter* log, uint32_t server) : m_log(log), m_server(server) {}

    /// Appends the decision on (client, attempt) with `ops`, at `timeNs`; `outcome` is
    /// true (committed) or false, or unknown until Resolve.
    void Append(uint32_t client, uint64_t attempt, const std::vector<txn::HistoryOp>& ops,
                int64_t timeNs, std::optional<bool> outcome);
    /// The outcome of (client, attempt)'s decision here, appended or still to come.
    void Resolve(uint32_t client, uint64_t attempt, bool committed);
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
    static uint64_t Key(uint32_t client, uint64_t attempt) { return attempt ^ (uint64_t{client} << 48); }
    void WriteResolved();

    CsvWriter* m_log;
    uint32_t m_server;
    uint64_t m_nextSeq = 0;
    std::deque<Entry> m_open; ///< from the oldest unwritten decision on
    /// Decisions in m_open without an outcome, by (client, attempt): their index from the
    /// first one ever appended.
    std::unordered_map<uint64_t, uint64_t> m_pending;
    /// Outcomes resolved before their decision was appended.
    std::unordered_map<uint64_t, bool> m_early;
    uint64_t m_firstOpen = 0; ///< the index of m_open.front()
};

} // namespace incsim::onepipe::apps

#endif
