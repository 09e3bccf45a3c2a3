#include "protocols/onepipe/apps/hashtable-app.h"

#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

#include <algorithm>

namespace incsim::onepipe::apps
{

namespace
{
/// A one-sided operation's header: opcode, client, slot, attempt, address.
constexpr uint32_t kHeaderBytes = 24;
/// An entry's key and next pointer (its value follows).
constexpr uint32_t kEntryBytes = 16;
constexpr uint32_t kPointerBytes = 8;
/// Lookups look for one of the last kRecent completed inserts half of the time.
constexpr size_t kRecent = 256;
constexpr uint64_t kCounterBits = 32;
constexpr uint64_t kShardShift = 48;
} // namespace

uint64_t
HtBucketOf(uint64_t key, uint64_t buckets)
{
    return Mix64(key) % buckets;
}

uint32_t
HtEntryShardOf(uint64_t key, uint32_t shards)
{
    return static_cast<uint32_t>(Mix64(key ^ 0x9e3779b97f4a7c15ULL) % shards);
}

uint64_t
HtPointer(uint32_t shard, uint32_t owner, uint64_t counter)
{
    return (uint64_t{shard + 1} << kShardShift) | (uint64_t{owner} << kCounterBits) | counter;
}

HashTableApp::HashTableApp(OnePipeEndpoint& endpoint, uint32_t id, bool client, uint32_t index,
                           HashTableShared& shared, Rng rng)
    : m_endpoint(endpoint),
      m_id(id),
      m_index(index),
      m_shared(shared),
      m_rng(rng),
      m_client(client)
{
    const HashTableConfig& config = m_shared.config;
    if (m_client)
    {
        m_window.resize(config.window);
    }
    else
    {
        m_shard = index / config.replicas;
        m_replica = index % config.replicas;
        m_heads.assign(config.bucketsPerShard, 0);
    }
    m_endpoint.SetReceiveCallback([this](const Delivered& message) { Receive(message); });
    m_endpoint.SetSendFailureCallback(
        [this](uint64_t, uint32_t, uint32_t, uint64_t, FailureReason) {
            ++m_shared.results.sendFailures;
        });
}

HashTableApp::~HashTableApp()
{
    m_startEvent.Cancel();
}

uint32_t
HashTableApp::InFlight() const
{
    return static_cast<uint32_t>(
        std::count_if(m_window.begin(), m_window.end(), [](const Op& op) { return op.active; }));
}

uint32_t
HtShardOfPointer(uint64_t pointer)
{
    return static_cast<uint32_t>((pointer >> kShardShift) - 1);
}

uint32_t
HashTableApp::Bytes(const HtMessage& m) const
{
    using O = HtMessage::Op;
    const bool carriesEntry = m.op == O::WriteEntry ||
                              (m.op == O::Replicate && m.request == O::WriteEntry) ||
                              (m.op == O::Answer && m.request == O::ReadEntry);
    return kHeaderBytes +
           (carriesEntry ? kEntryBytes + m_shared.config.valueBytes : 2 * kPointerBytes);
}

void
HashTableApp::Start()
{
    if (!m_client)
    {
        return;
    }
    m_startEvent = ScheduleStart(m_shared.config.measurement, [this]() {
        for (uint32_t slot = 0; slot < m_window.size(); ++slot)
        {
            Next(slot);
        }
    });
}

// ---- client ----

void
HashTableApp::Next(uint32_t slot)
{
    const HashTableConfig& config = m_shared.config;
    Op& op = m_window[slot];
    op.active = false;
    if (NowPs() >= config.measurement.stopPs)
    {
        return;
    }
    op.active = true;
    op.startPs = NowPs();
    const bool haveRecent = !m_shared.recent.empty();
    op.insert = m_rng.Uniform() < config.insertShare || (!haveRecent && config.preload == 0);
    if (op.insert)
    {
        op.key = (uint64_t{m_index + 1} << 40) | ++m_nextKey;
        op.bucket = HtBucketOf(op.key, uint64_t{config.shards} * config.bucketsPerShard);
        const auto cached = m_headCache.find(op.bucket);
        op.expected = cached == m_headCache.end() ? 0 : cached->second;
        BeginInsert(slot);
        return;
    }
    if (haveRecent && (config.preload == 0 || m_rng.Uniform() < 0.5))
    {
        op.key = m_shared.recent[m_rng.UniformInt(m_shared.recent.size())];
    }
    else
    {
        op.key = (uint64_t{config.clients + 1} << 40) | (m_rng.UniformInt(config.preload) + 1);
    }
    op.bucket = HtBucketOf(op.key, uint64_t{config.shards} * config.bucketsPerShard);
    op.replica = config.readAllReplicas ? static_cast<uint32_t>(m_rng.UniformInt(config.replicas))
                                        : 0;
    op.attempt = m_nextAttempt++;
    op.pending = 1;
    m_scattering.clear();
    Request(HtMessage::Op::ReadHead, slot,
            m_shared.Server(static_cast<uint32_t>(op.bucket % config.shards), op.replica),
            op.bucket);
    SendScattering();
}

void
HashTableApp::BeginInsert(uint32_t slot)
{
    const HashTableConfig& config = m_shared.config;
    Op& op = m_window[slot];
    op.attempt = m_nextAttempt++;
    op.pointer = HtPointer(HtEntryShardOf(op.key, config.shards), m_index, ++m_nextEntry);
    op.casSeen = false;
    const uint32_t entryShard = HtShardOfPointer(op.pointer);
    const auto bucketShard = static_cast<uint32_t>(op.bucket % config.shards);
    m_scattering.clear();
    if (config.system == HashTableSystem::OnePipe)
    {
        // One scattering, one timestamp: every replica applies the entry write before the
        // CAS, and every later read after both, so no fence is needed.
        for (uint32_t r = 0; r < config.replicas; ++r)
        {
            Request(HtMessage::Op::WriteEntry, slot, m_shared.Server(entryShard, r), op.pointer);
            Request(HtMessage::Op::Cas, slot, m_shared.Server(bucketShard, r), op.bucket);
        }
        op.pending = 2 * config.replicas;
        op.writing = false;
    }
    else
    {
        Request(HtMessage::Op::WriteEntry, slot, m_shared.Server(entryShard, 0), op.pointer);
        op.pending = 1;
        op.writing = config.fence;
        if (!config.fence)
        {
            Request(HtMessage::Op::Cas, slot, m_shared.Server(bucketShard, 0), op.bucket);
            op.pending = 2;
        }
    }
    SendScattering();
}

HtMessage&
HashTableApp::Request(HtMessage::Op kind, uint32_t slot, uint32_t server, uint64_t address)
{
    const Op& op = m_window[slot];
    const uint64_t tag = m_shared.messages.Acquire();
    HtMessage& m = m_shared.messages.Get(tag);
    m = HtMessage{};
    m.op = kind;
    m.request = kind;
    m.client = m_id;
    m.slot = slot;
    m.attempt = op.attempt;
    m.address = address;
    if (kind == HtMessage::Op::WriteEntry)
    {
        m.key = op.key;
        m.next = op.expected;
    }
    else if (kind == HtMessage::Op::Cas)
    {
        m.expected = op.expected;
        m.value = op.pointer;
    }
    m_scattering.push_back(Outgoing{server, Bytes(m), tag});
    return m;
}

void
HashTableApp::SendScattering()
{
    if (m_shared.config.reliable)
    {
        m_endpoint.ReliableSend(m_scattering);
    }
    else
    {
        m_endpoint.UnreliableSend(m_scattering);
    }
}

void
HashTableApp::ClientAnswer(const HtMessage& answer)
{
    Op& op = m_window[answer.slot];
    if (!op.active || answer.attempt != op.attempt)
    {
        return;
    }
    if (op.insert)
    {
        InsertAnswered(answer.slot, answer);
    }
    else
    {
        LookupAnswered(answer.slot, answer);
    }
}

void
HashTableApp::InsertAnswered(uint32_t slot, const HtMessage& answer)
{
    const HashTableConfig& config = m_shared.config;
    Op& op = m_window[slot];
    if (answer.request == HtMessage::Op::Cas)
    {
        if (!op.casSeen)
        {
            op.casSeen = true;
            op.casOk = answer.ok;
            op.casOld = answer.value;
        }
        else if (op.casOk != answer.ok || op.casOld != answer.value)
        {
            ++m_shared.results.replicaDisagreements;
        }
    }
    if (--op.pending > 0)
    {
        return;
    }
    if (op.writing)
    {
        // The fence passed: the entry is written (and replicated); now link it.
        op.writing = false;
        op.pending = 1;
        m_scattering.clear();
        Request(HtMessage::Op::Cas, slot,
                m_shared.Server(static_cast<uint32_t>(op.bucket % config.shards), 0), op.bucket);
        SendScattering();
        return;
    }
    if (op.casOk)
    {
        m_headCache[op.bucket] = op.pointer;
        FinishInsert(slot);
        return;
    }
    // Another insert changed the bucket: write a new entry pointing at the head the CAS saw.
    ++m_shared.results.casRetries;
    m_headCache[op.bucket] = op.casOld;
    op.expected = op.casOld;
    BeginInsert(slot);
}

void
HashTableApp::LookupAnswered(uint32_t slot, const HtMessage& answer)
{
    Op& op = m_window[slot];
    uint64_t next = 0;
    if (answer.request == HtMessage::Op::ReadHead)
    {
        next = answer.value;
    }
    else
    {
        if (!answer.ok)
        {
            // The bucket pointed at an entry its server has not written: the WAW hazard.
            ++m_shared.results.tornReads;
            FinishLookup(slot, false);
            return;
        }
        if (answer.key == op.key)
        {
            FinishLookup(slot, true);
            return;
        }
        next = answer.next;
    }
    if (next == 0)
    {
        FinishLookup(slot, false);
        return;
    }
    op.pointer = next;
    op.pending = 1;
    m_scattering.clear();
    Request(HtMessage::Op::ReadEntry, slot, m_shared.Server(HtShardOfPointer(next), op.replica),
            next);
    SendScattering();
}

void
HashTableApp::FinishInsert(uint32_t slot)
{
    Op& op = m_window[slot];
    HashTableShared::Results& r = m_shared.results;
    m_shared.completed.emplace(op.key, NowPs());
    if (m_shared.recent.size() < kRecent)
    {
        m_shared.recent.push_back(op.key);
    }
    else
    {
        m_shared.recent[m_shared.recentNext] = op.key;
        m_shared.recentNext = (m_shared.recentNext + 1) % kRecent;
    }
    if (m_shared.config.measurement.Measured(NowPs()))
    {
        ++r.inserts;
        r.insertLatencyPs.push_back(NowPs() - op.startPs);
    }
    Next(slot);
}

void
HashTableApp::FinishLookup(uint32_t slot, bool found)
{
    Op& op = m_window[slot];
    HashTableShared::Results& r = m_shared.results;
    const bool preloaded = (op.key >> 40) == m_shared.config.clients + 1;
    const auto it = m_shared.completed.find(op.key);
    if (preloaded || (it != m_shared.completed.end() && it->second < op.startPs))
    {
        ++r.checkedLookups;
        r.staleLookups += found ? 0 : 1;
    }
    if (m_shared.config.measurement.Measured(NowPs()))
    {
        ++r.lookups;
        r.found += found ? 1 : 0;
        r.lookupLatencyPs.push_back(NowPs() - op.startPs);
    }
    Next(slot);
}

// ---- server ----

void
HashTableApp::Receive(const Delivered& delivered)
{
    if (m_client)
    {
        ClientAnswer(m_shared.messages.Get(delivered.tag));
        m_shared.messages.Release(delivered.tag);
        return;
    }
    Serve(delivered);
}

int64_t
HashTableApp::NicOperation()
{
    m_nicFreePs = std::max(m_nicFreePs, NowPs()) + m_shared.config.nicOpPs;
    return m_nicFreePs;
}

void
HashTableApp::SendAt(int64_t atPs, uint32_t dst, uint64_t tag)
{
    ns3::Simulator::Schedule(Ps(atPs - NowPs()), &HashTableApp::Send, this, dst, tag);
}

void
HashTableApp::Send(uint32_t dst, uint64_t tag)
{
    m_scattering.clear();
    m_scattering.push_back(Outgoing{dst, Bytes(m_shared.messages.Get(tag)), tag});
    SendScattering();
}

void
HashTableApp::Serve(const Delivered& delivered)
{
    using O = HtMessage::Op;
    const HashTableConfig& config = m_shared.config;
    const uint64_t tag = delivered.tag;
    HtMessage& m = m_shared.messages.Get(tag);
    switch (m.op)
    {
    case O::Replicate:
        m_outOfOrder.emplace(m.logIndex, tag);
        // The leader's log order, whatever order the unordered transport delivers in.
        while (!m_outOfOrder.empty() && m_outOfOrder.begin()->first == m_appliedLogIndex + 1)
        {
            ApplyReplicated(m_outOfOrder.begin()->second);
            m_outOfOrder.erase(m_outOfOrder.begin());
            ++m_appliedLogIndex;
        }
        return;
    case O::ReplicateAck: {
        const uint64_t origin = m.origin;
        m_shared.messages.Release(tag);
        if (--m_awaitingAcks[origin] == 0)
        {
            m_awaitingAcks.erase(origin);
            Send(m_shared.messages.Get(origin).client, origin);
        }
        return;
    }
    default:
        break;
    }
    // A one-sided operation: applied now, in delivery order (1Pipe: timestamp order), and
    // answered when the NIC has served it; the CPU is not involved.
    const int64_t done = NicOperation();
    const uint64_t bucket = m.address / config.shards;
    bool replicate = false;
    uint64_t desired = 0;
    switch (m.op)
    {
    case O::ReadHead:
        m.value = m_heads[bucket];
        break;
    case O::ReadEntry: {
        const auto it = m_entries.find(m.address);
        m.ok = it != m_entries.end();
        m.key = m.ok ? it->second.key : 0;
        m.next = m.ok ? it->second.next : 0;
        break;
    }
    case O::WriteEntry:
        m_entries[m.address] = Entry{m.key, m.next};
        replicate = true;
        break;
    case O::Cas:
        desired = m.value;
        m.value = m_heads[bucket];
        m.ok = m.value == m.expected;
        if (m.ok)
        {
            m_heads[bucket] = desired;
            replicate = true;
        }
        break;
    default:
        break;
    }
    m.op = O::Answer;
    if (replicate && config.system == HashTableSystem::Baseline && config.replicas > 1)
    {
        Replicate(tag, desired, done);
        return;
    }
    SendAt(done, m.client, tag);
}

void
HashTableApp::Replicate(uint64_t tag, uint64_t desired, int64_t nicDonePs)
{
    // The leader's CPU ships the applied write to every follower (one log index for all), and
    // the client's answer waits for every follower's ACK.
    const HashTableConfig& config = m_shared.config;
    m_cpuFreePs = std::max(m_cpuFreePs, nicDonePs) + config.replicatePs;
    const HtMessage request = m_shared.messages.Get(tag);
    const uint64_t index = m_nextLogIndex++;
    for (uint32_t r = 1; r < config.replicas; ++r)
    {
        const uint64_t copy = m_shared.messages.Acquire();
        HtMessage& m = m_shared.messages.Get(copy);
        m = request;
        m.op = HtMessage::Op::Replicate;
        m.value = desired;
        m.logIndex = index;
        m.origin = tag;
        SendAt(m_cpuFreePs, m_shared.Server(m_shard, r), copy);
    }
    m_awaitingAcks[tag] = config.replicas - 1;
}

void
HashTableApp::ApplyReplicated(uint64_t tag)
{
    HtMessage& m = m_shared.messages.Get(tag);
    if (m.request == HtMessage::Op::WriteEntry)
    {
        m_entries[m.address] = Entry{m.key, m.next};
    }
    else
    {
        m_heads[m.address / m_shared.config.shards] = m.value;
    }
    m.op = HtMessage::Op::ReplicateAck;
    SendAt(NicOperation(), m_shared.Server(m_shard, 0), tag);
}

} // namespace incsim::onepipe::apps
