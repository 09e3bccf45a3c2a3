#ifndef INCSIM_ONEPIPE_APPS_HASHTABLE_APP_H
#define INCSIM_ONEPIPE_APPS_HASHTABLE_APP_H

#include "protocols/onepipe/apps/app-window.h"
#include "protocols/onepipe/apps/message-table.h"
#include "protocols/onepipe/onepipe-endpoint.h"
#include "sim/core/rng.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace incsim::onepipe::apps
{

/// /protocol/params/system of onepipe_hashtable (docs/onepipe-apps.md, "Remote hash table").
enum class HashTableSystem
{
    OnePipe,  ///< an insert is one ordered scattering (entry write + bucket CAS), no fence
    Baseline  ///< unordered one-sided operations, leader-follower replication
};

/// One-sided operation or answer; the endpoint carries its index in the message table as the
/// message's tag.
struct HtMessage
{
    enum class Op : uint8_t
    {
        ReadHead,     ///< read a bucket's head pointer
        ReadEntry,    ///< read an entry (key, next, value)
        WriteEntry,   ///< write an entry
        Cas,          ///< compare-and-swap a bucket's head pointer
        Answer,       ///< to the client: the operation's result
        Replicate,    ///< baseline: the leader's CPU ships an applied write to a follower
        ReplicateAck
    };
    Op op = Op::ReadHead;
    Op request = Op::ReadHead; ///< answers: what was asked
    bool ok = true;            ///< Cas: swapped; ReadEntry: the entry was written
    uint32_t client = 0;
    uint32_t slot = 0;
    uint64_t attempt = 0;
    uint64_t address = 0;   ///< bucket (ReadHead, Cas) or entry pointer (ReadEntry, WriteEntry)
    uint64_t expected = 0;  ///< Cas
    uint64_t value = 0;     ///< Cas: the new head; answers of ReadHead/Cas: the head before
    uint64_t key = 0;       ///< entries
    uint64_t next = 0;
    uint64_t logIndex = 0;  ///< Replicate, ReplicateAck
    uint64_t origin = 0;    ///< Replicate: the client request's tag, answered on the last ACK
};

using HtMessages = MessageTable<HtMessage>;

struct HashTableConfig
{
    HashTableSystem system = HashTableSystem::OnePipe;
    bool reliable = false;     ///< 1Pipe: every message on reliable 1Pipe
    bool fence = true;         ///< baseline: wait for the entry write before the CAS
    bool readAllReplicas = true; ///< lookups go to any replica (else the leader only)
    uint32_t clients = 16;
    uint32_t shards = 16;
    uint32_t replicas = 1;
    uint64_t bucketsPerShard = 1;
    uint64_t preload = 0;      ///< keys in the table before the run, on every replica
    uint32_t window = 1;
    double insertShare = 0;
    uint32_t valueBytes = 0;
    int64_t nicOpPs = 0;       ///< a server NIC's time per one-sided operation
    int64_t replicatePs = 0;   ///< baseline: the leader CPU's time per replicated write
    AppWindow measurement; ///< when initiators run and results count
    /// Clients and servers alternate over the process ids (else clients come first): puts
    /// some clients next to some servers, so paths differ in length (the negative control).
    bool interleaved = false;
};

/// What the processes share: the configuration, the message table, the checker's registry
/// of completed inserts, and the results.
struct HashTableShared
{
    HashTableConfig config;
    HtMessages messages;
    std::vector<class HashTableApp*> apps;
    /// Keys whose insert completed, and when (ps); the lookup check's reference.
    std::unordered_map<uint64_t, int64_t> completed;
    /// The most recently completed inserts: what lookups look for half of the time.
    std::vector<uint64_t> recent;
    size_t recentNext = 0;

    struct Results
    {
        uint64_t inserts = 0;
        uint64_t lookups = 0;
        uint64_t found = 0;
        uint64_t casRetries = 0;
        std::vector<int64_t> insertLatencyPs;
        std::vector<int64_t> lookupLatencyPs;
        uint64_t checkedLookups = 0;  ///< lookups of a key whose insert completed before
        uint64_t staleLookups = 0;    ///< ... that did not find it
        uint64_t tornReads = 0;       ///< followed a pointer to an entry not written yet
        uint64_t replicaDisagreements = 0; ///< answers of one scattering's replicas differ
        uint64_t sendFailures = 0;
    } results;

    /// Process ids by role (the placement): clients, then servers by shard * replicas + replica.
    std::vector<uint32_t> clientProcess;
    std::vector<uint32_t> serverProcess;

    uint32_t Server(uint32_t shard, uint32_t replica) const
    {
        return serverProcess[shard * config.replicas + replica];
    }
};

/// One process of the remote hash table of the paper's Sec. 7.3.3 (Fig. 16): a client with
/// `window` operations in flight, or a server holding one replica of a shard (its buckets'
/// head pointers and the entries allocated on it). Servers serve one-sided operations on
/// their NIC model, not their CPU; the baseline's leaders use the CPU to replicate.
class HashTableApp
{
  public:
    /// A client (`client` its index) or the server of slot `server` (shard * replicas + replica).
    HashTableApp(OnePipeEndpoint& endpoint, uint32_t id, bool client, uint32_t index,
                 HashTableShared& shared, Rng rng);
    /// Operations a client still had in flight when the run ended (liveness).
    uint32_t InFlight() const;
    HashTableApp(const HashTableApp&) = delete;
    HashTableApp& operator=(const HashTableApp&) = delete;
    ~HashTableApp();

    void Start();

    struct Entry
    {
        uint64_t key = 0;
        uint64_t next = 0;
        bool operator==(const Entry& o) const { return key == o.key && next == o.next; }
    };
    /// Server state (the checks compare replicas).
    const std::vector<uint64_t>& Heads() const { return m_heads; }
    const std::unordered_map<uint64_t, Entry>& Entries() const { return m_entries; }
    /// The table before the run (no messages): a bucket's head, an entry.
    void PreloadHead(uint64_t bucket, uint64_t pointer) { m_heads[bucket / m_shared.config.shards] = pointer; }
    void PreloadEntry(uint64_t pointer, Entry entry) { m_entries[pointer] = entry; }
    uint32_t Shard() const { return m_shard; }
    uint32_t ReplicaIndex() const { return m_replica; }

  private:
    struct Op
    {
        bool active = false;
        bool insert = false;
        uint64_t key = 0;
        uint64_t bucket = 0;
        uint64_t pointer = 0;   ///< insert: the new entry; lookup: the entry being read
        uint64_t expected = 0;  ///< insert: the head the CAS expects
        uint32_t pending = 0;
        bool casOk = false;
        bool casSeen = false;
        uint64_t casOld = 0;
        uint32_t replica = 0;   ///< lookup: the replica it reads
        int64_t startPs = 0;
        uint64_t attempt = 0;
        bool writing = false;   ///< baseline with the fence: the entry write is outstanding
    };

    void Receive(const Delivered& message);
    void Next(uint32_t slot);
    void BeginInsert(uint32_t slot);
    /// Adds a request to the scattering being built; SendScattering sends it.
    HtMessage& Request(HtMessage::Op op, uint32_t slot, uint32_t server, uint64_t address);
    void SendScattering();
    void ClientAnswer(const HtMessage& answer);
    void InsertAnswered(uint32_t slot, const HtMessage& answer);
    void LookupAnswered(uint32_t slot, const HtMessage& answer);
    void FinishInsert(uint32_t slot);
    void FinishLookup(uint32_t slot, bool found);

    void Serve(const Delivered& delivered);
    /// Applies a write (entry or head) to this replica's state.
    void ApplyWrite(const HtMessage& m);
    /// Occupies the NIC for one operation from now (or when it is free); returns when done.
    int64_t NicOperation();
    void SendAt(int64_t atPs, uint32_t dst, uint64_t tag);
    void Send(uint32_t dst, uint64_t tag);
    void Replicate(uint64_t tag, uint64_t desired, int64_t nicDonePs);
    void ApplyReplicated(uint64_t tag);

    uint32_t Bytes(const HtMessage& m) const;

    OnePipeEndpoint& m_endpoint;
    uint32_t m_id;
    uint32_t m_index; ///< the client's index, or the server's slot
    HashTableShared& m_shared;
    Rng m_rng;
    bool m_client;

    // client
    std::vector<Op> m_window;
    std::unordered_map<uint64_t, uint64_t> m_headCache;
    uint64_t m_nextKey = 0;
    uint64_t m_nextEntry = 0;
    uint64_t m_nextAttempt = 0;
    std::vector<Outgoing> m_scattering;

    // server
    uint32_t m_shard = 0;
    uint32_t m_replica = 0;
    std::vector<uint64_t> m_heads;
    std::unordered_map<uint64_t, Entry> m_entries;
    int64_t m_nicFreePs = 0;
    int64_t m_cpuFreePs = 0;
    uint64_t m_nextLogIndex = 1;     ///< leader: the next replicated write's index
    uint64_t m_appliedLogIndex = 0;  ///< follower: replicated writes applied in index order
    std::map<uint64_t, uint64_t> m_outOfOrder; ///< follower: index -> tag, arrived early
    std::unordered_map<uint64_t, uint32_t> m_awaitingAcks; ///< leader: request tag -> ACKs due

    ns3::EventId m_startEvent;
};

/// The bucket of a key and the shard holding its entry (independent hashes: the WAW hazard
/// needs the entry and the bucket on different servers).
uint64_t HtBucketOf(uint64_t key, uint64_t buckets);
uint32_t HtEntryShardOf(uint64_t key, uint32_t shards);
/// An entry pointer: its shard, the allocating client, a counter (never 0).
uint64_t HtPointer(uint32_t shard, uint32_t owner, uint64_t counter);
uint32_t HtShardOfPointer(uint64_t pointer);

} // namespace incsim::onepipe::apps

#endif
