#ifndef INCSIM_SWITCHTX_ERIS_CLUSTER_H
#define INCSIM_SWITCHTX_ERIS_CLUSTER_H

// The Eris baseline on SwitchTx's hosts (docs/switchtx.md, "Baselines: Eris"): one shard per
// worker thread, replicated on the same thread of the next servers; clients that send each
// independent transaction once to the multi-sequencer (p4/eris.p4 on the root switch, or a
// single-thread software sequencer on a server); shard replicas that execute in stamp order
// and wait for gaps; a failure coordinator that settles a gap as found or NO-OP.

#include "protocols/switchtx/baselines/eris-wire.h"
#include "protocols/switchtx/server-log.h"
#include "protocols/switchtx/switchtx-store.h"
#include "protocols/txn/txn-workload.h"
#include "sim/host/endpoint.h"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace incsim
{
class CsvWriter;
class P4Pipeline;
class SwitchDevice;
class World;
} // namespace incsim

namespace incsim::switchtx::eris
{

class ErisThread;

/// What a thread or the sequencer spends CPU on (cpu_ns_by_function).
enum class ErisFunction : uint8_t
{
    Begin,     ///< a client starts a transaction (cpu_execute)
    Execute,   ///< a shard replica executes its part of a sequenced transaction
    Reply,     ///< a client takes a shard's reply (cpu_reply)
    Gap,       ///< a client's retransmission timer, a gap timer, a gap decision, a coordinator
               ///< query (cpu_abort)
    Sequence,  ///< the software sequencer stamps a transaction (eris-server)
    kCount
};
constexpr size_t kErisFunctions = static_cast<size_t>(ErisFunction::kCount);

struct ErisConfig
{
    bool softwareSequencer = false;  ///< eris-server: the sequencer is a thread on a server
    uint32_t threads = 0;
    uint32_t mpl = 0;
    uint32_t replication = 0;
    int64_t timeoutPs = 0;     ///< a client resends a transaction without every reply
    int64_t gapTimeoutPs = 0;  ///< a replica reports a stamp missing this long
    int64_t startPs = 0;
    int64_t stopPs = 0;
    uint32_t coordinatorHost = 0;  ///< the failure coordinator (and the software sequencer)
    std::array<int64_t, kErisFunctions> costPs{};
};

struct ErisStats
{
    uint64_t attempts = 0;  ///< transactions begun (Eris never aborts: one attempt each)
    uint64_t committed = 0;
    uint64_t committedAfterStop = 0;  ///< told after /workload/stop: not in the throughput
    uint64_t retransmits = 0;    ///< client resends after a timeout
    uint64_t sequenced = 0;      ///< by the software sequencer
    uint64_t gapTimeouts = 0;    ///< gap timers that fired (a replica waited for a stamp)
    uint64_t gapsFound = 0;      ///< gaps the coordinator filled with the transaction
    uint64_t noops = 0;          ///< stamps a replica skipped as NO-OP
    uint64_t droppedNoop = 0;    ///< sequenced copies dropped: their transaction is a NO-OP
    uint64_t duplicates = 0;     ///< stamps of a transaction a replica had executed already
    std::vector<int64_t> latenciesPs;
    std::array<int64_t, kErisFunctions> cpuPs{};
    std::array<uint64_t, kErisFunctions> jobs{};
};

/// The failure coordinator's view of one shard's stamps from the lowest one some replica of
/// the shard still needs: unknown, received by some replica of some destination (with the
/// transaction), or decided NO-OP. It stands for Eris's round to every replica of every shard
/// (docs/switchtx.md): deciding from it is deciding from what that round would learn.
class GapIndex
{
  public:
    void Init(uint32_t shards);
    /// A replica accepted `message`: its stamps are no longer candidates for NO-OP.
    void Received(const TxnMessage& message);
    /// Whether some stamp of `message` was decided NO-OP (the whole transaction is then one).
    bool IsNoop(const TxnMessage& message) const;
    /// Marks every stamp of `message` NO-OP.
    void MarkNoop(const TxnMessage& message);
    /// The decision on a missing stamp: the transaction (null once decided NO-OP).
    std::shared_ptr<const TxnMessage> Decide(uint32_t shard, uint32_t seq);
    /// Every replica of `shard` has passed the stamps below `base`.
    void Advance(uint32_t shard, uint32_t base);

  private:
    struct Entry
    {
        bool noop = false;
        std::shared_ptr<const TxnMessage> message;
    };
    struct Shard
    {
        uint32_t base = 1;
        std::deque<Entry> entries;  ///< from stamp `base`
    };
    Entry* At(uint32_t shard, uint32_t seq);
    const Entry* Find(uint32_t shard, uint32_t seq) const;
    std::vector<Shard> m_shards;
};

class ErisCluster
{
  public:
    ErisCluster(World& world, const ErisConfig& config, const txn::Workload* workload,
                CsvWriter* clientLog, CsvWriter* serverLog);
    ~ErisCluster();

