#ifndef INCSIM_SWITCHTX_ERIS_THREAD_H
#define INCSIM_SWITCHTX_ERIS_THREAD_H

#include "protocols/switchtx/baselines/eris-cluster.h"
#include "sim/core/rng.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace incsim::switchtx::eris
{

/// One worker thread of an Eris server: a client running up to `mpl` independent transactions
/// at once, and the replicas of the shards it holds (replica r of the shard of the same thread
/// r servers back; replica 0, its own shard's, is the designated leader). Its work waits in one
/// queue served in arrival order, each item for its function's CPU cost on the host CPU.
class ErisThread
{
  public:
    ErisThread(ErisCluster& cluster, uint32_t host, uint32_t thread, Rng rng);

    void Start();
    void OnSequenced(uint32_t replica, const TxnMessage& message);
    void OnReply(const ReplyMessage& reply);
    void OnGapDecision(uint32_t replica, const GapMessage& decision, const TxnMessage* found);
    /// The next stamp replica `replica` of this thread will execute.
    uint32_t NextStamp(uint32_t replica) const { return m_replicas[replica].next; }

  private:
    struct WorkItem
    {
        enum class Kind : uint8_t
        {
            Begin,
            Timeout,
            Sequenced,
            Reply,
            GapTimeout,
            GapDecision
        };
        Kind kind = Kind::Begin;
        uint32_t index = 0;  ///< client slot, or replica
        uint32_t txnId = 0;  ///< Timeout: the transaction; GapTimeout: the stamp
        TxnMessage txn;      ///< Sequenced, GapDecision (found)
        ReplyMessage reply;
        GapMessage gap;
    };
    void Enqueue(WorkItem item);
    void ServeNext();
    void Handle(WorkItem& item);

    // ---- client (eris-thread.cc)
    struct ClientSlot
    {
        uint32_t index = 0;
        bool busy = false;
        uint32_t counter = 0;
        uint32_t txnId = 0;
        uint64_t logical = 0;
        uint32_t kind = 0;  ///< the workload's kind of the transaction
        int64_t beganPs = 0;
        TxnMessage txn;
        std::array<uint16_t, kMaxShards> replied{};  ///< by shard: replicas that replied
        std::vector<OpResult> results;               ///< the leaders' replies
        ns3::EventId timer;
    };
    void Begin(ClientSlot& slot);
    void Send(ClientSlot& slot);
    void OnTimeout(ClientSlot& slot);
    void TakeReply(const ReplyMessage& reply);
    bool Complete(const ClientSlot& slot) const;
    void Committed(ClientSlot& slot);
    uint32_t ClientId() const { return m_host * m_cluster.Config().threads + m_thread; }

    // ---- shard replicas (eris-replica.cc)
    struct Executed
    {
        uint32_t counter = 0;  ///< the client slot's last transaction executed here
        std::vector<OpResult> results;
    };
    struct ReplicaState
    {
        uint32_t shard = 0;
        uint32_t replica = 0;
        uint32_t next = 1;  ///< the next stamp to execute
        std::map<uint32_t, TxnMessage> early;  ///< stamps after `next` that arrived
        bool gapArmed = false;
        ns3::EventId gapTimer;
        std::vector<Executed> executed;  ///< by client * mpl + slot
    };
    void Accept(ReplicaState& r, const TxnMessage& message);
    void Drain(ReplicaState& r);
    void Execute(ReplicaState& r, const TxnMessage& message);
    void Skip(ReplicaState& r);
    void Reply(const ReplicaState& r, const TxnMessage& message, const Executed& done);
    void ArmGapTimer(ReplicaState& r);
    void OnGapTimeout(ReplicaState& r, uint32_t seq);
    void Decided(ReplicaState& r, const GapMessage& decision, const TxnMessage* found);

    ErisCluster& m_cluster;
    uint32_t m_host;
    uint32_t m_thread;
    Rng m_rng;

    std::deque<WorkItem> m_queue;
    bool m_busy = false;

    std::vector<ClientSlot> m_slots;
    std::vector<ReplicaState> m_replicas;  ///< by replica index
    uint64_t m_logicals = 0;
    txn::Transaction m_txn;                       ///< scratch
    std::vector<txn::Access> m_accesses;          ///< scratch
    std::vector<txn::HistoryOp> m_historyOps;     ///< scratch
    std::vector<uint8_t> m_bytes;                 ///< scratch
};

} // namespace incsim::switchtx::eris

#endif
