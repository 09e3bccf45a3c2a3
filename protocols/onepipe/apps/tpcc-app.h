#ifndef INCSIM_ONEPIPE_APPS_TPCC_APP_H
#define INCSIM_ONEPIPE_APPS_TPCC_APP_H

#include "protocols/onepipe/apps/decision-log.h"
#include "protocols/onepipe/apps/app-window.h"
#include "protocols/onepipe/apps/message-table.h"
#include "protocols/onepipe/apps/txn-initiator.h"
#include "protocols/onepipe/onepipe-endpoint.h"
#include "protocols/txn/tpcc-workload.h"
#include "protocols/txn/txn-history.h"
#include "sim/core/rng.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace incsim
{
class CsvWriter;
}

namespace incsim::onepipe::apps
{

/// /protocol/params/system of onepipe_tpcc (docs/onepipe-apps.md, "TPC-C").
enum class TpccSystem
{
    OnePipe, ///< one reliable scattering to every replica of every shard touched
    Lock,    ///< two-phase locking (no wait) and two-phase commit, primary-backup
    Occ,     ///< OCC (read, lock and validate, commit), primary-backup
    NonTx    ///< 1Pipe's scattering over the unordered transport, executed on arrival
};

struct TpccMessage
{
    enum class Op : uint8_t
    {
        Execute,   ///< 1Pipe, NonTX: the logical transaction, for a replica to execute
        Answer,
        LockRead,  ///< Lock: lock these keys and read them
        Read,      ///< OCC: read values and versions
        ReadAnswer,
        Prepare,   ///< OCC: lock the writes, validate the reads
        PrepareAnswer,
        Commit,    ///< Lock, OCC: install, replicate to the backups, unlock, answer
        CommitAnswer,
        Replicate, ///< primary to backup: install these writes
        ReplicateAnswer,
        Abort,     ///< Lock, OCC: release this attempt's locks
        Join,      ///< 1Pipe: a replica rejoined; include it again, and tell its primary
        JoinAck,   ///< to the joiner's primary: this initiator includes the joiner again
        Resync     ///< primary to a rejoined replica: the decisions it was left out of
    };
    /// A decision a replica was left out of, as its primary executed it (Resync).
    struct LogEntry
    {
        uint64_t ts = 0;
        uint32_t initiator = 0;
        uint64_t attempt = 0;
        std::vector<txn::HistoryOp> ops;
    };
    Op op = Op::Execute;
    bool ok = true;
    bool reliable = false;
    bool logged = false;     ///< answers: a decision with its outcome open was logged
    uint32_t initiator = 0;
    uint32_t slot = 0;
    uint64_t attempt = 0;
    uint32_t shard = 0;
    uint32_t replica = 0;    ///< of the server that answers
    uint32_t pending = 0;    ///< Commit at a primary: backups yet to answer
    uint64_t decision = 0;
    uint64_t parent = 0;     ///< Replicate: the tag of the primary's Commit
    uint32_t joiner = 0;     ///< JoinAck: the process that rejoined
    uint32_t skipped = 0;    ///< Execute: the shard's replicas its scattering left out (bits)
    txn::Transaction txn;
    std::vector<txn::HistoryOp> ops;
    std::vector<LogEntry> log; ///< Resync
};

struct TpccConfig
{
    TpccSystem system = TpccSystem::OnePipe;
    uint32_t shards = 4;
    uint32_t replicas = 3;
    uint32_t window = 1;
    uint32_t opBytes = 0;      ///< bytes per operation in messages that carry operations
    int64_t backoffPs = 0;
    /// Lock, OCC, NonTX: every message on the unordered transport's reliable service.
    bool retransmits = false;
    AppWindow measurement; ///< when initiators run and results count
};

struct TpccShared
{
    TpccConfig config;
    std::unique_ptr<txn::TpccWorkload> workload;
    MessageTable<TpccMessage> messages;
    CsvWriter* clientLog = nullptr;
    CsvWriter* serverLog = nullptr;
    std::vector<class TpccApp*> apps;
    uint32_t processes = 0;
    /// The process holding replica `replica` of `shard`.
    uint32_t ServerOf(uint32_t shard, uint32_t replica) const
    {
        return (shard + config.shards * replica) % processes;
    }

