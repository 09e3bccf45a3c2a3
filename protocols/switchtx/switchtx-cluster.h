#ifndef INCSIM_SWITCHTX_SWITCHTX_CLUSTER_H
#define INCSIM_SWITCHTX_SWITCHTX_CLUSTER_H

#include "protocols/switchtx/gas-engine.h"
#include "protocols/switchtx/gas-route.h"
#include "protocols/switchtx/gas-workload.h"
#include "protocols/switchtx/server-log.h"
#include "protocols/switchtx/switchtx-store.h"
#include "protocols/switchtx/switchtx-txn.h"
#include "protocols/txn/txn-workload.h"
#include "sim/host/endpoint.h"
#include "sim/host/reliable-channel.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace incsim
{
class CsvWriter;
class World;
} // namespace incsim

namespace incsim::switchtx
{

class WorkerThread;

/// Who coordinates the phases after the execute phase.
enum class Mode
{
    Fasst,    ///< the client thread, by RPC over RC (FaSST, Fig. 4a)
    InServer,   ///< a gather server's thread, Table 1 in software (Fig. 11's in-server GaS)
    InSwitch,   ///< the switches of a coordination tree (switchtx.p4; +GaS, +Tree-GaS)
    Eris,       ///< the Eris baseline, sequenced by eris.p4 on the root switch (eris::ErisCluster)
    ErisServer  ///< the Eris baseline, sequenced by a single-thread server (§5.4)
};

/// What a thread spends CPU on, for the per-message costs and Fig. 12's CPU by function.
enum class Function : uint8_t
{
    Execute,        ///< start an attempt, run the transaction logic
    Read,           ///< serve an execute-phase read
    Lock,           ///< a lock-phase message: lock (W_P), keep the write data (W_B, R_P)
    Validate,       ///< validate reads (and version copy, validate & read)
    CommitBackup,   ///< install the write data at a backup
    CommitPrimary,  ///< install in place and unlock at a primary
    Abort,          ///< fail, abort, fence, decide, timeout
    Gather,         ///< count a phase reply (FaSST's client, the in-server gatherer)
    Reply,          ///< the client takes an answer (read reply, commit, read-only data)
    kCount
};
const char* FunctionName(Function function);
constexpr size_t kFunctions = static_cast<size_t>(Function::kCount);

/// Faults injected for tests (/protocol/params/fault).
enum class Fault
{
    None,
    BackupSkipsInstall,   ///< negative control: backups acknowledge without installing
    ValidatorSkipsCheck,  ///< negative control: validators accept any read
    LoseFirstCommitOk,    ///< each thread's first commit_ok is lost
    /// Negative control: recovery after a server failure ignores the coordination log and
    /// aborts every attempt it resolves, installed or not
    RecoveryAbortsAll
};

struct ClusterConfig
{
    Mode mode = Mode::Fasst;
    uint32_t threads = 0;
    uint32_t mpl = 0;  ///< static admission: each thread's MPL
    /// Dynamic admission (Listing 1): each thread's MPL changes every epoch, up to maxMpl.
    bool dynamicMpl = false;
    uint32_t maxMpl = 0;
    int64_t epochPs = 0;
    uint32_t replication = 0;
    bool reorder = false;
    int64_t timeoutPs = 0;
    int64_t rcRetransmitPs = 0;
    /// A server's crash is known to the others this long after it happened (the lease).
    int64_t failureDetectionPs = 0;
    int64_t startPs = 0;
    int64_t stopPs = 0;
    std::array<int64_t, kFunctions> costPs{};
    Fault fault = Fault::None;
    bool gasBench = false;  ///< Fig. 11's GaS microbenchmark (GasWorkload): measure GasOps
};

/// What the run adds up (metrics.json).
struct ClusterStats
{
    uint64_t attempts = 0;
    uint64_t committed = 0;
    /// Commits told after /workload/stop, while clients drain: not in the throughput, whose
    /// window ends at the stop.
    uint64_t committedAfterStop = 0;
    uint64_t lockFails = 0;      ///< attempts aborted by a failed lock (or RMW version)
    uint64_t validateFails = 0;  ///< by a failed validation
    uint64_t timeouts = 0;
    uint64_t resolvedCommit = 0;  ///< timeouts whose resolution found the attempt committed
    uint64_t resolvedAbort = 0;
    uint64_t lockHolds = 0;
    int64_t lockHeldPs = 0;  ///< total time write locks were held, per primary and attempt
    std::vector<int64_t> lockTimesPs;  ///< each of those holds, for percentiles (Fig. 1a)
    std::vector<int64_t> latenciesPs;  ///< per committed logical transaction, first begin to commit
    std::vector<uint64_t> committedByKind;
    std::array<int64_t, kFunctions> cpuPs{};
    std::array<uint64_t, kFunctions> jobs{};
    std::array<uint64_t, 16> packetsByType{};  ///< sent, by wire type (Rc: RC acknowledgements)
    uint64_t rcRetransmits = 0;
    uint64_t staleDropped = 0;  ///< control messages for a transaction a participant left
    /// History decisions of live servers whose fate was unknown at the end
    uint64_t pendingAtEnd = 0;
    /// In-switch: attempts whose tree did not fit the control header, driven by RPC instead
    uint64_t ungathered = 0;
    GasOps gas;
    // Dynamic admission: Listing 1's branches over every thread and epoch, and the MPL in
    // force summed over them (its mean is mplSum / mplEpochs).
    uint64_t mplEpochs = 0;
    uint64_t mplSum = 0;
    uint64_t mplResets = 0;
    uint64_t mplDecreases = 0;
    // Server failures (docs/switchtx.md "Failures"): crashes, when the last was detected,
    // what recovery did, and when the last attempt that involved a crashed server was decided.
    uint64_t crashes = 0;
    int64_t lastCrashPs = -1;
    int64_t lastDetectionPs = -1;
    int64_t lastRecoveryPs = -1;       ///< the last decision of an attempt a crash involved
    int64_t firstCommitAfterDetectionPs = -1;
    uint64_t promotedShards = 0;
    uint64_t fencedKeys = 0;           ///< keys a promoted primary held for undecided attempts
    uint64_t recoveredCommit = 0;      ///< the crashed coordinators' attempts, decided by recovery
    uint64_t recoveredAbort = 0;
    uint64_t resolvedAtMembership = 0; ///< live clients' attempts resolved at the detection
};

/// A reliable-channel message between worker threads (the data plane, RDMA RC).
struct DataMessage
{
    enum class Kind : uint8_t
    {
        ReadRequest,   ///< execute phase: keys to read
        ReadReply,     ///< their values and versions
        Plan,          ///< lock phase: the attempt (lock request and write data, validate info)
        Command,       ///< FaSST: the client's request for the next phase (command = the type
                       ///< that completed the last one)
        PhaseReply,    ///< FaSST: a participant's reply (command: its type, or fail)
        Fence,         ///< resolution after a timeout: stop, and say what you hold
        FenceReply,    ///< flag: committed here (primary installed, or backup holds it)
        Decide,        ///< the attempt's fate (flag: commit), to every participant
        ReadOnlyResult ///< validate & read: flag ok, with the values
    };
    struct Item
    {
        uint64_t key = 0;
        uint64_t value = 0;
        uint64_t version = 0;
    };

