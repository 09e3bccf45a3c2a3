#include "protocols/onepipe/apps/tpcc-app.h"

#include "sim/core/sim-time.h"
#include "sim/trace/csv-writer.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <limits>

namespace incsim::onepipe::apps
{

namespace
{
constexpr uint32_t kMessageHeaderBytes = 16;
/// A transaction's argument on the wire (ids, quantities, amounts).
constexpr uint32_t kArgBytes = 8;
/// A decision in a resync: its timestamp, initiator and attempt.
constexpr uint32_t kLogEntryBytes = 16;
} // namespace

uint64_t
TpccApp::AnswerView::Value(uint64_t key) const
{
    for (const auto& [k, value] : values)
    {
        if (k == key)
        {
            return value;
        }
    }
    return 0;
}

uint64_t
TpccApp::StoreView::Value(uint64_t key) const
{
    const auto it = m_app.m_store.find(key);
    return it == m_app.m_store.end() ? 0 : it->second.value;
}

uint64_t
TpccApp::OwnWritesView::Value(uint64_t key) const
{
    for (auto it = m_accesses.rbegin(); it != m_accesses.rend(); ++it)
    {
        if (it->key == key && it->type == txn::AccessType::Write)
        {
            return it->value;
        }
    }
    return m_base.Value(key);
}

TpccApp::TpccApp(OnePipeEndpoint& endpoint, uint32_t id, TpccShared& shared, Rng rng)
    : m_endpoint(endpoint),
      m_id(id),
      m_shared(shared),
      m_rng(rng),
      m_window(shared.config.window)
{
    for (uint32_t shard = 0; shard < shared.config.shards; ++shard)
    {
        for (uint32_t replica = 0; replica < shared.config.replicas; ++replica)
        {
            if (shared.ServerOf(shard, replica) == id)
            {
                m_shard = shard;
                m_replica = replica;
                m_log = std::make_unique<DecisionLog>(shared.serverLog, id, shard, replica);
            }
        }
    }
    m_endpoint.SetReceiveCallback([this](const Delivered& message) { Receive(message); });
    if (shared.config.system == TpccSystem::OnePipe)
    {
        m_endpoint.SetSendFailureCallback(
            [this](uint64_t, uint32_t, uint32_t, uint64_t tag, FailureReason reason) {
                SendFailed(tag, reason);
            });
        m_endpoint.SetProcessFailureCallback(
            [this](uint32_t process, uint64_t /*ts*/) { ProcessFailed(process); });
        m_endpoint.SetRejoinCallback([this] { Rejoined(); });
    }
}

TpccApp::~TpccApp()
{
    m_startEvent.Cancel();
    for (Attempt& a : m_window)
    {
        a.timer.Cancel();
    }
}

uint32_t
TpccApp::InFlight() const
{
    return static_cast<uint32_t>(std::count_if(
        m_window.begin(), m_window.end(), [](const Attempt& a) { return a.phase != Phase::Idle; }));
}

void
TpccApp::Start()
{
    m_startEvent = ScheduleStart(m_shared.config.measurement, [this]() {
        for (uint32_t slot = 0; slot < m_window.size(); ++slot)
        {
            NextTransaction(slot);
        }
    });
}

void
TpccApp::NextTransaction(uint32_t slot)
{
    Attempt& a = m_window[slot];
    a.phase = Phase::Idle;
    if (NowPs() >= m_shared.config.measurement.stopPs)
    {
        return;
    }
    m_shared.workload->Next(m_id, m_rng, a.txn);
    a.logical = m_nextLogical++;
    a.retries = 0;
    a.recalled = false;
    a.startPs = NowPs();
    Begin(slot);
}

size_t
TpccApp::ShardIndex(const Attempt& a, uint32_t shard) const
{
    return static_cast<size_t>(std::find(a.shards.begin(), a.shards.end(), shard) -
                               a.shards.begin());
}

void
TpccApp::Begin(uint32_t slot)
{
    Attempt& a = m_window[slot];
    a.attempt = m_nextAttempt++;
    a.failed = false;
    a.locked.clear();
    a.logged.clear();
    a.shards.clear();
    // Which shards, and per shard the keys read: they depend on the arguments only.
    m_accesses.clear();
    m_shared.workload->Execute(a.txn, NoValues{}, m_accesses);
    for (const txn::Access& access : m_accesses)
    {
        const uint32_t shard = m_shared.workload->PartitionOf(access.key);
        if (std::find(a.shards.begin(), a.shards.end(), shard) == a.shards.end())
        {
            a.shards.push_back(shard);
        }
    }
    a.answered.assign(a.shards.size(), 0);
    a.primaryAnswered.assign(a.shards.size(), false);
    a.ops.resize(a.shards.size());
    for (auto& ops : a.ops)
    {
        ops.clear();
    }
    for (const txn::Access& access : m_accesses)
    {
        if (access.type == txn::AccessType::Read)
        {
            a.ops[ShardIndex(a, m_shared.workload->PartitionOf(access.key))].push_back(
                txn::HistoryOp{txn::AccessType::Read, access.key, 0, std::nullopt});
        }
    }
    a.sentNs = NowPs() / kPsPerNs;
    const TpccSystem system = m_shared.config.system;
    if (system == TpccSystem::OnePipe || system == TpccSystem::NonTx)
    {
        // One scattering to every replica of every shard touched.
        a.phase = Phase::Execute;
        m_scattering.clear();
        for (uint32_t shard : a.shards)
        {
            uint32_t skipped = 0; // the others reach the majority
            for (uint32_t replica = 0; replica < m_shared.config.replicas; ++replica)
            {
                skipped |= LeftOut(m_shared.ServerOf(shard, replica)) ? 1u << replica : 0;
            }
            for (uint32_t replica = 0; replica < m_shared.config.replicas; ++replica)
            {
                if ((skipped & (1u << replica)) != 0)
                {
                    continue;
                }
                const uint64_t tag = NewMessage(TpccMessage::Op::Execute, slot, shard);
                TpccMessage& m = m_shared.messages.Get(tag);
                m.txn.kind = a.txn.kind;
                m.txn.args.assign(a.txn.args.begin(), a.txn.args.end());
                m.reliable = system == TpccSystem::OnePipe;
                m.skipped = skipped;
                m_scattering.push_back(
                    Outgoing{m_shared.ServerOf(shard, replica), Bytes(m), tag});
            }
        }
        Flush(system == TpccSystem::OnePipe);
        return;
    }
    a.phase = Phase::Read;
    RoundToPrimaries(slot, system == TpccSystem::Lock ? TpccMessage::Op::LockRead
                                                      : TpccMessage::Op::Read);
}

uint64_t
TpccApp::NewMessage(TpccMessage::Op op, uint32_t slot, uint32_t shard)
{
    const uint64_t tag = m_shared.messages.Acquire();
    TpccMessage& m = m_shared.messages.Get(tag);
    m.op = op;
    m.ok = true;
    m.reliable = false;
    m.logged = false;
    m.initiator = m_id;
    m.slot = slot;
    m.attempt = m_window[slot].attempt;
    m.shard = shard;
    m.replica = 0;
    m.pending = 0;
    m.parent = 0;
    m.joiner = 0;
    m.skipped = 0;
    m.ops.clear();
    m.log.clear();
    return tag;
}

void
TpccApp::SendTo(uint32_t dst, uint64_t tag, bool reliable)
{
    m_scattering.clear();
    m_scattering.push_back(Outgoing{dst, Bytes(m_shared.messages.Get(tag)), tag});
    Flush(reliable);
}

void
TpccApp::Flush(bool reliable)
{
    if (reliable || m_shared.config.retransmits)
    {
        m_endpoint.ReliableSend(m_scattering);
    }
    else
    {
        m_endpoint.UnreliableSend(m_scattering);
    }
}

uint32_t
TpccApp::Bytes(const TpccMessage& message) const
{
    if (message.op == TpccMessage::Op::Execute)
    {
        return kMessageHeaderBytes + kArgBytes * static_cast<uint32_t>(message.txn.args.size());
    }
    if (message.op == TpccMessage::Op::Resync)
    {
        uint32_t bytes = kMessageHeaderBytes;
        for (const TpccMessage::LogEntry& entry : message.log)
        {
            bytes += kLogEntryBytes +
                     m_shared.config.opBytes * static_cast<uint32_t>(entry.ops.size());
        }
        return bytes;
    }
    return kMessageHeaderBytes + m_shared.config.opBytes * static_cast<uint32_t>(message.ops.size());
}

void
TpccApp::RoundToPrimaries(uint32_t slot, TpccMessage::Op op)
{
    Attempt& a = m_window[slot];
    a.pendingShards.clear();
    m_scattering.clear();
    for (size_t i = 0; i < a.shards.size(); ++i)
    {
        if (a.ops[i].empty())
        {
            continue;
        }
        if (op == TpccMessage::Op::Abort &&
            std::find(a.locked.begin(), a.locked.end(), a.shards[i]) == a.locked.end())
        {
            continue;
        }
        const uint64_t tag = NewMessage(op, slot, a.shards[i]);
        TpccMessage& m = m_shared.messages.Get(tag);
        m.ops.assign(a.ops[i].begin(), a.ops[i].end());
        m_scattering.push_back(Outgoing{m_shared.ServerOf(a.shards[i], 0), Bytes(m), tag});
        a.pendingShards.push_back(a.shards[i]);
    }
    Flush(false);
}

void
TpccApp::Receive(const Delivered& delivered)
{
    TpccMessage& message = m_shared.messages.Get(delivered.tag);
    switch (message.op)
    {
    case TpccMessage::Op::Answer:
    case TpccMessage::Op::ReadAnswer:
    case TpccMessage::Op::PrepareAnswer:
    case TpccMessage::Op::CommitAnswer:
        Answered(message, delivered.src);
        m_shared.messages.Release(delivered.tag);
        return;
    case TpccMessage::Op::ReplicateAnswer: {
        // At the primary: the last backup's answer releases the locks and answers.
        const uint64_t parentTag = message.parent;
        m_shared.messages.Release(delivered.tag);
        TpccMessage& parent = m_shared.messages.Get(parentTag);
        if (--parent.pending == 0)
        {
            Unlock(parent);
            parent.op = TpccMessage::Op::CommitAnswer;
            SendTo(parent.initiator, parentTag, false);
        }
        return;
    }
    case TpccMessage::Op::Join:
    case TpccMessage::Op::JoinAck:
        ServeJoin(delivered.src, message);
        m_shared.messages.Release(delivered.tag);
        return;
    case TpccMessage::Op::Resync:
        ApplyResync(message);
        m_shared.messages.Release(delivered.tag);
        return;
    case TpccMessage::Op::Execute:
        if (m_held)
        {
            m_held->push_back(Held{delivered.ts, delivered.src, delivered.tag});
            return;
        }
        [[fallthrough]];
    default:
        Serve(delivered.src, message, delivered.tag, delivered.ts);
    }
}

void
TpccApp::SendFailed(uint64_t tag, FailureReason reason)
{
    const TpccMessage& message = m_shared.messages.Get(tag);
    if (reason != FailureReason::Recalled || message.initiator != m_id)
    {
        return; // an answer to an initiator that failed
    }
    // Every message of a recalled scattering comes here once. Its entry is not released: a
    // failed replica may have delivered it before its link went (answering into the void),
    // and it stays valid should a receiver deliver it anyway (the controller's "skip-recall"
    // negative control). A few entries per failure.
    Attempt& a = m_window[message.slot];
    if (a.phase != Phase::Execute || a.attempt != message.attempt)
    {
        return;
    }
    ++m_shared.failures.recalledAttempts;
    a.recalled = true;
    // The request as the initiator knows it (the keys it reads; the replicas would have
    // supplied the values), then its abort: nothing of it was executed.
    LogRequest(a);
    Abort(message.slot, true);
}

void
TpccApp::ProcessFailed(uint32_t process)
{
    if (m_failed.empty())
    {
        m_failed.assign(m_shared.processes, false);
    }
    if (m_failed[process])
    {
        return;
    }
    m_failed[process] = true;
    TpccShared::Failures& failures = m_shared.failures;
    failures.callbackPs.push_back(NowPs());
    if (std::find(failures.failed.begin(), failures.failed.end(), process) ==
        failures.failed.end())
    {
        failures.failed.push_back(process);
        for (uint32_t shard = 0; shard < m_shared.config.shards; ++shard)
        {
            failures.failedPrimaries += m_shared.ServerOf(shard, 0) == process ? 1 : 0;
        }
    }
    // A rejoined replica failed again waits for its next rejoin; a failed initiator sends
    // nothing more that could leave a joiner out.
    for (size_t i = m_pendingResyncs.size(); i-- > 0;)
    {
        PendingResync& pending = m_pendingResyncs[i];
        if (pending.process == process)
        {
            m_pendingResyncs.erase(m_pendingResyncs.begin() + static_cast<ptrdiff_t>(i));
            continue;
        }
        const auto it = std::find(pending.waiting.begin(), pending.waiting.end(), process);
        if (it != pending.waiting.end())
        {
            pending.waiting.erase(it);
            ResyncIfIncluded(i);
        }
    }
}

bool
TpccApp::LeftOut(uint32_t process) const
{
    // The endpoint leaves out a process the controller announced failed before this
    // application's process-failure callback runs (paper 5.2: Discard and Recall first).
    return (!m_failed.empty() && m_failed[process]) || m_endpoint.PeerFailed(process);
}

void
TpccApp::Rejoined()
{
    m_rejoinedPs = NowPs();
    m_failed.assign(m_shared.processes, false);
    for (uint32_t process = 0; process < m_shared.processes; ++process)
    {
        m_failed[process] = m_endpoint.PeerFailed(process);
    }
    // The initiator starts over: its attempts in flight went with its old identity (the
    // live replicas may execute those prepared before the failure; their answers went to
    // the old identity).
    for (uint32_t slot = 0; slot < m_window.size(); ++slot)
    {
        if (m_window[slot].phase != Phase::Idle)
        {
            m_window[slot].timer.Cancel();
            NextTransaction(slot);
        }
    }
    if (!m_shard)
    {
        return;
    }
    // Its store holds everything up to its failure (a host link failure keeps the host's
    // memory; its buffered scatterings were delivered on recovery). Ask to be included
    // again, and hold what is delivered until the primary has shipped what it missed.
    m_held.emplace();
    m_scattering.clear();
    for (uint32_t process = 0; process < m_shared.processes; ++process)
    {
        if (process == m_id || LeftOut(process))
        {
            continue;
        }
        const uint64_t tag = NewMessage(TpccMessage::Op::Join, 0, *m_shard);
        TpccMessage& m = m_shared.messages.Get(tag);
        m.replica = m_replica;
        m.joiner = m_id;
        m_scattering.push_back(Outgoing{process, Bytes(m), tag});
    }
    Flush(true);
}

void
TpccApp::ServeJoin(uint32_t src, const TpccMessage& message)
{
    const uint32_t primary = m_shared.ServerOf(message.shard, 0);
    if (message.op == TpccMessage::Op::Join)
    {
        // From here this initiator's scatterings include the joiner; every scattering that
        // left it out has a smaller timestamp than the JoinAck sent now.
        if (!m_failed.empty())
        {
            m_failed[message.joiner] = false;
        }
        if (primary != m_id)
        {
            const uint64_t tag = NewMessage(TpccMessage::Op::JoinAck, 0, message.shard);
            m_shared.messages.Get(tag).joiner = message.joiner;
            SendTo(primary, tag, true);
            return;
        }
        PendingResync pending{message.joiner, message.replica, {}};
        for (uint32_t process = 0; process < m_shared.processes; ++process)
        {
            if (process != m_id && process != message.joiner && !LeftOut(process))
            {
                pending.waiting.push_back(process);
            }
        }
        m_pendingResyncs.push_back(std::move(pending));
        ResyncIfIncluded(m_pendingResyncs.size() - 1);
        return;
    }
    for (size_t i = 0; i < m_pendingResyncs.size(); ++i)
    {
        PendingResync& pending = m_pendingResyncs[i];
        const auto it = std::find(pending.waiting.begin(), pending.waiting.end(), src);
        if (pending.process == message.joiner && it != pending.waiting.end())
        {
            pending.waiting.erase(it);
            ResyncIfIncluded(i);
            return;
        }
    }
}

void
TpccApp::ResyncIfIncluded(size_t index)
{
    if (!m_pendingResyncs[index].waiting.empty())
    {
        return;
    }
    // Every live initiator includes the joiner, and every scattering that left it out is
    // below the last JoinAck, so delivered here (timestamp order): ship those decisions.
    const PendingResync pending = m_pendingResyncs[index];
    m_pendingResyncs.erase(m_pendingResyncs.begin() + static_cast<ptrdiff_t>(index));
    const uint64_t tag = NewMessage(TpccMessage::Op::Resync, 0, *m_shard);
    TpccMessage& m = m_shared.messages.Get(tag);
    m.replica = pending.replica;
    const uint32_t bit = 1u << pending.replica;
    for (Retained& retained : m_retained)
    {
        if ((retained.missing & bit) != 0)
        {
            m.log.push_back(retained.entry);
            retained.missing &= ~bit;
        }
    }
    while (!m_retained.empty() && m_retained.front().missing == 0)
    {
        m_retained.pop_front();
    }
    SendTo(pending.process, tag, true);
}

void
TpccApp::ApplyResync(const TpccMessage& message)
{
    if (!m_held)
    {
        return;
    }
    const std::vector<Held> held = std::move(*m_held);
    m_held.reset();
    const int64_t nowNs = NowPs() / kPsPerNs;
    size_t next = 0;
    const auto serveHeldBelow = [this, &held, &next](uint64_t ts) {
        for (; next < held.size() && held[next].ts < ts; ++next)
        {
            Serve(held[next].src, m_shared.messages.Get(held[next].tag), held[next].tag,
                  held[next].ts);
        }
    };
    for (const TpccMessage::LogEntry& entry : message.log)
    {
        serveHeldBelow(entry.ts);
        for (const txn::HistoryOp& op : entry.ops)
        {
            Install(op);
        }
        m_log->Append(entry.initiator, entry.attempt, entry.ops, nowNs, true);
    }
    serveHeldBelow(std::numeric_limits<uint64_t>::max());
    m_shared.failures.resyncs.push_back(TpccShared::Failures::Resync{
        m_id, m_rejoinedPs, NowPs(), message.log.size(), Bytes(message)});
}

void
TpccApp::Install(const txn::HistoryOp& op)
{
    if (op.type == txn::AccessType::Write)
    {
        Entry& e = m_store[op.key];
        e.value = op.value;
        ++e.version;
    }
}

bool
TpccApp::LockedByOther(const Entry& e, const TpccMessage& message) const
{
    return e.lockOwner != 0 &&
           (e.lockOwner != message.initiator + 1 || e.lockAttempt != message.attempt);
}

void
TpccApp::Unlock(const TpccMessage& message)
{
    for (const txn::HistoryOp& op : message.ops)
    {
        const auto it = m_store.find(op.key);
        if (it != m_store.end() && !LockedByOther(it->second, message))
        {
            it->second.lockOwner = 0;
        }
    }
}

void
TpccApp::Serve(uint32_t src, TpccMessage& message, uint64_t tag, uint64_t ts)
{
    using Op = TpccMessage::Op;
    const int64_t nowNs = NowPs() / kPsPerNs;
    message.replica = m_replica;
    switch (message.op)
    {
    case Op::Execute: {
        // 1Pipe: in timestamp order; NonTX: on arrival. The transaction is independent: this
        // shard's part depends on this shard's values only.
        m_accesses.clear();
        const StoreView store(*this);
        m_shared.workload->Execute(message.txn, OwnWritesView(store, m_accesses), m_accesses);
        m_ops.clear();
        for (const txn::Access& access : m_accesses)
        {
            if (m_shared.workload->PartitionOf(access.key) != *m_shard)
            {
                continue;
            }
            m_ops.push_back(txn::HistoryOp{access.type, access.key, access.value, std::nullopt});
            if (access.type == txn::AccessType::Write)
            {
                Entry& e = m_store[access.key];
                e.value = access.value;
                ++e.version;
            }
        }
        m_log->Append(message.initiator, message.attempt, m_ops, nowNs, true);
        if (m_replica == 0 && message.skipped != 0)
        {
            // Replicas left out (failed) resync from this log when they rejoin (R32).
            m_retained.push_back(
                Retained{TpccMessage::LogEntry{ts, message.initiator, message.attempt, m_ops},
                         message.skipped});
        }
        message.ops.clear();
        if (m_replica == 0)
        {
            message.ops.assign(m_ops.begin(), m_ops.end());
        }
        message.op = Op::Answer;
        break;
    }
    case Op::LockRead:
    case Op::Read:
        for (const txn::HistoryOp& op : message.ops)
        {
            const auto it = m_store.find(op.key);
            message.ok = message.ok && (it == m_store.end() || !LockedByOther(it->second, message));
        }
        for (txn::HistoryOp& op : message.ops)
        {
            Entry& e = m_store[op.key];
            if (message.ok && message.op == Op::LockRead)
            {
                e.lockOwner = message.initiator + 1;
                e.lockAttempt = message.attempt;
            }
            op.value = e.value;
            op.version = e.version;
        }
        message.op = Op::ReadAnswer;
        break;
    case Op::Prepare:
        for (const txn::HistoryOp& op : message.ops)
        {
            const auto it = m_store.find(op.key);
            const Entry e = it == m_store.end() ? Entry{} : it->second;
            message.ok = message.ok && !LockedByOther(e, message) &&
                         (op.type != txn::AccessType::Read || e.version == op.version);
        }
        if (message.ok)
        {
            m_ops.clear();
            for (const txn::HistoryOp& op : message.ops)
            {
                if (op.type == txn::AccessType::Write)
                {
                    Entry& e = m_store[op.key];
                    e.lockOwner = message.initiator + 1;
                    e.lockAttempt = message.attempt;
                }
                m_ops.push_back(txn::HistoryOp{op.type, op.key, op.value, std::nullopt});
            }
            // Reads validated and writes locked: its place in this shard's order.
            message.decision =
                m_log->Append(message.initiator, message.attempt, m_ops, nowNs, std::nullopt);
            message.logged = true;
        }
        message.op = Op::PrepareAnswer;
        break;
    case Op::Commit:
        ServeCommit(message, tag);
        return;
    case Op::Replicate:
        for (const txn::HistoryOp& op : message.ops)
        {
            Install(op);
        }
        m_log->Append(message.initiator, message.attempt, message.ops, nowNs, true);
        message.op = Op::ReplicateAnswer;
        break;
    case Op::Abort:
        Unlock(message);
        m_shared.messages.Release(tag);
        return;
    default:
        m_shared.messages.Release(tag);
        return;
    }
    SendTo(src, tag, message.reliable);
}

void
TpccApp::ServeCommit(TpccMessage& message, uint64_t tag)
{
    // Install, then ship the writes to the backups; the locks go when both have answered.
    const int64_t nowNs = NowPs() / kPsPerNs;
    m_ops.clear();
    for (const txn::HistoryOp& op : message.ops)
    {
        if (op.type == txn::AccessType::Write)
        {
            Install(op);
            m_ops.push_back(op);
        }
    }
    if (m_shared.config.system == TpccSystem::Lock)
    {
        // Every key it reads is locked until now: the decision's place. Values are logged,
        // not versions (as the requests).
        for (txn::HistoryOp& op : message.ops)
        {
            op.version.reset();
        }
        m_log->Append(message.initiator, message.attempt, message.ops, nowNs, true);
    }
    message.pending = 0;
    m_scattering.clear();
    for (uint32_t replica = 1; replica < m_shared.config.replicas && !m_ops.empty(); ++replica)
    {
        const uint64_t child = m_shared.messages.Acquire();
        TpccMessage& m = m_shared.messages.Get(child);
        m.op = TpccMessage::Op::Replicate;
        m.ok = true;
        m.reliable = false;
        m.logged = false;
        m.initiator = message.initiator;
        m.slot = message.slot;
        m.attempt = message.attempt;
        m.shard = message.shard;
        m.parent = tag;
        m.ops.assign(m_ops.begin(), m_ops.end());
        m_scattering.push_back(
            Outgoing{m_shared.ServerOf(message.shard, replica), Bytes(m), child});
        ++message.pending;
    }
    if (message.pending == 0)
    {
        Unlock(message);
        message.op = TpccMessage::Op::CommitAnswer;
        SendTo(message.initiator, tag, false);
        return;
    }
    Flush(false);
}

void
TpccApp::Answered(TpccMessage& message, uint32_t /*src*/)
{
    Attempt& a = m_window[message.slot];
    if (a.phase == Phase::Idle || a.attempt != message.attempt)
    {
        return; // a replica beyond the majority, or an attempt settled
    }
    const size_t i = ShardIndex(a, message.shard);
    if (message.op == TpccMessage::Op::Answer)
    {
        ++a.answered[i];
        if (message.replica == 0)
        {
            a.primaryAnswered[i] = true;
            a.ops[i].assign(message.ops.begin(), message.ops.end());
        }
        // Eris: a majority of each shard, the primary (whose answer has the values) among it.
        const uint32_t majority = m_shared.config.replicas / 2 + 1;
        for (size_t s = 0; s < a.shards.size(); ++s)
        {
            if (!a.primaryAnswered[s] || a.answered[s] < majority)
            {
                return;
            }
        }
        LogRequest(a);
        Complete(message.slot);
        return;
    }
    if (message.op == TpccMessage::Op::ReadAnswer)
    {
        a.ops[i].assign(message.ops.begin(), message.ops.end());
        if (message.ok && m_shared.config.system == TpccSystem::Lock)
        {
            a.locked.push_back(message.shard);
        }
    }
    if (message.op == TpccMessage::Op::PrepareAnswer && message.ok)
    {
        a.locked.push_back(message.shard);
        a.logged.emplace_back(m_shared.ServerOf(message.shard, 0), message.decision);
    }
    a.failed = a.failed || !message.ok;
    a.pendingShards.erase(std::find(a.pendingShards.begin(), a.pendingShards.end(), message.shard));
    if (a.pendingShards.empty())
    {
        RoundDone(message.slot);
    }
}

void
TpccApp::RoundDone(uint32_t slot)
{
    Attempt& a = m_window[slot];
    if (a.failed)
    {
        Abort(slot, a.phase == Phase::Prepare);
        return;
    }
    switch (a.phase)
    {
    case Phase::Read: {
        // Execute on the values read; each shard's operations with what they read and write.
        m_answers.values.clear();
        for (const auto& ops : a.ops)
        {
            for (const txn::HistoryOp& op : ops)
            {
                m_answers.values.emplace_back(op.key, op.value);
            }
        }
        std::vector<std::vector<txn::HistoryOp>>& versions = m_reads;
        versions.swap(a.ops); // the reads answered, with their versions; storage reused
        a.ops.resize(versions.size());
        for (auto& ops : a.ops)
        {
            ops.clear();
        }
        m_accesses.clear();
        m_shared.workload->Execute(a.txn, OwnWritesView(m_answers, m_accesses), m_accesses);
        for (const txn::Access& access : m_accesses)
        {
            const size_t i = ShardIndex(a, m_shared.workload->PartitionOf(access.key));
            std::optional<uint64_t> version;
            for (const txn::HistoryOp& read : versions[i])
            {
                if (read.key == access.key && access.type == txn::AccessType::Read)
                {
                    version = read.version;
                }
            }
            a.ops[i].push_back(txn::HistoryOp{access.type, access.key, access.value, version});
        }
        LogRequest(a);
        if (m_shared.config.system == TpccSystem::Lock)
        {
            a.phase = Phase::Commit;
            RoundToPrimaries(slot, TpccMessage::Op::Commit);
            return;
        }
        a.phase = Phase::Prepare;
        RoundToPrimaries(slot, TpccMessage::Op::Prepare);
        return;
    }
    case Phase::Prepare:
        ResolveDecisions(a, true);
        a.phase = Phase::Commit;
        RoundToPrimaries(slot, TpccMessage::Op::Commit);
        return;
    case Phase::Commit:
        Complete(slot);
        return;
    default:
        return;
    }
}

void
TpccApp::LogRequest(Attempt& a)
{
    a.result.clear();
    for (const auto& ops : a.ops)
    {
        for (const txn::HistoryOp& op : ops)
        {
            a.result.push_back(txn::HistoryOp{op.type, op.key, op.value, std::nullopt});
        }
    }
    if (m_shared.clientLog != nullptr)
    {
        // Written once the operations are known (the independent transactions' values come
        // from the replicas), with the time the attempt was sent.
        txn::LogClient(*m_shared.clientLog, m_id, a.attempt, a.logical,
                       m_shared.workload->KindNames()[a.txn.kind], txn::Event::Send,
                       txn::By::Client, a.result, a.sentNs);
    }
}

void
TpccApp::Complete(uint32_t slot)
{
    Attempt& a = m_window[slot];
    if (m_shared.clientLog != nullptr)
    {
        txn::LogClient(*m_shared.clientLog, m_id, a.attempt, a.logical,
                       m_shared.workload->KindNames()[a.txn.kind], txn::Event::Commit,
                       txn::By::Server, a.result, NowPs() / kPsPerNs);
    }
    if (m_shared.config.measurement.Measured(NowPs()))
    {
        ++m_shared.results.commits[a.txn.kind];
        m_shared.results.latencyPs[a.txn.kind].push_back(NowPs() - a.startPs);
    }
    if (a.recalled)
    {
        m_shared.failures.affectedLatencyPs.push_back(NowPs() - a.startPs);
    }
    NextTransaction(slot);
}

void
TpccApp::Abort(uint32_t slot, bool logged)
{
    Attempt& a = m_window[slot];
    ResolveDecisions(a, false);
    if (!a.locked.empty())
    {
        RoundToPrimaries(slot, TpccMessage::Op::Abort);
    }
    if (logged && m_shared.clientLog != nullptr)
    {
        txn::LogClient(*m_shared.clientLog, m_id, a.attempt, a.logical,
                       m_shared.workload->KindNames()[a.txn.kind], txn::Event::Abort,
                       txn::By::Server, a.result, NowPs() / kPsPerNs);
    }
    if (m_shared.config.measurement.Measured(NowPs()))
    {
        ++m_shared.results.aborts[a.txn.kind];
    }
    ++a.retries;
    a.phase = Phase::Idle;
    const int64_t backoffPs = RetryBackoffPs(m_shared.config.backoffPs, a.retries, m_rng);
    a.timer = ns3::Simulator::Schedule(Ps(backoffPs), &TpccApp::Begin, this, slot);
}

void
TpccApp::ResolveDecisions(Attempt& a, bool committed)
{
    for (const auto& [server, decision] : a.logged)
    {
        m_shared.apps[server]->Log()->Resolve(decision, committed);
    }
    a.logged.clear();
}

} // namespace incsim::onepipe::apps
