#ifndef INCSIM_GOTTHARD_GOTTHARD_STORE_H
#define INCSIM_GOTTHARD_GOTTHARD_STORE_H

#include "protocols/gotthard/gotthard-wire.h"
#include "protocols/txn/txn-history.h"
#include "sim/host/endpoint.h"
#include "sim/trace/csv-writer.h"

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace incsim::gotthard
{

/// The store (paper Algorithm 1): optimistic concurrency control by value compare, in the
/// order requests finish their CPU service. Every response carries the store's value of every
/// key the transaction names (after the commit, or as it stands after an abort), so switches
/// can both learn corrections and undo optimistic writes that did not happen. A fragmented
/// request executes once all its fragments have arrived, and is answered in as many
/// fragments. Each executed transaction is logged, operation by operation, to the shared
/// commit log `txn_log` (docs/txn.md; one shard, one replica), the history the checker
/// replays.
///
/// At most once: a closed-loop client has one attempt outstanding, and its attempt ids grow,
/// so the store keeps, per client, only its latest executed attempt and that answer. A copy
/// of the latest attempt is answered with the stored answer, marked as a replay; an older
/// attempt was settled by its client long ago and is dropped unexecuted; a newer one
/// executes. The values, the latest attempts and their answers survive a crash of the
/// store's host (a real store would log them before answering); partly received fragmented
/// requests do not.
class GotthardStore : public Endpoint
{
  public:
    static ns3::TypeId GetTypeId();

    struct Counters
    {
        uint64_t commits = 0;
        uint64_t aborts = 0;
        uint64_t duplicates = 0;  ///< copies of a client's latest attempt, answered by replay
        uint64_t stale = 0;       ///< copies of older attempts, dropped
        uint64_t malformed = 0;   ///< undecodable requests or inconsistent fragments (dropped)
    };

    /// `log` may be null (trace not requested); `host` is the store's host index, its server
    /// id in the log.
    void Configure(CsvWriter* log, uint32_t host);
    const Counters& GetCounters() const { return m_counters; }
    /// The store's contents (keys never written read as 0).
    const std::map<uint32_t, uint64_t>& Values() const { return m_values; }

  private:
    /// What the store remembers of one client (host and port).
    struct ClientState
    {
        uint64_t latest = 0;  ///< the latest attempt executed (0: none yet)
        std::vector<std::vector<uint8_t>> answer;  ///< its answer's fragments, marked replay
        uint64_t partialId = 0;                    ///< a newer attempt being reassembled
        Reassembly partial;
    };

    void DoReceive(const Datagram& datagram) override;
    void DoCrash() override;
    void Accept(uint32_t client, uint16_t port, Message request);
    /// Algorithm 1; logs the transaction and encodes the response into `answer`.
    void Execute(uint32_t client, const Message& request,
                 std::vector<std::vector<uint8_t>>& answer);
    void Answer(uint32_t client, uint16_t port, const std::vector<uint8_t>& packet);
    uint64_t ValueOf(uint32_t key) const;

    CsvWriter* m_log = nullptr;
    uint32_t m_host = 0;
    std::vector<txn::HistoryOp> m_historyOps;  ///< scratch: a transaction as the log has it
    std::map<uint32_t, uint64_t> m_values;
    /// By (client host << 16 | client port).
    std::unordered_map<uint64_t, ClientState> m_clients;
    uint64_t m_sequence = 0;
    Counters m_counters;
};

} // namespace incsim::gotthard

#endif