    /// Payload bytes of every message (what it is, its attempt), and of each item in it
    /// (key, value, version).
    static constexpr uint32_t kHeaderBytes = 16;
    static constexpr uint32_t kItemBytes = 8 + 16 + 8;

    Kind kind = Kind::ReadRequest;
    MsgType wireType = MsgType::Read;
    uint32_t txnId = 0;
    bool retry = false;
    MsgType command = MsgType::Init;
    bool flag = false;
    uint32_t srcHost = 0;
    PlanPtr plan;
    std::vector<Item> items;
    uint32_t bytes = 0;  ///< payload bytes on the wire
};

/// One worker thread's receive-queue entry.
struct WorkItem
{
    enum class Kind : uint8_t
    {
        Control,
        Data,
        Begin,   ///< a client slot starts its next attempt
        Timeout  ///< a client slot's attempt timed out
    };
    Kind kind = Kind::Control;
    uint8_t priorityClass = 0;
    uint32_t srcHost = 0;
    ControlHeader control;
    DataMessage data;
    uint32_t slot = 0;
    uint32_t txnId = 0;

    /// A control message from `src`, served in its type's class.
    static WorkItem Control(uint32_t src, const ControlHeader& header);
    /// A data message from `src`, served in its type's class.
    static WorkItem Data(uint32_t src, const DataMessage& message);
};

/// Every server (one per host) of a SwitchTx run, their threads and stores, and the
/// transport between them.
class Cluster
{
  public:
    Cluster(World& world, const ClusterConfig& config, const txn::Workload* workload,
            GasRoute* route, CsvWriter* clientLog, CsvWriter* serverLog, CsvWriter* mplLog);
    ~Cluster();

    void Start();
    /// Server `host` crashed (its endpoints' crash hook; idempotent): its connections stop, and
    /// the others learn it failureDetectionPs later (OnDetected).
    void OnCrash(uint32_t host);
    /// In-switch: recycles client slot `slot` in every switch, so that its later messages are
    /// dropped as stale.
    void SetSlotRecycler(std::function<void(uint32_t slot)> recycler) { m_recycleSlot = std::move(recycler); }
    /// End of the run: pending history decisions are dropped and the rest written.
    void Finish();

    // Transport: control messages (UDP, unreliable) and data messages (reliable channel),
    // from thread `thread` on `src` to thread `thread` on `dst`. In-switch, a control message
    // to the sender's own host crosses the switches too: they count it.
    void SendControl(uint32_t src, uint32_t dst, uint32_t thread, const ControlHeader& header);
    void SendData(uint32_t src, uint32_t dst, uint32_t thread, const DataMessage& message);
    void Receive(uint32_t host, uint32_t thread, const Datagram& datagram);

