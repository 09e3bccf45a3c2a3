#include "protocols/onepipe/apps/kvs-app.h"

#include "sim/core/sim-time.h"
#include "sim/trace/csv-writer.h"

#include <ns3/simulator.h>

#include <algorithm>

namespace incsim::onepipe::apps
{

namespace
{
/// A message's fixed part: type, initiator, slot, attempt.
constexpr uint32_t kMessageHeaderBytes = 16;
constexpr uint32_t kKeyBytes = 8;
constexpr uint32_t kVersionBytes = 8;

bool
Contains(const std::vector<uint32_t>& v, uint32_t x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}
} // namespace

KvsApp::KvsApp(OnePipeEndpoint& endpoint, uint32_t id, KvsShared& shared, Rng rng)
    : m_endpoint(endpoint),
      m_id(id),
      m_shared(shared),
      m_rng(rng),
      m_window(shared.config.window),
      m_log(shared.serverLog, id, id, 0)
{
    m_endpoint.SetReceiveCallback([this](const Delivered& message) { Receive(message); });
}

KvsApp::~KvsApp()
{
    m_startEvent.Cancel();
    for (Attempt& a : m_window)
    {
        a.timer.Cancel();
    }
}

uint32_t
KvsApp::ServerOf(uint64_t key) const
{
    return m_shared.workload->PartitionOf(key);
}

void
KvsApp::Start()
{
    m_startEvent = ScheduleStart(m_shared.config.measurement, [this]() {
        for (uint32_t slot = 0; slot < m_window.size(); ++slot)
        {
            NextTransaction(slot);
        }
    });
}

void
KvsApp::NextTransaction(uint32_t slot)
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
    a.startPs = NowPs();
    Begin(slot);
}

void
KvsApp::Begin(uint32_t slot)
{
    Attempt& a = m_window[slot];
    a.attempt = m_nextAttempt++;
    a.accesses.clear();
    m_shared.workload->Execute(a.txn, NoValues{}, a.accesses);
    a.result.clear();
    a.servers.clear();
    a.locked.clear();
    a.logged.clear();
    a.answered.clear();
    a.failed = false;
    for (const txn::Access& access : a.accesses)
    {
        a.result.push_back(txn::HistoryOp{access.type, access.key, access.value, std::nullopt});
        const uint32_t server = ServerOf(access.key);
        if (!Contains(a.servers, server))
        {
            a.servers.push_back(server);
        }
    }
    if (m_shared.clientLog != nullptr)
    {
        txn::LogClient(*m_shared.clientLog, m_id, a.attempt, a.logical,
                       m_shared.workload->KindNames()[a.txn.kind], txn::Event::Send,
                       txn::By::Client, a.result, NowPs() / kPsPerNs);
    }
    const bool readOnly = a.txn.kind == txn::MultiKvWorkload::kReadOnly;
    switch (m_shared.config.system)
    {
    case KvsSystem::OnePipe: {
        const bool bestEffort = readOnly && m_shared.config.readOnlyBestEffort;
        a.phase = Phase::Execute;
        Scatter(slot, KvsMessage::Op::Execute, true, true, !bestEffort);
        if (bestEffort)
        {
            a.timer = ns3::Simulator::Schedule(Ps(m_shared.config.retryTimeoutPs),
                                               &KvsApp::RetryTimeout, this, slot);
        }
        break;
    }
    case KvsSystem::NonTx:
        a.phase = Phase::Execute;
        Scatter(slot, KvsMessage::Op::Execute, true, true, false);
        break;
    case KvsSystem::Farm:
        if (a.txn.kind == txn::MultiKvWorkload::kWriteOnly)
        {
            a.phase = Phase::Lock;
            Scatter(slot, KvsMessage::Op::Lock, false, true, false);
        }
        else
        {
            a.phase = Phase::Read;
            Scatter(slot, KvsMessage::Op::Read, true, false, false);
        }
        break;
    }
}