    TxnResults results;
    /// The replica failure of the paper's Sec. 7.3.2 (1Pipe): what the process-failure and
    /// send-failure callbacks saw.
    struct Failures
    {
        std::vector<uint32_t> failed;      ///< processes reported failed, each once
        std::vector<int64_t> callbackPs;   ///< each live process's callback, per failure
        uint64_t recalledAttempts = 0;     ///< aborted: their scattering was recalled
        uint64_t failedPrimaries = 0;      ///< shards whose primary failed (not taken over)
        /// Transactions with an attempt recalled: first attempt to commit (the measured
        /// window or not: a failure is rare).
        std::vector<int64_t> affectedLatencyPs;
        /// R32: a rejoined replica's log resync, from its rejoin to the last decision it
        /// missed applied.
        struct Resync
        {
            uint32_t process;
            int64_t rejoinedPs;
            int64_t donePs;
            uint64_t decisions; ///< decisions it was left out of, shipped by its primary
            uint64_t bytes;
        };
        std::vector<Resync> resyncs;
    } failures;
};

/// One process of the TPC-C benchmark of the paper's Sec. 7.3.2: an initiator keeping
/// `window` New-Order and Payment transactions in flight and, on 12 of the processes, a
/// replica of one of 4 warehouse shards (3 replicas each), over the 1Pipe endpoint.
class TpccApp
{
  public:
    TpccApp(OnePipeEndpoint& endpoint, uint32_t id, TpccShared& shared, Rng rng);
    TpccApp(const TpccApp&) = delete;
    TpccApp& operator=(const TpccApp&) = delete;
    ~TpccApp();

    void Start();
    /// Replicas: their commit log; nullptr on a process without a replica.
    DecisionLog* Log() { return m_log.get(); }
    /// Transactions started and neither committed nor waiting to retry.
    uint32_t InFlight() const;
    uint32_t Id() const { return m_id; }

  private:
    enum class Phase : uint8_t
    {
        Idle,
        Execute,
        Read,
        Prepare,
        Commit
    };
    struct Attempt
    {
        Phase phase = Phase::Idle;
        txn::Transaction txn;
        uint64_t logical = 0;
        uint64_t attempt = 0;
        uint32_t retries = 0;
        int64_t startPs = 0;
        int64_t sentNs = 0;
        std::vector<uint32_t> shards;
        std::vector<uint32_t> answered;                ///< per shard: answers received
        std::vector<bool> primaryAnswered;             ///< per shard
        std::vector<std::vector<txn::HistoryOp>> ops;  ///< per shard: its operations
        std::vector<uint32_t> pendingShards;           ///< shards still to answer this round
        bool failed = false;
        bool recalled = false;                         ///< an attempt of it was recalled
        std::vector<uint32_t> locked;                  ///< shards whose locks it holds
        std::vector<std::pair<uint32_t, uint64_t>> logged; ///< (primary, decision) open
        std::vector<txn::HistoryOp> result;
        ns3::EventId timer;
    };
    /// The values the primaries answered, for the initiator's execution (a transaction's few
    /// dozen keys: a vector, its storage reused).
    class AnswerView : public txn::ValueView
    {
      public:
        uint64_t Value(uint64_t key) const override;
        std::vector<std::pair<uint64_t, uint64_t>> values;
    };
    /// A replica's store, for its execution.
    class StoreView : public txn::ValueView
    {
      public:
        explicit StoreView(const TpccApp& app) : m_app(app) {}
        uint64_t Value(uint64_t key) const override;

      private:
        const TpccApp& m_app;
    };
    /// `base` overlaid with the writes an execution has made so far: a transaction reads
    /// its own earlier writes (a New-Order may list an item twice).
    class OwnWritesView : public txn::ValueView
    {
      public:
        OwnWritesView(const txn::ValueView& base, const std::vector<txn::Access>& accesses)
            : m_base(base),
              m_accesses(accesses)
        {
        }
        uint64_t Value(uint64_t key) const override;

      private:
        const txn::ValueView& m_base;
        const std::vector<txn::Access>& m_accesses;
    };
    struct Entry
    {
        uint64_t value = 0;
        uint64_t version = 0;
        uint32_t lockOwner = 0; ///< initiator + 1
        uint64_t lockAttempt = 0;
    };

