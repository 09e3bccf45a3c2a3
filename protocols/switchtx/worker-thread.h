#ifndef INCSIM_SWITCHTX_WORKER_THREAD_H
#define INCSIM_SWITCHTX_WORKER_THREAD_H

#include "protocols/switchtx/admission-control.h"
#include "protocols/switchtx/batch-queue.h"
#include "protocols/switchtx/server-log.h"
#include "protocols/switchtx/switchtx-cluster.h"
#include "sim/core/rng.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace incsim::switchtx
{

/// One worker thread of a server (§3.1's symmetric model): a client that runs its own
/// transactions (up to its MPL at once, one per client slot; static, or Listing 1's dynamic
/// MPL) and a participant in everyone's.
/// Its messages wait in its own receive queue and it serves them one at a time, each for its
/// function's CPU cost on the host CPU (so a thread is served by one core at a time; threads
/// share the host's cores). With +Reorder it drains its queue in batches, each sorted by
/// priority class (§3.4.1); otherwise in arrival order.
class WorkerThread
{
  public:
    WorkerThread(Cluster& cluster, uint32_t host, uint32_t thread, Rng rng);

    void Start();
    void Enqueue(WorkItem item);
    /// A control message from `host` said that its server has committed `commits` (mod 2^32)
    /// transactions so far (§3.4.2's piggybacked metric).
    void HearCommits(uint32_t host, uint32_t commits);
    /// The thread's MPL now.
    uint32_t Mpl() const { return m_mpl; }

    // ---- server failures (recovery.cc; docs/switchtx.md "Failures")
    /// At a crash's detection, for this thread's attempts in flight (this client may be dead
    /// too): each shard whose primary in the plan is known dead has its primary now hold the
    /// attempt's keys there until it is decided.
    void FenceTakeovers();
    /// A live client at the detection: attempts that involve `dead` are resolved now, reads
    /// waiting on it restarted; in-server attempts gathered by it likewise.
    void OnMemberDown(uint32_t dead, const std::vector<bool>& promoted);
    /// The recovery server's thread resolves the attempts of a crashed coordinator's thread
    /// from the coordination log of the live participants (§3.5's coordinator recovery).
    void RecoverClient(WorkerThread& crashed);

  private:
    // ---- queue and CPU (worker-thread.cc)
    void ServeNext();
    void Finish();
    Function FunctionOf(const WorkItem& item) const;
    void Handle(const WorkItem& item);
    void HandleControl(const WorkItem& item);
    void HandleData(const WorkItem& item);
    /// Dynamic admission: the end of an epoch (Listing 1), then the next one's.
    void EndEpoch();

    // ---- participant (participant.cc)
    /// What a participant keeps of one client slot's current attempt: the coordination log
    /// of §3.2.1 (the attempt's write keys and shards are in the plan) and its state here.
    struct Participation
    {
        uint32_t txnId = 0;
        PlanPtr plan;
        bool locked = false;             ///< W_P: holds its write locks
        bool primaryCommitted = false;   ///< W_P: installed
        bool backupHeld = false;         ///< W_B: installed the write data (commit backup)
        bool fenced = false;             ///< resolution: take no more phase commands
        bool over = false;               ///< aborted or decided
        bool validated = false;
        int64_t lockedPs = 0;
        /// The decisions this primary logged for the attempt, one per shard it leads (a
        /// promoted backup leads two): pending until settled.
        std::vector<std::pair<uint32_t, ServerLog::Handle>> rows;
        /// A promoted primary took over the attempt's shards whose primary (`takeoverFrom`)
        /// crashed: it holds their keys (fences) until the attempt is decided, and on a commit
        /// logs the decision the old primary could not make.
        bool takeover = false;
        bool takeoverFenced = false;
        bool takeoverDone = false;
        uint32_t takeoverFrom = 0;
        std::vector<uint64_t> copiedVersions;  ///< read-only: version copy
        /// A command that came before the plan (another path than the plan's RC message).
        uint32_t earlyTxnId = 0;
        MsgType earlyCommand = MsgType::Init;
    };
    Participation& Slot(uint32_t txnId);
    /// The participation of `message`'s attempt, begun if the slot was on an earlier one;
    /// null if the message is of an earlier attempt.
    Participation* Adopt(const DataMessage& message);
    /// The participation of attempt `txnId` once its plan is known; null otherwise.
    Participation* Current(uint32_t txnId);
    /// Releases the write locks `p` holds on this primary, and counts how long they were held.
    void UnlockWrites(Participation& p);
    /// Whether the shard of `op` came to this host by promotion after the plan was built.
    bool TakenOver(const PlanOp& op) const;
    /// The pending log decision of `p` for `shard`, appended if it has none.
    ServerLog::Handle RowFor(Participation& p, uint32_t shard);
    /// RowFor, and a new row's decision recorded as pending (HistoryRecorder::AddPending).
    ServerLog::Handle PendingRowFor(Participation& p, uint32_t shard, bool commitSettles);
    /// Commit: a promoted primary logs what it took over and lets its keys go.
    void FinishTakeover(Participation& p);
    void ReleaseTakeover(Participation& p);
    /// Lets the keys a takeover fenced go.
    void UnfenceTakeover(Participation& p);
    /// Takes over `plan`'s shards that `dead` led, at this promoted primary.
    void TakeOver(const PlanPtr& plan, uint32_t dead);
    /// Tells `client` whether this replica installed attempt `txnId` (its fence's answer).
    void SendFenceReply(uint32_t client, uint32_t txnId, bool installed);
    void OnPlan(uint32_t src, const DataMessage& message);
    void OnCommand(uint32_t txnId, MsgType command, bool retry);
    void DoPhase(Participation& p, Phase phase);
    void Lock(Participation& p);
    void Validate(Participation& p);
    void CommitBackup(Participation& p);
    void CommitPrimary(Participation& p);
    void VersionCopy(Participation& p);
    void ValidateRead(Participation& p);
    void Release(Participation& p);
    void OnFence(uint32_t src, const DataMessage& message);
    void OnDecide(const DataMessage& message);
    void ServeRead(uint32_t src, const DataMessage& message);
    /// Sends a phase reply (or fail) the way the mode coordinates.
    void ReplyPhase(const Participation& p, MsgType type);
    void Gather(const WorkItem& item);
    void LogInstall(const TxnPlan& plan, uint32_t shard, uint32_t replica, ShardStore& store,
                    ServerLog::Handle* pendingRow);

    // ---- client (txn-client.cc)
    enum class Stage : uint8_t
    {
        Idle,
        Executing,
        Committing,
        Fencing,  ///< resolution: waiting for the write replicas' fence replies
        Deciding  ///< resolution, committed: waiting for them to install it
    };
    struct ClientSlot
    {
        uint32_t index = 0;
        uint16_t counter = 0;
        Stage stage = Stage::Idle;
        uint32_t txnId = 0;
        bool retry = false;
        bool inTransaction = false;  ///< a logical transaction has begun and not committed
        txn::Transaction txn;
        uint64_t logical = 0;
        int64_t beganPs = 0;
        int64_t sentPs = 0;  ///< read-only: when the attempt was sent
        uint32_t readsPending = 0;
        std::unordered_map<uint64_t, DataMessage::Item> seen;
        std::shared_ptr<TxnPlan> plan;
        Phase phase = Phase::Done;  ///< FaSST, read-only: the phase being gathered
        uint32_t replies = 0;
        bool anyCommitted = false;  ///< resolution: a fence reply said committed
        /// Resolution: the live write replicas whose answer is still awaited.
        std::vector<uint32_t> awaiting;
        bool recovering = false;  ///< resolved because a participant's server failed
        std::vector<DataMessage::Item> readOnlyValues;
        ns3::EventId timer;
        /// In-switch: the lock phase starts no earlier (the init has reached the tree), and
        /// the execute phase's guess of the attempt's shape, whose tree the init installed.
        int64_t lockAtPs = 0;
        std::shared_ptr<TxnPlan> initPlan;
        /// Waits for admission: the thread runs its MPL's worth of attempts already. It may
        /// hold an aborted transaction (inTransaction), which goes before any new one.
        bool parked = false;
    };
    class SeenValues;
    void BeginAttempt(ClientSlot& slot);
    void SendReads(ClientSlot& slot, const std::vector<txn::Access>& accesses);
    void OnReadReply(ClientSlot& slot, const DataMessage& message);
    /// Executes on the values read and builds the attempt's plan (operations and shape).
    std::shared_ptr<TxnPlan> BuildPlan(const ClientSlot& slot);
    void StartCommit(ClientSlot& slot);
    /// What the attempt's replies carry (GasRoute::Prepare), unless the client drives it;
    /// in-switch, the tree the init installed if the participants are those it was for.
    void PrepareGather(ClientSlot& slot, TxnPlan& plan);
    /// In-switch: the attempt's tree (Prepare) and its init, to the client's own address.
    /// False if no tree fits the header: the client drives the attempt by RPC.
    bool SendInit(ClientSlot& slot, TxnPlan& plan);
    /// Sends the plan (the lock phase) once the init has had time to install.
    void StartLockPhase(ClientSlot& slot);
    void StartReadOnly(ClientSlot& slot, const std::vector<txn::Access>& accesses);
    void BuildShape(TxnPlan& plan) const;
    /// Whether the execute phase of `slot` reads a key of one of `shards` (by shard).
    bool ReadsFrom(const ClientSlot& slot, const std::vector<bool>& shards);
    /// In-server: whether the gather server is a live member (if not, the client drives its
    /// attempts by RPC, as FaSST).
    bool GathererAlive() const;
    void SendPlan(ClientSlot& slot);
    void OnPhaseReply(ClientSlot& slot, const DataMessage& message);
    void OnClientControl(ClientSlot& slot, const ControlHeader& header);
    void OnReadOnlyResult(ClientSlot& slot, const DataMessage& message);
    void OnTimeout(ClientSlot& slot);
    /// Fences every live write replica; commit iff one had installed it (§3.5, [D] 4).
    void StartResolution(ClientSlot& slot);
    /// Every awaited fence reply (or decision acknowledgement) is in: the next step.
    void Resolved(ClientSlot& slot);
    void OnFenceReply(ClientSlot& slot, const DataMessage& message);
    void Committed(ClientSlot& slot);
    /// Aborts the attempt (every participant told over RC) and retries it.
    void Aborted(ClientSlot& slot);
    /// After an attempt ended (committed, or aborted with `retry`): the slot's next attempt,
    /// unless that would exceed the MPL; then it parks, and a parked slot that holds an
    /// aborted transaction may take its turn after a commit.
    void NextAttempt(ClientSlot& slot, bool retry);
    /// Starts parked slots while fewer than the MPL run, aborted transactions first.
    void Admit();
    void Resume(ClientSlot& slot);
    /// The attempt's decision, to each of its participants over RC.
    void SendDecide(const PlanPtr& plan, bool commit, bool retry);
    void LogRequest(const ClientSlot& slot, int64_t timeNs);
    void LogAnswer(const ClientSlot& slot, bool commit);
    void ArmTimer(ClientSlot& slot);
    /// The client slot of `txnId` if it is this thread's and on that attempt.
    ClientSlot* MySlot(uint32_t txnId);
    DataMessage NewMessage(DataMessage::Kind kind, MsgType wireType, const ClientSlot& slot) const;
    uint32_t ClientId() const { return m_host * m_cluster.Config().threads + m_thread; }

    Cluster& m_cluster;
    uint32_t m_host;
    uint32_t m_thread;
    Rng m_rng;

    struct ClassOfItem
    {
        uint8_t operator()(const WorkItem& item) const { return item.priorityClass; }
    };
    BatchQueue<WorkItem, ClassOfItem> m_queue;
    WorkItem m_serving;  ///< the item a core is spending its cost on
    bool m_busy = false;

    std::vector<ClientSlot> m_clientSlots;
    std::unordered_map<uint32_t, Participation> m_participations;  ///< by client slot
    uint64_t m_attempts = 0;
    uint64_t m_logicals = 0;
    bool m_lostCommitOk = false;  ///< Fault::LoseFirstCommitOk

    // Admission control: at most m_mpl client slots run (have an attempt, or one queued).
    uint32_t m_mpl = 0;
    uint32_t m_running = 0;
    std::optional<AdmissionControl> m_admission;  ///< dynamic only
    uint64_t m_epoch = 0;
    bool m_lossInEpoch = false;  ///< one of this thread's attempts timed out in the epoch
    /// The other servers' commits as their control messages told them: the last count heard
    /// from each host and the sum of the increases (wrap-safe), with the global total at the
    /// last epoch's end.
    std::vector<uint32_t> m_peerCommits;
    uint64_t m_heardCommits = 0;
    uint64_t m_totalAtEpoch = 0;
    std::vector<txn::Access> m_accesses;       ///< scratch
    std::vector<txn::HistoryOp> m_historyOps;  ///< scratch
};

} // namespace incsim::switchtx

#endif