    const ClusterConfig& Config() const { return m_config; }
    const Placement& GetPlacement() const { return m_placement; }
    const SlotLayout& Slots() const { return m_slots; }
    const txn::Workload& Workload() const { return *m_workload; }
    GasRoute* Route() const { return m_route; }
    GasEngine& Engine(uint32_t host) { return m_engines[host]; }
    ShardStore& Replica(uint32_t shard, uint32_t replica) { return m_stores[shard][replica]; }
    /// The replica of `shard` that `host` holds (the caller knows it holds one).
    ShardStore& StoreAt(uint32_t shard, uint32_t host)
    {
        return m_stores[shard][m_placement.ReplicaOn(shard, host)];
    }
    /// Whether the membership counts `host` as a live server (a crash counts once detected).
    bool Alive(uint32_t host) const { return m_placement.alive[host]; }
    bool Crashed(uint32_t host) const { return m_crashed[host]; }
    ServerLog& Log(uint32_t host) { return *m_logs[host]; }
    HistoryRecorder& Recorder() { return m_recorder; }
    CsvWriter* ClientLog() const { return m_clientLog; }
    /// switchtx_gas (gas-delivery-trace.h), or nullptr when the run does not write it.
    CsvWriter* GasLog() const { return m_gasLog; }
    void SetGasLog(CsvWriter* log) { m_gasLog = log; }
    CsvWriter* MplLog() const { return m_mplLog; }
    /// Commits told to `host`'s clients so far: the server's local metric that its control
    /// messages carry for dynamic admission (§3.4.2).
    uint64_t ServerCommits(uint32_t host) const { return m_serverCommits[host]; }
    void CountServerCommit(uint32_t host) { ++m_serverCommits[host]; }
    ClusterStats& Stats() { return m_stats; }
    const ClusterStats& Stats() const { return m_stats; }
    World& GetWorld() const { return m_world; }
    uint32_t Hosts() const { return m_placement.hosts; }
    WorkerThread& Thread(uint32_t host, uint32_t thread);
    /// The thread-side UDP port of thread `thread`.
    static uint16_t PortOf(uint32_t thread) { return static_cast<uint16_t>(kThreadPortBase + thread); }
    static constexpr uint16_t kThreadPortBase = 0x6000;
    static constexpr uint32_t kMaxThreads = 0x1000;

  private:
    using Channel = ReliableChannel<DataMessage>;
    Channel& ChannelOf(uint32_t src, uint32_t dst, uint32_t thread);
    /// Sends one packet; `counted` is the type packetsByType counts it under.
    void Transmit(uint32_t src, uint32_t dst, uint32_t thread, const ControlHeader& header,
                  HostHeader host, uint32_t payloadBytes, MsgType counted);
    void Deliver(uint32_t host, uint32_t thread, WorkItem item);
    /// The membership learns that `host` crashed: its shards' first live backups take over,
    /// connections to it close, its client slots are recycled in the gatherers, live clients
    /// resolve their attempts that involve it, and the next live server resolves its own.
    void OnDetected(uint32_t host);

    World& m_world;
    ClusterConfig m_config;
    const txn::Workload* m_workload;
    GasRoute* m_route;
    CsvWriter* m_clientLog;
    CsvWriter* m_gasLog = nullptr;
    CsvWriter* m_mplLog;
    std::vector<uint64_t> m_serverCommits;  ///< by host
    Placement m_placement;
    SlotLayout m_slots;
    std::vector<std::unique_ptr<WorkerThread>> m_threads;  ///< host * threads + thread
    std::vector<std::vector<ShardStore>> m_stores;         ///< [shard][replica]
    std::vector<GasEngine> m_engines;                      ///< by host (in-server only)
    std::vector<std::unique_ptr<ServerLog>> m_logs;        ///< by host
    HistoryRecorder m_recorder;
    std::vector<std::unique_ptr<Channel>> m_channels;  ///< (src * hosts + dst) * threads + thread
    std::vector<bool> m_crashed;  ///< by host: what happened (Placement::alive: what is known)
    std::function<void(uint32_t slot)> m_recycleSlot;
    ClusterStats m_stats;
};

/// A worker thread's UDP port: hands datagrams to the cluster.
class ThreadEndpoint : public Endpoint
{
  public:
    static ns3::TypeId GetTypeId();
    void Configure(Cluster* cluster, uint32_t thread)
    {
        m_cluster = cluster;
        m_thread = thread;
    }

  private:
    void DoReceive(const Datagram& datagram) override;
    void DoCrash() override;
    Cluster* m_cluster = nullptr;
    uint32_t m_thread = 0;
};

} // namespace incsim::switchtx

#endif
