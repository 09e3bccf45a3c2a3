// WorkerThread as a participant: the lock, validate, commit-backup and commit-primary phases
// at the primaries and backups, version copy and validate & read of read-only transactions,
// and the fence and decision of a timed-out attempt's resolution (docs/switchtx.md, "Hosts").

#include "protocols/switchtx/worker-thread.h"

#include "sim/core/sim-time.h"

namespace incsim::switchtx
{

namespace
{
constexpr uint32_t kHeaderBytes = DataMessage::kHeaderBytes;
constexpr uint32_t kItemBytes = DataMessage::kItemBytes;

/// Whether txn id `a` is of a later attempt of its slot than `b` (16-bit counters wrap).
bool
Later(uint32_t a, uint32_t b)
{
    return static_cast<int16_t>(static_cast<uint16_t>(a >> kSlotBits) -
                                static_cast<uint16_t>(b >> kSlotBits)) > 0;
}
} // namespace

WorkerThread::Participation&
WorkerThread::Slot(uint32_t txnId)
{
    return m_participations[SlotOf(txnId)];
}

WorkerThread::Participation*
WorkerThread::Current(uint32_t txnId)
{
    const auto it = m_participations.find(SlotOf(txnId));
    return it != m_participations.end() && it->second.txnId == txnId && it->second.plan
               ? &it->second
               : nullptr;
}

bool
WorkerThread::TakenOver(const PlanOp& op) const
{
    return op.primary != m_host && !m_cluster.Alive(op.primary) &&
           m_cluster.GetPlacement().Primary(op.shard) == m_host;
}

ServerLog::Handle
WorkerThread::RowFor(Participation& p, uint32_t shard)
{
    for (const auto& [s, row] : p.rows)
    {
        if (s == shard)
        {
            return row;
        }
    }
    const TxnPlan& plan = *p.plan;
    const ServerLog::Handle row = m_cluster.Log(m_host).Append(
        shard, 0, plan.client, plan.attempt, false, false, NowPs() / kPsPerNs);
    p.rows.emplace_back(shard, row);
    return row;
}

ServerLog::Handle
WorkerThread::PendingRowFor(Participation& p, uint32_t shard, bool commitSettles)
{
    const size_t before = p.rows.size();
    const ServerLog::Handle row = RowFor(p, shard);
    if (p.rows.size() > before)
    {
        m_cluster.Recorder().AddPending(p.plan->client, p.plan->attempt,
                                        &m_cluster.Log(m_host), row, commitSettles);
    }
    return row;
}

WorkerThread::Participation*
WorkerThread::Adopt(const DataMessage& message)
{
    Participation& p = Slot(message.txnId);
    if (p.txnId == message.txnId)
    {
        if (!p.plan)
        {
            p.plan = message.plan;
        }
        return &p;
    }
    if (p.txnId != 0 && !Later(message.txnId, p.txnId))
    {
        return nullptr;  // an earlier attempt of the slot, settled here already
    }
    // The client's later attempt: the earlier one is over at its client. If it aborted, its
    // abort may still be queued here behind this message (+Reorder serves a retry's messages
    // first): release it now. (A commit the client waits for, so it is done here already.)
    // A command that came early may be for this attempt or a still later one (it overtook
    // this message in the queue): keep it.
    if (p.plan)
    {
        Release(p);
    }
    const uint32_t earlyTxnId = p.earlyTxnId;
    const MsgType earlyCommand = p.earlyCommand;
    // Reset, keeping the vectors' capacity (no allocation per attempt once warm).
    auto rows = std::move(p.rows);
    auto copied = std::move(p.copiedVersions);
    rows.clear();
    copied.clear();
    p = Participation{};
    p.rows = std::move(rows);
    p.copiedVersions = std::move(copied);
    p.txnId = message.txnId;
    p.plan = message.plan;
    if (earlyTxnId == message.txnId || (earlyTxnId != 0 && Later(earlyTxnId, message.txnId)))
    {
        p.earlyTxnId = earlyTxnId;
        p.earlyCommand = earlyCommand;
    }
    return &p;
}

void
WorkerThread::OnPlan(uint32_t, const DataMessage& message)
{
    if (!m_cluster.Alive(message.plan->clientHost))
    {
        return;  // a crashed coordinator's: the recovery server decides its attempts
    }
    Participation* found = Adopt(message);
    if (!found)
    {
        return;
    }
    Participation& p = *found;
    // With +Reorder, the client's fence or abort (high class) may have overtaken its plan
    // in the queue: then nothing is to be done with it.
    if (message.kind == DataMessage::Kind::Plan && !p.over && !p.fenced)
    {
        const TxnPlan& plan = *p.plan;
        if (plan.readOnly)
        {
            VersionCopy(p);
        }
        else if (Contains(plan.writePrimaries, m_host))
        {
            Lock(p);
        }
    }
    if (p.earlyTxnId == p.txnId)
    {
        p.earlyTxnId = 0;
        OnCommand(p.txnId, p.earlyCommand, p.plan->retry);
    }
}

void
WorkerThread::OnCommand(uint32_t txnId, MsgType command, bool)
{
    if (!m_cluster.Alive(m_cluster.Slots().HostOf(SlotOf(txnId))))
    {
        return;  // a crashed coordinator's attempt: the recovery server decides it
    }
    Participation& p = Slot(txnId);
    if (p.txnId != txnId || !p.plan)
    {
        if (p.txnId == 0 || Later(txnId, p.txnId))
        {
            p.earlyTxnId = txnId;  // came before the plan, by another path
            p.earlyCommand = command;
        }
        else
        {
            ++m_cluster.Stats().staleDropped;
        }
        return;
    }
    if (p.over || p.fenced)
    {
        return;
    }
    if (command == MsgType::Fail)
    {
        Release(p);
        p.over = true;
        return;
    }
    const Phase done = CompletedBy(command);
    if (done == Phase::Done)
    {
        return;
    }
    const Phase next = NextPhase(*p.plan, done);
    if (next != Phase::Done && Contains(Members(*p.plan, next), m_host))
    {
        DoPhase(p, next);
    }
}

void
WorkerThread::DoPhase(Participation& p, Phase phase)
{
    switch (phase)
    {
    case Phase::Validate:
        Validate(p);
        return;
    case Phase::CommitBackup:
        if (!p.backupHeld)
        {
            CommitBackup(p);
            ReplyPhase(p, MsgType::ReplicateOk);
        }
        return;
    case Phase::CommitPrimary:
        if (!p.primaryCommitted && p.locked)
        {
            CommitPrimary(p);
            ReplyPhase(p, MsgType::CommitOk);
        }
        return;
    case Phase::ValidateRead:
        ValidateRead(p);
        return;
    default:
        return;
    }
}

void
WorkerThread::Lock(Participation& p)
{
    const TxnPlan& plan = *p.plan;
    bool ok = true;
    size_t locked = 0;
    for (; locked < plan.ops.size() && ok; ++locked)
    {
        const PlanOp& op = plan.ops[locked];
        if (op.primary != m_host)
        {
            continue;
        }
        ShardStore& store = m_cluster.StoreAt(op.shard, m_host);
        if (op.type == txn::AccessType::Write)
        {
            ok = store.TryLock(op.key, p.txnId);
        }
        else if (op.alsoWritten)
        {
            // A read-modify-write key is validated here, under its lock ([D] 9).
            ok = store.Validate(op.key, op.version, p.txnId);
        }
    }
    if (!ok)
    {
        for (size_t i = 0; i < locked; ++i)
        {
            const PlanOp& op = plan.ops[i];
            if (op.primary == m_host && op.type == txn::AccessType::Write)
            {
                m_cluster.StoreAt(op.shard, m_host).Unlock(op.key, p.txnId);
            }
        }
        p.over = true;
        ReplyPhase(p, MsgType::Fail);
        return;
    }
    p.locked = true;
    p.lockedPs = NowPs();
    ReplyPhase(p, MsgType::LockOk);
}

void
WorkerThread::Validate(Participation& p)
{
    if (p.validated || p.over)
    {
        return;  // validated already
    }
    const TxnPlan& plan = *p.plan;
    for (const PlanOp& op : plan.ops)
    {
        if (op.primary == m_host && op.type == txn::AccessType::Read && !op.alsoWritten &&
            !m_cluster.StoreAt(op.shard, m_host).Validate(op.key, op.version, p.txnId) &&
            m_cluster.Config().fault != Fault::ValidatorSkipsCheck)
        {
            Release(p);
            p.over = true;
            ReplyPhase(p, MsgType::Fail);
            return;
        }
    }
    // The reads' serialization point here: the decisions (one per shard this host leads)
    // take their place in the log now, their fate settled later (ServerLog).
    p.validated = true;
    ServerLog& log = m_cluster.Log(m_host);
    const bool alsoPrimary = Contains(plan.writePrimaries, m_host);
    for (const PlanOp& op : plan.ops)
    {
        if (op.primary != m_host)
        {
            continue;
        }
        const ServerLog::Handle row = PendingRowFor(p, op.shard, !alsoPrimary);
        if (!alsoPrimary)
        {
            log.Ops(row).push_back(txn::HistoryOp{op.type, op.key, op.value, op.version});
        }
    }
    ReplyPhase(p, MsgType::ValidateOk);
}

void
WorkerThread::CommitBackup(Participation& p)
{
    const TxnPlan& plan = *p.plan;
    const Placement& placement = m_cluster.GetPlacement();
    ServerLog& log = m_cluster.Log(m_host);
    // One decision per written shard this server backs up in the plan. A shard it has taken
    // over since (its primary crashed) is installed the same way, and logged as the shard's
    // primary once the attempt is decided (FinishTakeover).
    for (size_t first = 0; first < plan.ops.size(); ++first)
    {
        const PlanOp& head = plan.ops[first];
        const uint32_t shard = head.shard;
        const uint32_t replica = placement.ReplicaOn(shard, m_host);
        bool seenBefore = false;
        bool written = false;
        for (size_t i = 0; i < plan.ops.size() && !seenBefore; ++i)
        {
            seenBefore = i < first && plan.ops[i].shard == shard;
            written = written || (plan.ops[i].shard == shard &&
                                  plan.ops[i].type == txn::AccessType::Write);
        }
        if (replica == Placement::kNoReplica || head.primary == m_host || seenBefore ||
            !written)
        {
            continue;
        }
        ShardStore& store = m_cluster.Replica(shard, replica);
        const bool takenOver = TakenOver(head);
        const ServerLog::Handle row =
            takenOver ? 0
                      : log.Append(shard, replica, plan.client, plan.attempt, false, false,
                                   NowPs() / kPsPerNs);
        for (size_t i = first; i < plan.ops.size(); ++i)
        {
            const PlanOp& op = plan.ops[i];
            if (op.shard != shard || op.type != txn::AccessType::Write)
            {
                continue;
            }
            const uint64_t version = m_cluster.Config().fault == Fault::BackupSkipsInstall
                                         ? store.Get(op.key).version + 1
                                         : store.Install(op.key, op.value);
            if (!takenOver)
            {
                log.Ops(row).push_back(txn::HistoryOp{op.type, op.key, op.value, version});
            }
        }
        if (!takenOver)
        {
            log.Settle(row, true);
        }
    }
    p.backupHeld = true;
}

void
WorkerThread::CommitPrimary(Participation& p)
{
    const TxnPlan& plan = *p.plan;
    ServerLog& log = m_cluster.Log(m_host);
    for (const PlanOp& op : plan.ops)
    {
        if (op.primary != m_host)
        {
            continue;
        }
        ShardStore& store = m_cluster.StoreAt(op.shard, m_host);
        const uint64_t version =
            op.type == txn::AccessType::Write ? store.Install(op.key, op.value) : op.version;
        log.Ops(RowFor(p, op.shard)).push_back(txn::HistoryOp{op.type, op.key, op.value, version});
    }
    UnlockWrites(p);
    p.primaryCommitted = true;
    for (const auto& [shard, row] : p.rows)
    {
        log.Settle(row, true);
    }
    m_cluster.Recorder().Settle(plan.client, plan.attempt, true);
}

void
WorkerThread::VersionCopy(Participation& p)
{
    const TxnPlan& plan = *p.plan;
    p.copiedVersions.clear();
    for (const PlanOp& op : plan.ops)
    {
        if (op.primary == m_host)
        {
            p.copiedVersions.push_back(m_cluster.StoreAt(op.shard, m_host).Get(op.key).version);
        }
    }
    if (m_cluster.Config().gasBench)
    {
        m_cluster.Stats().gas.Sent(plan.client, plan.attempt, NowPs());
    }
    ReplyPhase(p, MsgType::VersionCopyOk);
}

void
WorkerThread::ValidateRead(Participation& p)
{
    if (p.over)
    {
        return;
    }
    p.over = true;
    const TxnPlan& plan = *p.plan;
    DataMessage reply;
    reply.kind = DataMessage::Kind::ReadOnlyResult;
    reply.wireType = MsgType::ReadData;
    reply.txnId = p.txnId;
    reply.retry = plan.retry;
    reply.srcHost = m_host;
    reply.flag = true;
    size_t i = 0;
    for (const PlanOp& op : plan.ops)
    {
        if (op.primary != m_host)
        {
            continue;
        }
        const ShardStore::Record record = m_cluster.StoreAt(op.shard, m_host).Get(op.key);
        if (record.version != p.copiedVersions[i++] || record.lockOwner != 0)
        {
            reply.flag = false;
            reply.items.clear();
            break;
        }
        reply.items.push_back(DataMessage::Item{op.key, record.value, record.version});
    }
    if (reply.flag)
    {
        ServerLog& log = m_cluster.Log(m_host);
        size_t item = 0;
        for (const PlanOp& op : plan.ops)
        {
            if (op.primary != m_host)
            {
                continue;
            }
            const ServerLog::Handle row = PendingRowFor(p, op.shard, true);
            const DataMessage::Item& read = reply.items[item++];
            log.Ops(row).push_back(
                txn::HistoryOp{txn::AccessType::Read, read.key, read.value, read.version});
        }
    }
    reply.bytes = kHeaderBytes + static_cast<uint32_t>(reply.items.size()) * kItemBytes;
    m_cluster.SendData(m_host, plan.clientHost, m_thread, reply);
}

void
WorkerThread::UnlockWrites(Participation& p)
{
    for (const PlanOp& op : p.plan->ops)
    {
        if (op.primary == m_host && op.type == txn::AccessType::Write)
        {
            m_cluster.StoreAt(op.shard, m_host).Unlock(op.key, p.txnId);
        }
    }
    ClusterStats& stats = m_cluster.Stats();
    ++stats.lockHolds;
    stats.lockHeldPs += NowPs() - p.lockedPs;
    stats.lockTimesPs.push_back(NowPs() - p.lockedPs);
    p.locked = false;
}

void
WorkerThread::Release(Participation& p)
{
    if (p.locked)
    {
        UnlockWrites(p);
    }
    for (const auto& [shard, row] : p.rows)
    {
        if (m_cluster.Log(m_host).Pending(row))
        {
            m_cluster.Log(m_host).Settle(row, false);
        }
    }
    ReleaseTakeover(p);
}

void
WorkerThread::SendFenceReply(uint32_t client, uint32_t txnId, bool installed)
{
    DataMessage reply;
    reply.kind = DataMessage::Kind::FenceReply;
    reply.wireType = MsgType::Abort;
    reply.txnId = txnId;
    reply.retry = true;
    reply.flag = installed;
    reply.srcHost = m_host;
    reply.bytes = kHeaderBytes;
    m_cluster.SendData(m_host, client, m_thread, reply);
}

void
WorkerThread::OnFence(uint32_t src, const DataMessage& message)
{
    Participation* p = Adopt(message);
    if (p)
    {
        p->fenced = true;
    }
    SendFenceReply(src, message.txnId, p && (p->primaryCommitted || p->backupHeld));
}

void
WorkerThread::OnDecide(const DataMessage& message)
{
    Participation* p = Adopt(message);
    const bool live = p && (!p->over || p->fenced);
    if (!message.flag)
    {
        if (p)
        {
            Release(*p);  // idempotent: also settles a validation done after the fail
            p->over = true;
        }
        return;
    }
    // Committed: finish what the lost control messages did not, and say so.
    const TxnPlan& plan = *message.plan;
    if (live)
    {
        if (!p->backupHeld && Contains(plan.writeBackups, m_host))
        {
            CommitBackup(*p);
        }
        if (!p->primaryCommitted && p->locked)
        {
            CommitPrimary(*p);
        }
        FinishTakeover(*p);
        p->over = true;
    }
    if (Contains(plan.writePrimaries, m_host) || Contains(plan.writeBackups, m_host))
    {
        SendFenceReply(plan.clientHost, message.txnId, true);
    }
}

void
WorkerThread::ServeRead(uint32_t src, const DataMessage& message)
{
    DataMessage reply;
    reply.kind = DataMessage::Kind::ReadReply;
    reply.wireType = MsgType::Read;
    reply.txnId = message.txnId;
    reply.retry = message.retry;
    reply.srcHost = m_host;
    reply.items = message.items;
    for (DataMessage::Item& item : reply.items)
    {
        const ShardStore::Record record =
            m_cluster.StoreAt(m_cluster.Workload().PartitionOf(item.key), m_host).Get(item.key);
        item.value = record.value;
        item.version = record.version;
    }
    reply.bytes = kHeaderBytes + static_cast<uint32_t>(reply.items.size()) * kItemBytes;
    m_cluster.SendData(m_host, src, m_thread, reply);
}

void
WorkerThread::ReplyPhase(const Participation& p, MsgType type)
{
    const TxnPlan& plan = *p.plan;
    if (m_cluster.Config().mode == Mode::Fasst || plan.serverDriven)
    {
        DataMessage reply;
        reply.kind = DataMessage::Kind::PhaseReply;
        reply.wireType = type;
        reply.command = type;
        reply.txnId = p.txnId;
        reply.retry = plan.retry;
        reply.srcHost = m_host;
        reply.bytes = kHeaderBytes;
        m_cluster.SendData(m_host, plan.clientHost, m_thread, reply);
        return;
    }
    if (type == MsgType::CommitOk && m_cluster.Config().fault == Fault::LoseFirstCommitOk &&
        !m_lostCommitOk)
    {
        m_lostCommitOk = true;
        return;
    }
    ControlHeader header;
    header.type = type;
    header.retry = plan.retry;
    header.txnId = p.txnId;
    header.count = 1;
    GasRoute& route = *m_cluster.Route();
    header.slices = route.Slices(plan, type, m_host);
    m_cluster.SendControl(m_host, route.GatherHost(plan.clientHost), m_thread, header);
    if (type == MsgType::Fail && plan.clientHost == m_host)
    {
        // The scatter skips the fail's sender, which here is also the client's server.
        if (ClientSlot* slot = MySlot(p.txnId))
        {
            OnClientControl(*slot, header);
        }
    }
}

} // namespace incsim::switchtx