    /// Installs eris.p4's control plane on a switch (the sequencer switch: configure, the
    /// all-shards group with one node per replica, the receivers; others: the port toward it).
    void ConfigureSwitch(P4Pipeline& pipeline, const SwitchDevice& device) const;
    void Start();
    void Finish();

    const ErisConfig& Config() const { return m_config; }
    const txn::Workload& Workload() const { return *m_workload; }
    World& GetWorld() const { return m_world; }
    ErisStats& Stats() { return m_stats; }
    const ErisStats& Stats() const { return m_stats; }
    uint32_t Hosts() const { return m_hosts; }
    uint32_t Shards() const { return m_hosts * m_config.threads; }
    CsvWriter* ClientLog() const { return m_clientLog; }
    ServerLog& Log(uint32_t host) { return *m_logs[host]; }
    GapIndex& Index() { return m_index; }
    ShardStore& Replica(uint32_t shard, uint32_t replica) { return m_stores[shard][replica]; }

    /// Shard s is thread s mod threads of server s / threads; its replica r is on the same
    /// thread of server (s / threads + r) mod servers. A key's shard: its partition's server,
    /// and a hash of the key over that server's threads.
    uint32_t ShardOf(uint64_t key) const;
    uint32_t HostOf(uint32_t shard, uint32_t replica) const
    {
        return (shard / m_config.threads + replica) % m_hosts;
    }
    uint32_t ThreadOf(uint32_t shard) const { return shard % m_config.threads; }
    /// A shard replica's UDP port (eris_receivers' to_shard), and a client thread's.
    static uint16_t ShardPort(uint32_t replica, uint32_t thread)
    {
        return static_cast<uint16_t>(kShardPortBase + replica * 64 + thread);
    }
    static uint16_t ClientPort(uint32_t thread)
    {
        return static_cast<uint16_t>(kClientPortBase + thread);
    }
    static constexpr uint16_t kShardPortBase = 0x4600;
    static constexpr uint16_t kClientPortBase = 0x4A00;
    static constexpr uint16_t kCoordinatorPort = 0x4B00;
    static constexpr uint16_t kSequencerPort = 0x4B01;
    /// The sequencer's session (one: no sequencer failover is modelled).
    static constexpr uint32_t kSession = 1;

    /// Sends a client's transaction toward the sequencer.
    void SendTxn(uint32_t host, uint32_t thread, const TxnMessage& message);
    /// Sends `bytes` from `host` to `dst`:`port` as plain UDP.
    void SendHost(uint32_t host, uint16_t srcPort, uint32_t dst, uint16_t port,
                  const uint8_t* bytes, uint32_t length);
    /// A replica's next expected stamp moved: the coordinator's index may forget below it.
    void ReplicaAdvanced(uint32_t shard);
    /// Charges `function`'s cost to `host`'s CPU (the caller serialises its own work).
    void Charge(uint32_t host, ErisFunction function, std::function<void()> done);

    // Received datagrams, by endpoint.
    void OnShardDatagram(uint32_t host, uint32_t thread, uint32_t replica,
                         const Datagram& datagram);
    void OnClientDatagram(uint32_t host, uint32_t thread, const Datagram& datagram);
    void OnCoordinatorDatagram(const Datagram& datagram);
    void OnSequencerDatagram(const Datagram& datagram);

  private:
    ErisThread& Thread(uint32_t host, uint32_t thread);
    void SequenceNext();
    uint32_t SequencerSwitch() const;

    World& m_world;
    ErisConfig m_config;
    const txn::Workload* m_workload;
    CsvWriter* m_clientLog;
    uint32_t m_hosts = 0;
    std::vector<std::unique_ptr<ErisThread>> m_threads;  ///< host * threads + thread
    std::vector<std::vector<ShardStore>> m_stores;       ///< [shard][replica]
    std::vector<std::unique_ptr<ServerLog>> m_logs;      ///< by host
    GapIndex m_index;
    ErisStats m_stats;
    uint32_t m_sequencerSwitch = 0;
    std::vector<uint32_t> m_towardSequencer;  ///< by node: the port one hop toward it

    // The software sequencer (eris-server): one thread, FIFO.
    std::deque<TxnMessage> m_sequencerQueue;
    bool m_sequencerBusy = false;
    std::array<uint32_t, kMaxShards> m_sequencerCounters{};
    std::vector<uint8_t> m_scratch;
};

/// A UDP port of the Eris hosts: hands datagrams to the cluster by role.
class ErisEndpoint : public Endpoint
{
  public:
    enum class Role : uint8_t
    {
        Shard,
        Client,
        Coordinator,
        Sequencer
    };
    static ns3::TypeId GetTypeId();
    void Configure(ErisCluster* cluster, Role role, uint32_t thread, uint32_t replica)
    {
        m_cluster = cluster;
        m_role = role;
        m_thread = thread;
        m_replica = replica;
    }

  private:
    void DoReceive(const Datagram& datagram) override;
    ErisCluster* m_cluster = nullptr;
    Role m_role = Role::Shard;
    uint32_t m_thread = 0;
    uint32_t m_replica = 0;
};

} // namespace incsim::switchtx::eris

#endif
