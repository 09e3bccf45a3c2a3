#ifndef INCSIM_ONEPIPE_APPS_REPLICATION_APP_H
#define INCSIM_ONEPIPE_APPS_REPLICATION_APP_H

#include "protocols/onepipe/apps/app-window.h"
#include "protocols/onepipe/apps/message-table.h"
#include "protocols/onepipe/onepipe-endpoint.h"
#include "sim/core/rng.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <map>
#include <vector>

namespace incsim::onepipe::apps
{

/// /protocol/params/system of onepipe_replication (docs/onepipe-apps.md, "1-RTT replication").
enum class ReplicationSystem
{
    OnePipe, ///< paper 2.2.2: one best-effort scattering to every replica, checksums compared
    Chain    ///< Ceph's primary-backup: client, primary, backups in sequence, ACKs back
};

/// A log message, a reply, or (chain) a forward or ACK; its index in the message table is the
/// endpoint's tag.
struct ReplMessage
{
    enum class Op : uint8_t
    {
        Log,     ///< client -> replica (1Pipe), client -> primary (chain)
        Reply,   ///< replica -> client
        Forward, ///< chain: replica r -> r + 1
        Ack      ///< chain: replica r + 1 -> r
    };
    Op op = Op::Log;
    bool accepted = true;
    uint32_t client = 0;     ///< the client's process id
    uint32_t replica = 0;    ///< Reply: who answers
    uint64_t seq = 0;        ///< per (client, replica), from 1
    uint64_t write = 0;      ///< the client's write id
    uint64_t logTs = 0;      ///< the write's place in the log (0: the delivery's timestamp)
    uint64_t checksum = 0;   ///< Reply
    uint64_t expected = 0;   ///< Reply, rejected: the sequence number the replica expects
    uint64_t index = 0;      ///< chain: the primary's log index
};

using ReplMessages = MessageTable<ReplMessage>;

struct ReplicationConfig
{
    ReplicationSystem system = ReplicationSystem::OnePipe;
    uint32_t clients = 1;
    uint32_t replicas = 3;
    /// A retransmission carries the timestamp the other replicas logged the write at (false:
    /// a fresh one, the negative control: the replicas' logs then differ).
    bool keepLoggedTs = true;
    uint32_t writeBytes = 4096;
    int64_t diskWritePs = 0;
    int64_t retryTimeoutPs = 0;
    int64_t intervalPs = 0;    ///< a client's pause between writes (an idle system)
    AppWindow measurement; ///< when initiators run and results count
};

/// One log entry: the (timestamp, client) order of the paper, and the write it holds.
struct LogEntry
{
    uint64_t ts = 0;
    uint32_t client = 0;
    uint64_t write = 0;
    bool operator==(const LogEntry& o) const
    {
        return ts == o.ts && client == o.client && write == o.write;
    }
};

struct ReplicationShared
{
    ReplicationConfig config;
    ReplMessages messages;
    std::vector<class ReplicationApp*> replicas; ///< by replica index
    struct Results
    {
        std::vector<int64_t> latencyPs;  ///< successful writes in the measured window
        uint64_t succeeded = 0;          ///< all of the run
        uint64_t retransmissions = 0;
        uint64_t rejections = 0;
        uint64_t checksumMismatches = 0; ///< every replica accepted, checksums differ
        uint64_t unresolved = 0; ///< writes given up on a mismatch (recovery is not built)
        std::vector<std::pair<uint32_t, uint64_t>> successes; ///< (client, write)
    } results;
};

/// A client (one 4 KB write at a time, a pause between) or a replica keeping a log and
/// writing each entry to its disk (a FIFO of `disk_write` per entry).
class ReplicationApp
{
  public:
    ReplicationApp(OnePipeEndpoint& endpoint, uint32_t id, bool client, uint32_t replica,
                   ReplicationShared& shared);
    ReplicationApp(const ReplicationApp&) = delete;
    ReplicationApp& operator=(const ReplicationApp&) = delete;
    ~ReplicationApp();

    void Start();
    const std::vector<LogEntry>& Log() const { return m_log; }
    bool Busy() const { return m_busy; }

  private:
    void Receive(const Delivered& delivered);
    void NextWrite();
    void SendLog(const std::vector<uint32_t>& replicas);
    void Replied(const ReplMessage& reply);
    void RetryTimeout();
    void Finish(bool success);

    void ServeLog(uint64_t tag, uint64_t ts);
    void ChainStep(uint64_t tag);
    /// Appends to the log (in order), the checksum and the disk queue; returns its position.
    size_t Append(const LogEntry& entry);
    uint64_t PrefixChecksum(size_t position) const;
    void SendAt(int64_t atPs, uint32_t dst, uint64_t tag);
    void Send(uint32_t dst, uint64_t tag);
    uint32_t Process(uint32_t replica) const;

    OnePipeEndpoint& m_endpoint;
    uint32_t m_id;
    bool m_client;
    uint32_t m_replica;
    ReplicationShared& m_shared;

    // client
    bool m_busy = false;
    uint64_t m_write = 0;
    int64_t m_startPs = 0;
    std::vector<uint64_t> m_seq;      ///< per replica: the current write's sequence number
    std::vector<uint8_t> m_state;     ///< per replica: 0 waiting, 1 accepted, 2 rejected
    std::vector<uint64_t> m_checksum; ///< per replica
    uint64_t m_loggedTs = 0;
    ns3::EventId m_timer;
    ns3::EventId m_next;
    std::vector<Outgoing> m_scattering;
    std::vector<uint32_t> m_resend;

    // replica
    std::vector<uint64_t> m_expected; ///< per client process: the next sequence number
    std::vector<LogEntry> m_log;
    uint64_t m_checksumValue = 0;
    int64_t m_diskFreePs = 0;
    uint64_t m_nextIndex = 1;         ///< chain primary: the next log index
    uint64_t m_appliedIndex = 0;      ///< chain backup: applied in index order
    std::map<uint64_t, uint64_t> m_early; ///< chain backup: index -> tag
};

} // namespace incsim::onepipe::apps

#endif
