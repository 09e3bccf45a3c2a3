#ifndef INCSIM_GOTTHARD_GOTTHARD_STORE_H
#define INCSIM_GOTTHARD_GOTTHARD_STORE_H

#include "protocols/gotthard/gotthard-wire.h"
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
/// fragments. Retransmitted requests get the response of their first execution. Each executed transaction is logged,
/// operation by operation, to the `gotthard_store` trace, the history the checker replays.
/// A digest of a store state (keys never written left out), exact as a double: 53 bits.
uint64_t StateDigest(const std::map<uint32_t, uint64_t>& values);

class GotthardStore : public Endpoint
{
  public:
    static ns3::TypeId GetTypeId();

    struct Counters
    {
        uint64_t commits = 0;
        uint64_t aborts = 0;
        uint64_t duplicates = 0;  ///< retransmissions answered from the first execution
        uint64_t malformed = 0;   ///< undecodable requests or inconsistent fragments (dropped)
    };

    /// `log` may be null (trace not requested).
    void Configure(CsvWriter* log);
    const Counters& GetCounters() const { return m_counters; }
    /// The store's contents (keys never written read as 0).
    const std::map<uint32_t, uint64_t>& Values() const { return m_values; }

  private:
    void DoReceive(const Datagram& datagram) override;
    void Accept(uint32_t client, uint16_t port, Message request);
    /// Algorithm 1; logs the transaction and encodes the response into `answer`.
    void Execute(uint32_t client, const Message& request,
                 std::vector<std::vector<uint8_t>>& answer);
    void Answer(uint32_t client, uint16_t port, const std::vector<uint8_t>& packet);
    uint64_t ValueOf(uint32_t key) const;

    CsvWriter* m_log = nullptr;
    std::map<uint32_t, uint64_t> m_values;
    /// (client host, client port, txn id) -> the response's fragments, encoded.
    std::unordered_map<uint64_t, std::vector<std::vector<uint8_t>>> m_answered;
    /// Requests some of whose fragments have arrived.
    std::unordered_map<uint64_t, Reassembly> m_partial;
    uint64_t m_sequence = 0;
    Counters m_counters;
};

} // namespace incsim::gotthard

#endif
