#include "protocols/onepipe/apps/replication-app.h"

#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

#include <algorithm>

namespace incsim::onepipe::apps
{

namespace
{
/// A reply's and a chain ACK's size: opcode, client, write, checksum.
constexpr uint32_t kControlBytes = 32;

/// The checksum adds each logged message's (timestamp, client), as the paper's "adds the
/// message timestamp": equal sums mean the same messages, in whatever order they arrived.
uint64_t
ChecksumTerm(const LogEntry& e)
{
    return Mix64(e.ts * 0x100000001b3ULL + e.client);
}
} // namespace

ReplicationApp::ReplicationApp(OnePipeEndpoint& endpoint, uint32_t id, bool client,
                               uint32_t replica, ReplicationShared& shared)
    : m_endpoint(endpoint),
      m_id(id),
      m_client(client),
      m_replica(replica),
      m_shared(shared)
{
    const uint32_t replicas = shared.config.replicas;
    if (client)
    {
        m_seq.assign(replicas, 0);
        m_state.assign(replicas, 0);
        m_checksum.assign(replicas, 0);
    }
    else
    {
        m_expected.assign(shared.config.clients, 1);
    }
    m_endpoint.SetReceiveCallback([this](const Delivered& d) { Receive(d); });
}

ReplicationApp::~ReplicationApp()
{
    m_timer.Cancel();
    m_next.Cancel();
}

uint32_t
ReplicationApp::Process(uint32_t replica) const
{
    return m_shared.config.clients + replica;
}

void
ReplicationApp::Start()
{
    if (m_client)
    {
        m_next = ScheduleStart(m_shared.config.measurement, [this]() { NextWrite(); });
    }
}

// ---- client ----

void
ReplicationApp::NextWrite()
{
    if (NowPs() >= m_shared.config.measurement.stopPs)
    {
        return;
    }
    m_busy = true;
    ++m_write;
    m_startPs = NowPs();
    // The scattering's timestamp: the endpoint stamps it with this same reading when it
    // sends at once (no CPU charged per message). Retransmissions carry it, so every replica
    // logs the write at one place in the (timestamp, client) order.
    m_loggedTs = m_shared.config.system == ReplicationSystem::OnePipe ? m_endpoint.GetTimestamp()
                                                                       : 0;
    m_resend.clear();
    for (uint32_t r = 0; r < m_shared.config.replicas; ++r)
    {
        ++m_seq[r];
        m_state[r] = 0;
        m_resend.push_back(r);
    }
    if (m_shared.config.system == ReplicationSystem::Chain)
    {
        m_resend.assign(1, 0); // the primary only
    }
    SendLog(m_resend);
}

void
ReplicationApp::SendLog(const std::vector<uint32_t>& replicas)
{
    m_scattering.clear();
    for (uint32_t r : replicas)
    {
        const uint64_t tag = m_shared.messages.Acquire();
        ReplMessage& m = m_shared.messages.Get(tag);
        m = ReplMessage{};
        m.client = m_id;
        m.seq = m_seq[r];
        m.write = m_write;
        m.logTs = m_shared.config.keepLoggedTs ? m_loggedTs : 0;
        m_scattering.push_back(Outgoing{Process(r), m_shared.config.writeBytes, tag});
    }
    // Best-effort 1Pipe: one scattering, one timestamp; the chain runs unordered.
    m_endpoint.UnreliableSend(m_scattering);
    if (m_shared.config.system == ReplicationSystem::OnePipe)
    {
        m_timer.Cancel();
        m_timer = ns3::Simulator::Schedule(Ps(m_shared.config.retryTimeoutPs),
                                           &ReplicationApp::RetryTimeout, this);
    }
}

void
ReplicationApp::Replied(const ReplMessage& reply)
{
    if (!m_busy || reply.write != m_write)
    {
        return; // a late reply to a write already decided
    }
    if (m_shared.config.system == ReplicationSystem::Chain)
    {
        Finish(true);
        return;
    }
    if (!reply.accepted)
    {
        // The replica missed an earlier message of ours: resend from the one it expects
        // (with one write at a time, that is this write).
        ++m_shared.results.rejections;
        m_state[reply.replica] = 2;
        return;
    }
    m_state[reply.replica] = 1;
    m_checksum[reply.replica] = reply.checksum;
    if (std::any_of(m_state.begin(), m_state.end(), [](uint8_t s) { return s != 1; }))
    {
        return;
    }
    const bool equal = std::all_of(m_checksum.begin(), m_checksum.end(),
                                   [&](uint64_t c) { return c == m_checksum.front(); });
    if (!equal)
    {
        ++m_shared.results.checksumMismatches;
    }
    Finish(equal);
}

void
ReplicationApp::RetryTimeout()
{
    if (!m_busy)
    {
        return;
    }
    m_resend.clear();
    for (uint32_t r = 0; r < m_state.size(); ++r)
    {
        if (m_state[r] != 1)
        {
            m_resend.push_back(r);
            m_state[r] = 0;
        }
    }
    m_shared.results.retransmissions += m_resend.size();
    SendLog(m_resend);
}

void
ReplicationApp::Finish(bool success)
{
    m_timer.Cancel();
    m_busy = false;
    ReplicationShared::Results& r = m_shared.results;
    if (success)
    {
        ++r.succeeded;
        r.successes.emplace_back(m_id, m_write);
        if (m_shared.config.measurement.Measured(NowPs()))
        {
            r.latencyPs.push_back(NowPs() - m_startPs);
        }
    }
    else
    {
        // Checksums differ: the paper's consensus-based recovery would repair the logs.
        ++r.unresolved;
    }
    m_next = ns3::Simulator::Schedule(Ps(m_shared.config.intervalPs), &ReplicationApp::NextWrite,
                                      this);
}

// ---- replica ----

void
ReplicationApp::Receive(const Delivered& delivered)
{
    ReplMessage& m = m_shared.messages.Get(delivered.tag);
    if (m_client)
    {
        Replied(m);
        m_shared.messages.Release(delivered.tag);
        return;
    }
    if (m.op == ReplMessage::Op::Log && m_shared.config.system == ReplicationSystem::OnePipe)
    {
        ServeLog(delivered.tag, delivered.ts);
        return;
    }
    ChainStep(delivered.tag);
}

size_t
ReplicationApp::Append(const LogEntry& entry)
{
    // The log is ordered by (timestamp, client), wherever a late retransmission lands.
    const auto at = std::upper_bound(m_log.begin(), m_log.end(), entry,
                                     [](const LogEntry& a, const LogEntry& b) {
                                         return a.ts != b.ts ? a.ts < b.ts : a.client < b.client;
                                     });
    const auto position = static_cast<size_t>(at - m_log.begin());
    m_log.insert(at, entry);
    m_checksumValue += ChecksumTerm(entry);
    m_diskFreePs = std::max(m_diskFreePs, NowPs()) + m_shared.config.diskWritePs;
    return position;
}

uint64_t
ReplicationApp::PrefixChecksum(size_t position) const
{
    // Up to and including the entry at `position`: "consistent at least until the client's
    // log message". Usually the entry is the last one, and the prefix is the whole log.
    uint64_t sum = m_checksumValue;
    for (size_t i = position + 1; i < m_log.size(); ++i)
    {
        sum -= ChecksumTerm(m_log[i]);
    }
    return sum;
}

void
ReplicationApp::ServeLog(uint64_t tag, uint64_t ts)
{
    ReplMessage& m = m_shared.messages.Get(tag);
    uint64_t& expected = m_expected[m.client];
    m.op = ReplMessage::Op::Reply;
    m.replica = m_replica;
    if (m.seq > expected)
    {
        m.accepted = false;
        m.expected = expected;
        Send(m.client, tag);
        return;
    }
    if (m.seq < expected)
    {
        // Logged already (its reply was lost or late): answer again, as then.
        const auto it = std::find_if(m_log.begin(), m_log.end(), [&](const LogEntry& e) {
            return e.client == m.client && e.write == m.write;
        });
        if (it != m_log.end())
        {
            m.logTs = it->ts;
            m.checksum = PrefixChecksum(static_cast<size_t>(it - m_log.begin()));
        }
        Send(m.client, tag);
        return;
    }
    expected = m.seq + 1;
    const LogEntry entry{m.logTs != 0 ? m.logTs : ts, m.client, m.write};
    const size_t position = Append(entry);
    m.logTs = entry.ts;
    m.checksum = PrefixChecksum(position);
    SendAt(m_diskFreePs, m.client, tag);
}

void
ReplicationApp::ChainStep(uint64_t tag)
{
    using O = ReplMessage::Op;
    ReplMessage& m = m_shared.messages.Get(tag);
    const uint32_t last = m_shared.config.replicas - 1;
    if (m.op == O::Ack)
    {
        if (m_replica == 0)
        {
            m.op = O::Reply;
            Send(m.client, tag);
        }
        else
        {
            Send(Process(m_replica - 1), tag);
        }
        return;
    }
    if (m.op == O::Log)
    {
        m.index = m_nextIndex++;
    }
    // Backups apply the primary's order, whatever order the unordered network delivers in.
    m_early.emplace(m.index, tag);
    while (!m_early.empty() && m_early.begin()->first == m_appliedIndex + 1)
    {
        const uint64_t t = m_early.begin()->second;
        m_early.erase(m_early.begin());
        ++m_appliedIndex;
        ReplMessage& e = m_shared.messages.Get(t);
        Append(LogEntry{e.index, e.client, e.write});
        const int64_t done = m_diskFreePs;
        // Ceph's chain: each copy is on disk before the next is sent.
        if (m_replica < last)
        {
            e.op = O::Forward;
            SendAt(done, Process(m_replica + 1), t);
        }
        else if (m_replica == 0)
        {
            e.op = O::Reply;
            SendAt(done, e.client, t);
        }
        else
        {
            e.op = O::Ack;
            SendAt(done, Process(m_replica - 1), t);
        }
    }
}

void
ReplicationApp::SendAt(int64_t atPs, uint32_t dst, uint64_t tag)
{
    ns3::Simulator::Schedule(Ps(std::max<int64_t>(0, atPs - NowPs())), &ReplicationApp::Send,
                             this, dst, tag);
}

void
ReplicationApp::Send(uint32_t dst, uint64_t tag)
{
    const ReplMessage& m = m_shared.messages.Get(tag);
    const bool data = m.op == ReplMessage::Op::Forward;
    m_scattering.clear();
    m_scattering.push_back(
        Outgoing{dst, data ? m_shared.config.writeBytes : kControlBytes, tag});
    m_endpoint.UnreliableSend(m_scattering);
}

} // namespace incsim::onepipe::apps
