#ifndef INCSIM_GOTTHARD_GOTTHARD_CLIENT_H
#define INCSIM_GOTTHARD_GOTTHARD_CLIENT_H

#include "protocols/gotthard/gotthard-wire.h"
#include "protocols/txn/txn-history.h"
#include "protocols/txn/txn-workload.h"
#include "sim/core/rng.h"
#include "sim/host/endpoint.h"
#include "sim/trace/csv-writer.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace incsim::gotthard
{

/// Commits of one kind of transaction.
struct KindStats
{
    uint64_t committed = 0;
    /// Commits told after /workload/stop, while clients drain: not in the throughput, whose
    /// window ends at the stop.
    uint64_t committedAfterStop = 0;
    std::vector<int64_t> latenciesPs;
};

/// What all clients of a run add to.
struct ClientStats
{
    uint64_t committedWrites = 0;
    uint64_t attempts = 0;
    uint64_t switchAborts = 0;
    uint64_t storeAborts = 0;
    uint64_t switchAnswers = 0;  ///< commits answered by a switch (compare-only, read cache)
    uint64_t timeouts = 0;
    /// Switch answers to attempts already retransmitted: not final, since a copy may reach
    /// the store; the client waits for the store's answer instead.
    uint64_t switchAnswersIgnored = 0;
    uint64_t abandoned = 0;  ///< logical transactions given up when the client crashed
    std::vector<KindStats> kinds;  ///< commits by the workload's kind, first send to commit
};

/// A client's copy of the values it has learned (keys it has not: 0, the initial value).
class ValueCache : public txn::ValueView
{
  public:
    uint64_t Value(uint64_t key) const override
    {
        const auto it = m_values.find(static_cast<uint32_t>(key));
        return it == m_values.end() ? 0 : it->second;
    }
    void Set(uint32_t key, uint64_t value) { m_values[key] = value; }

  private:
    std::unordered_map<uint32_t, uint64_t> m_values;
};

struct ClientConfig
{
    uint32_t storeHost = 0;
    int64_t timeoutPs = 0;
    int64_t thinkPs = 0;
    int64_t startPs = 0;
    int64_t stopPs = 0;  ///< no new transaction after this
};

/// A closed-loop Gotthard client: executes each transaction against its own cache of values
/// (compares carry the values it holds, writes the values it computes from them), submits it,
/// in fragments of at most kMaxOpsPerPacket operations, and on an abort re-executes at once
/// with the corrections it learned. A request unanswered for the timeout is sent again (all
/// its fragments), marked as a retransmission, which switches pass untouched.
///
/// At most once: each attempt has its own transaction id, and the client moves on only once
/// the attempt is settled. A switch's answer settles it only while the first copy is the only
/// one; after a retransmission a copy may reach the store unjudged, so only the store's
/// answer settles it. A crash loses the cache and the transaction in progress (its outcome
/// unknown); after recovery the client begins a new transaction, with attempt ids that keep
/// growing (the counter is kept as if on stable storage), so the store never confuses them.
///
/// Each attempt's request (on its first send) and the answer that settles it are logged,
/// operation by operation, to the shared history trace `txn_client` (docs/txn.md): compares
/// as reads of the value seen, reads as fetches, writes as writes.
class GotthardClient : public Endpoint
{
  public:
    static ns3::TypeId GetTypeId();

    /// `log` may be null.
    void Configure(uint32_t clientIndex, const ClientConfig& config,
                   const txn::Workload* workload, Rng rng, ClientStats* stats, CsvWriter* log);
    void Start();

  private:
    void DoReceive(const Datagram& datagram) override;
    void DoCrash() override;
    void DoRecover() override;
    void ScheduleBegin(int64_t delayPs);
    void BeginTransaction();
    void SendAttempt();
    void TimedOut();
    void SendPackets();
    void Learn(const Message& response);
    void Settle(const Message& response);
    void Log(txn::Event event, const Message& message);

    uint32_t m_clientIndex = 0;
    ClientConfig m_config;
    const txn::Workload* m_workload = nullptr;
    Rng m_rng{0};
    ClientStats* m_stats = nullptr;
    CsvWriter* m_log = nullptr;

    ValueCache m_cache;
    txn::Transaction m_txn;
    std::vector<txn::Access> m_accesses;      ///< scratch: one execution of m_txn
    std::vector<txn::HistoryOp> m_historyOps;  ///< scratch: a message as the history logs it
    bool m_inTransaction = false;  ///< a logical transaction has begun and not committed
    uint64_t m_txnIndex = 0;       ///< logical transactions begun
    uint64_t m_attempts = 0;       ///< attempts sent, over the client's whole life
    uint64_t m_txnId = 0;          ///< the attempt in flight
    bool m_waiting = false;
    bool m_retransmitted = false;  ///< the attempt in flight was sent more than once
    int64_t m_beganPs = 0;
    std::vector<std::vector<uint8_t>> m_packets;  ///< the attempt's request fragments
    Reassembly m_reply;
    ns3::EventId m_timer;
    ns3::EventId m_begin;
};

} // namespace incsim::gotthard

#endif