void
KvsApp::Scatter(uint32_t slot, KvsMessage::Op op, bool reads, bool writes, bool reliable)
{
    Attempt& a = m_window[slot];
    m_scattering.clear();
    a.pending = 0;
    const bool decideAtRead = op == KvsMessage::Op::Read && a.accesses.size() == 1;
    for (uint32_t server : a.servers)
    {
        uint64_t tag = 0;
        for (const txn::HistoryOp& op0 : a.result)
        {
            const bool isWrite = op0.type == txn::AccessType::Write;
            if (ServerOf(op0.key) != server || (isWrite ? !writes : !reads))
            {
                continue;
            }
            if (tag == 0)
            {
                tag = m_shared.messages.Acquire();
                KvsMessage& m = m_shared.messages.Get(tag);
                m.op = op;
                m.ok = true;
                m.reliable = reliable;
                m.decideAtRead = decideAtRead;
                m.logged = false;
                m.initiator = m_id;
                m.slot = slot;
                m.attempt = a.attempt;
                m.ops.clear();
            }
            m_shared.messages.Get(tag).ops.push_back(op0);
        }
        if (tag != 0)
        {
            m_scattering.push_back(Outgoing{server, Bytes(m_shared.messages.Get(tag)), tag});
            ++a.pending;
        }
    }
    Send(m_scattering, reliable);
}

void
KvsApp::Send(std::vector<Outgoing>& scattering, bool reliable)
{
    if (reliable)
    {
        m_endpoint.ReliableSend(scattering);
    }
    else
    {
        m_endpoint.UnreliableSend(scattering);
    }
}

uint32_t
KvsApp::Bytes(const KvsMessage& message) const
{
    using Op = KvsMessage::Op;
    uint32_t bytes = kMessageHeaderBytes;
    const uint32_t value = m_shared.config.valueBytes;
    for (const txn::HistoryOp& op : message.ops)
    {
        bytes += kKeyBytes;
        const bool write = op.type == txn::AccessType::Write;
        switch (message.op)
        {
        case Op::Execute:
        case Op::Commit:
            bytes += write ? value : 0;
            break;
        case Op::Answer:
            bytes += write ? 0 : value;
            break;
        case Op::ReadAnswer:
            bytes += value + kVersionBytes;
            break;
        case Op::Validate:
            bytes += write ? 0 : kVersionBytes;
            break;
        default:
            break;
        }
    }
    return bytes;
}

void
KvsApp::Receive(const Delivered& delivered)
{
    KvsMessage& message = m_shared.messages.Get(delivered.tag);
    switch (message.op)
    {
    case KvsMessage::Op::Answer:
    case KvsMessage::Op::ReadAnswer:
    case KvsMessage::Op::LockAnswer:
    case KvsMessage::Op::ValidateAnswer:
    case KvsMessage::Op::CommitAnswer:
        Answered(message);
        m_shared.messages.Release(delivered.tag);
        return;
    default:
        Serve(delivered.src, message, delivered.tag);
    }
}