    void Receive(const Delivered& message);
    /// 1Pipe: a message of this initiator's attempt was recalled (a receiver failed before
    /// ACKing its scattering, which no live receiver delivers): abort the attempt and retry.
    void SendFailed(uint64_t tag, FailureReason reason);
    /// 1Pipe: the controller declared `process` failed; a replica there no longer receives
    /// this initiator's transactions.
    void ProcessFailed(uint32_t process);
    /// 1Pipe: this process recovered and may send again (paper 5.2). Its initiator starts
    /// over; its replica asks to be included again and resyncs from its primary (R32).
    void Rejoined();
    /// Whether this initiator's scatterings leave `process` out.
    bool LeftOut(uint32_t process) const;
    /// Primary: a replica of its shard rejoined (Join delivered), or an initiator now
    /// includes it (JoinAck); once every live initiator does, ships it what it missed.
    void ServeJoin(uint32_t src, const TpccMessage& message);
    void ResyncIfIncluded(size_t pending);
    /// Rejoined replica: the decisions it missed merged in timestamp order with the
    /// scatterings delivered to it since it rejoined.
    void ApplyResync(const TpccMessage& message);
    void Install(const txn::HistoryOp& op);
    void NextTransaction(uint32_t slot);
    void Begin(uint32_t slot);
    uint64_t NewMessage(TpccMessage::Op op, uint32_t slot, uint32_t shard);
    void SendTo(uint32_t dst, uint64_t tag, bool reliable);
    void Flush(bool reliable);
    uint32_t Bytes(const TpccMessage& message) const;
    /// Sends each shard's primary a message of `op` with the attempt's operations on the
    /// shard (Abort: only to the shards whose locks it holds).
    void RoundToPrimaries(uint32_t slot, TpccMessage::Op op);
    void Serve(uint32_t src, TpccMessage& message, uint64_t tag, uint64_t ts);
    void ServeCommit(TpccMessage& message, uint64_t tag);
    void Unlock(const TpccMessage& message);
    bool LockedByOther(const Entry& e, const TpccMessage& message) const;
    void Answered(TpccMessage& message, uint32_t src);
    void RoundDone(uint32_t slot);
    void Complete(uint32_t slot);
    void Abort(uint32_t slot, bool logged);
    void ResolveDecisions(Attempt& a, bool committed);
    void LogRequest(Attempt& a);
    size_t ShardIndex(const Attempt& a, uint32_t shard) const;

    OnePipeEndpoint& m_endpoint;
    uint32_t m_id;
    TpccShared& m_shared;
    Rng m_rng;
    uint64_t m_nextLogical = 0;
    uint64_t m_nextAttempt = 0;
    std::vector<Attempt> m_window;
    std::optional<uint32_t> m_shard; ///< the shard this process holds a replica of
    uint32_t m_replica = 0;
    std::unordered_map<uint64_t, Entry> m_store;
    std::unique_ptr<DecisionLog> m_log;
    AnswerView m_answers;
    std::vector<txn::Access> m_accesses; ///< scratch
    std::vector<txn::HistoryOp> m_ops;   ///< scratch
    std::vector<std::vector<txn::HistoryOp>> m_reads; ///< scratch: per shard, the reads
    std::vector<Outgoing> m_scattering;  ///< scratch
    std::vector<bool> m_failed;          ///< by process: declared failed, as this one knows
    /// Primary: decisions some replica of the shard was left out of, until shipped to it.
    struct Retained
    {
        TpccMessage::LogEntry entry;
        uint32_t missing; ///< replicas (bits) still to receive it
    };
    std::deque<Retained> m_retained;
    /// Primary: rejoined replicas waiting for every live initiator to include them.
    struct PendingResync
    {
        uint32_t process;
        uint32_t replica;
        std::vector<uint32_t> waiting; ///< initiators yet to confirm
    };
    std::vector<PendingResync> m_pendingResyncs;
    /// Rejoined replica until its resync: the scatterings delivered since (ts, src, tag).
    struct Held
    {
        uint64_t ts;
        uint32_t src;
        uint64_t tag;
    };
    std::optional<std::vector<Held>> m_held;
    int64_t m_rejoinedPs = 0;
    ns3::EventId m_startEvent;
};

} // namespace incsim::onepipe::apps

#endif