void
KvsApp::Serve(uint32_t src, KvsMessage& message, uint64_t tag)
{
    using Op = KvsMessage::Op;
    const int64_t nowNs = NowPs() / kPsPerNs;
    const uint32_t owner = message.initiator + 1;
    auto lockedByOther = [&](const Entry& e) {
        return e.lockOwner != 0 && (e.lockOwner != owner || e.lockAttempt != message.attempt);
    };
    switch (message.op)
    {
    case Op::Execute: {
        // 1Pipe: in timestamp order (the endpoint delivers so), no locks. NonTX: on arrival.
        for (txn::HistoryOp& op : message.ops)
        {
            Entry& e = m_store[op.key];
            if (op.type == txn::AccessType::Write)
            {
                e.value = op.value;
                ++e.version;
            }
            else
            {
                op.value = e.value;
            }
        }
        const bool open = !message.reliable && m_shared.config.system == KvsSystem::OnePipe;
        message.decision = m_log.Append(message.initiator, message.attempt, message.ops, nowNs,
                                        open ? std::nullopt : std::optional<bool>(true));
        message.logged = open;
        message.op = Op::Answer;
        break;
    }
    case Op::Read:
        for (txn::HistoryOp& op : message.ops)
        {
            const auto it = m_store.find(op.key);
            const Entry e = it == m_store.end() ? Entry{} : it->second;
            message.ok = message.ok && !lockedByOther(e);
            op.value = e.value;
            op.version = e.version;
        }
        if (message.decideAtRead && message.ok)
        {
            m_ops.assign(message.ops.begin(), message.ops.end());
            m_ops.front().version.reset();
            m_log.Append(message.initiator, message.attempt, m_ops, nowNs, true);
        }
        message.op = Op::ReadAnswer;
        break;
    case Op::Lock:
        for (const txn::HistoryOp& op : message.ops)
        {
            const auto it = m_store.find(op.key);
            message.ok = message.ok && (it == m_store.end() || !lockedByOther(it->second));
        }
        if (message.ok)
        {
            for (const txn::HistoryOp& op : message.ops)
            {
                Entry& e = m_store[op.key];
                e.lockOwner = owner;
                e.lockAttempt = message.attempt;
            }
        }
        message.op = Op::LockAnswer;
        break;
    case Op::Validate:
        m_ops.clear();
        for (const txn::HistoryOp& op : message.ops)
        {
            const auto it = m_store.find(op.key);
            const Entry e = it == m_store.end() ? Entry{} : it->second;
            if (op.type != txn::AccessType::Write)
            {
                message.ok = message.ok && !lockedByOther(e) && e.version == op.version;
            }
            m_ops.push_back(txn::HistoryOp{op.type, op.key, op.value, std::nullopt});
        }
        if (message.ok)
        {
            // The transaction's place in this server's order: its reads are current and its
            // writes locked until the commit installs them.
            message.decision =
                m_log.Append(message.initiator, message.attempt, m_ops, nowNs, std::nullopt);
            message.logged = true;
        }
        message.op = Op::ValidateAnswer;
        break;
    case Op::Commit:
        for (const txn::HistoryOp& op : message.ops)
        {
            Entry& e = m_store[op.key];
            e.value = op.value;
            ++e.version;
            e.lockOwner = 0;
        }
        message.op = Op::CommitAnswer;
        break;
    case Op::Unlock:
        for (const txn::HistoryOp& op : message.ops)
        {
            const auto it = m_store.find(op.key);
            if (it != m_store.end() && !lockedByOther(it->second))
            {
                it->second.lockOwner = 0;
            }
        }
        m_shared.messages.Release(tag);
        return;
    default:
        m_shared.messages.Release(tag);
        return;
    }
    m_scattering.clear();
    m_scattering.push_back(Outgoing{src, Bytes(message), tag});
    Send(m_scattering, message.reliable);
}

void
KvsApp::Answered(KvsMessage& message)
{
    Attempt& a = m_window[message.slot];
    if (a.phase == Phase::Idle || a.attempt != message.attempt)
    {
        return; // an attempt given up (best-effort retry) or already settled
    }
    const uint32_t server = ServerOf(message.ops.front().key);
    if (message.op == KvsMessage::Op::Answer || message.op == KvsMessage::Op::ReadAnswer)
    {
        for (const txn::HistoryOp& op : message.ops)
        {
            for (txn::HistoryOp& mine : a.result)
            {
                if (mine.key == op.key && mine.type != txn::AccessType::Write)
                {
                    mine.value = op.value;
                    mine.version = op.version;
                }
            }
        }
    }
    if (message.logged)
    {
        a.logged.emplace_back(server, message.decision);
    }
    if (message.op == KvsMessage::Op::Answer)
    {
        a.answered.push_back(server);
    }
    if (message.op == KvsMessage::Op::LockAnswer && message.ok)
    {
        a.locked.push_back(server);
    }
    a.failed = a.failed || !message.ok;
    if (--a.pending == 0)
    {
        PhaseDone(message.slot);
    }
}

void
KvsApp::PhaseDone(uint32_t slot)
{
    Attempt& a = m_window[slot];
    if (a.failed)
    {
        Abort(slot);
        return;
    }
    const bool readOnly = a.txn.kind == txn::MultiKvWorkload::kReadOnly;
    switch (a.phase)
    {
    case Phase::Execute:
    case Phase::Commit:
        Commit(slot);
        return;
    case Phase::Read:
        if (readOnly && a.accesses.size() == 1)
        {
            Commit(slot); // decided where it read
            return;
        }
        a.phase = readOnly ? Phase::Validate : Phase::Lock;
        Scatter(slot, readOnly ? KvsMessage::Op::Validate : KvsMessage::Op::Lock, readOnly,
                !readOnly, false);
        return;
    case Phase::Lock:
        a.phase = Phase::Validate;
        Scatter(slot, KvsMessage::Op::Validate, true, true, false);
        return;
    case Phase::Validate:
        ResolveDecisions(a, true);
        if (readOnly)
        {
            Commit(slot);
            return;
        }
        a.phase = Phase::Commit;
        Scatter(slot, KvsMessage::Op::Commit, false, true, false);
        return;
    case Phase::Idle:
        return;
    }
}

void
KvsApp::Commit(uint32_t slot)
{
    Attempt& a = m_window[slot];
    a.timer.Cancel();
    ResolveDecisions(a, true);
    if (m_shared.clientLog != nullptr)
    {
        txn::LogClient(*m_shared.clientLog, m_id, a.attempt, a.logical,
                       m_shared.workload->KindNames()[a.txn.kind], txn::Event::Commit,
                       txn::By::Server, a.result, NowPs() / kPsPerNs);
    }
    // Measured from `measure_from` (after the ramp-up) while initiators start transactions;
    // the drain after `stop` only settles what is in flight (for the checker).
    if (m_shared.config.measurement.Measured(NowPs()))
    {
        KvsShared::Results& results = m_shared.results;
        ++results.txns.commits[a.txn.kind];
        results.opsCommitted += a.accesses.size();
        results.txns.latencyPs[a.txn.kind].push_back(NowPs() - a.startPs);
    }
    NextTransaction(slot);
}

void
KvsApp::Abort(uint32_t slot)
{
    Attempt& a = m_window[slot];
    a.timer.Cancel();
    ResolveDecisions(a, false);
    if (!a.locked.empty())
    {
        // Release the locks taken (no answer awaited).
        m_scattering.clear();
        for (uint32_t server : a.locked)
        {
            const uint64_t tag = m_shared.messages.Acquire();
            KvsMessage& m = m_shared.messages.Get(tag);
            m.op = KvsMessage::Op::Unlock;
            m.ok = true;
            m.reliable = false;
            m.logged = false;
            m.initiator = m_id;
            m.slot = slot;
            m.attempt = a.attempt;
            m.ops.clear();
            for (const txn::HistoryOp& op : a.result)
            {
                if (op.type == txn::AccessType::Write && ServerOf(op.key) == server)
                {
                    m.ops.push_back(op);
                }
            }
            m_scattering.push_back(Outgoing{server, Bytes(m), tag});
        }
        Send(m_scattering, false);
    }
    if (m_shared.clientLog != nullptr)
    {
        txn::LogClient(*m_shared.clientLog, m_id, a.attempt, a.logical,
                       m_shared.workload->KindNames()[a.txn.kind], txn::Event::Abort,
                       txn::By::Server, a.result, NowPs() / kPsPerNs);
    }
    if (m_shared.config.measurement.Measured(NowPs()))
    {
        ++m_shared.results.txns.aborts[a.txn.kind];
    }
    ++a.retries;
    a.phase = Phase::Idle;
    const int64_t backoffPs = RetryBackoffPs(m_shared.config.backoffPs, a.retries, m_rng);
    a.timer = ns3::Simulator::Schedule(Ps(backoffPs), &KvsApp::Begin, this, slot);
}

void
KvsApp::ResolveDecisions(Attempt& a, bool committed)
{
    for (const auto& [server, decision] : a.logged)
    {
        m_shared.apps[server]->Log().Resolve(decision, committed);
    }
    a.logged.clear();
}

void
KvsApp::RetryTimeout(uint32_t slot)
{
    // A best-effort read-only attempt lost a message (its request or an answer): give it up
    // at every server, including those whose copy may still arrive, and read again.
    Attempt& a = m_window[slot];
    ++m_shared.results.retryTimeouts;
    ResolveDecisions(a, false);
    for (uint32_t server : a.servers)
    {
        if (!Contains(a.answered, server))
        {
            m_shared.apps[server]->Log().ResolveUnseen(m_id, a.attempt, false);
        }
    }
    if (m_shared.clientLog != nullptr)
    {
        txn::LogClient(*m_shared.clientLog, m_id, a.attempt, a.logical,
                       m_shared.workload->KindNames()[a.txn.kind], txn::Event::Abort,
                       txn::By::Server, a.result, NowPs() / kPsPerNs);
    }
    ++m_shared.results.txns.aborts[a.txn.kind];
    ++a.retries;
    Begin(slot);
}

} // namespace incsim::onepipe::apps
