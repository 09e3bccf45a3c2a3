// WorkerThread as a client: each client slot runs one attempt at a time through the execute
// phase and the commit (coordinated by the client itself in FaSST mode, by the gatherer
// otherwise), and resolves an attempt that timed out (docs/switchtx.md, "Hosts").

#include "protocols/switchtx/gas-delivery-trace.h"
#include "protocols/switchtx/worker-thread.h"

#include "protocols/txn/txn-history.h"
#include "sim/core/sim-time.h"

#include <algorithm>
#include <map>

namespace incsim::switchtx
{

namespace
{
constexpr uint32_t kHeaderBytes = DataMessage::kHeaderBytes;
constexpr uint32_t kItemBytes = DataMessage::kItemBytes;

void
SortUnique(std::vector<uint32_t>& hosts)
{
    std::sort(hosts.begin(), hosts.end());
    hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
}
} // namespace

/// What the execute phase read, as the workload's execution sees it.
class WorkerThread::SeenValues : public txn::ValueView
{
  public:
    explicit SeenValues(const std::unordered_map<uint64_t, DataMessage::Item>& seen)
        : m_seen(seen)
    {
    }
    uint64_t Value(uint64_t key) const override
    {
        const auto it = m_seen.find(key);
        return it == m_seen.end() ? 0 : it->second.value;
    }

  private:
    const std::unordered_map<uint64_t, DataMessage::Item>& m_seen;
};

WorkerThread::ClientSlot*
WorkerThread::MySlot(uint32_t txnId)
{
    const SlotLayout& slots = m_cluster.Slots();
    const uint32_t slot = SlotOf(txnId);
    if (slots.HostOf(slot) != m_host || slots.ThreadOf(slot) != m_thread)
    {
        return nullptr;
    }
    ClientSlot& mine = m_clientSlots[slots.IndexOf(slot)];
    return mine.txnId == txnId && mine.stage != Stage::Idle ? &mine : nullptr;
}

DataMessage
WorkerThread::NewMessage(DataMessage::Kind kind, MsgType wireType, const ClientSlot& slot) const
{
    DataMessage message;
    message.kind = kind;
    message.wireType = wireType;
    message.txnId = slot.txnId;
    message.retry = slot.retry;
    message.srcHost = m_host;
    message.plan = slot.plan;
    message.bytes = kHeaderBytes;
    return message;
}

void
WorkerThread::BeginAttempt(ClientSlot& slot)
{
    const ClusterConfig& config = m_cluster.Config();
    if (NowPs() >= config.stopPs)
    {
        // Clients drain: nothing new after the stop, retries included, so that every
        // attempt settles (and the replicas quiesce) before the end of a run that leaves
        // time for it.
        slot.stage = Stage::Idle;
        return;
    }
    if (!slot.inTransaction)
    {
        m_cluster.Workload().Next(ClientId(), m_rng, slot.txn);
        slot.logical = m_logicals++;
        slot.beganPs = NowPs();
        slot.inTransaction = true;
        slot.retry = false;
    }
    if (++slot.counter == 0)
    {
        slot.counter = 1;  // txn id 0 stands for no attempt
    }
    slot.txnId = MakeTxnId(m_cluster.Slots().Slot(m_host, m_thread, slot.index), slot.counter);
    if (CsvWriter* log = m_cluster.GasLog())
    {
        LogAttemptBegin(*log, m_host, m_thread, slot.txnId, NowPs() / kPsPerNs);
    }
    slot.plan.reset();
    slot.seen.clear();
    slot.readOnlyValues.clear();
    slot.lockAtPs = 0;
    slot.initPlan.reset();
    ++m_cluster.Stats().attempts;
    if (config.mode == Mode::InServer)
    {
        // The gatherer's slot becomes this attempt's; it drops the earlier one's messages.
        ControlHeader init;
        init.type = MsgType::Init;
        init.retry = slot.retry;
        init.txnId = slot.txnId;
        m_cluster.SendControl(m_host, m_cluster.Route()->GatherHost(m_host), m_thread, init);
    }
    // The keys read depend only on the arguments: execute once to learn them.
    m_accesses.clear();
    m_cluster.Workload().Execute(slot.txn, SeenValues(slot.seen), m_accesses);
    const bool writes = std::any_of(m_accesses.begin(), m_accesses.end(), [](const auto& a) {
        return a.type == txn::AccessType::Write;
    });
    if (!writes)
    {
        StartReadOnly(slot, m_accesses);
        return;
    }
    slot.stage = Stage::Executing;
    if (config.mode == Mode::InSwitch)
    {
        // The tree depends only on who takes part, which the keys give: install it in
        // parallel with the execute phase, as in-server's init ([D] 3). The execution here
        // sees the same (no) values as the one above, so m_accesses stays as it was.
        std::shared_ptr<TxnPlan> shape = BuildPlan(slot);
        if (!shape->serverDriven && SendInit(slot, *shape))
        {
            slot.initPlan = std::move(shape);
        }
    }
    SendReads(slot, m_accesses);
}

void
WorkerThread::SendReads(ClientSlot& slot, const std::vector<txn::Access>& accesses)
{
    std::map<uint32_t, DataMessage> requests;  // by primary host
    for (const txn::Access& access : accesses)
    {
        if (access.type != txn::AccessType::Read)
        {
            continue;
        }
        const uint32_t host = m_cluster.GetPlacement().Primary(
            m_cluster.Workload().PartitionOf(access.key));
        auto [it, fresh] = requests.try_emplace(host);
        if (fresh)
        {
            it->second = NewMessage(DataMessage::Kind::ReadRequest, MsgType::Read, slot);
            it->second.plan.reset();
        }
        it->second.items.push_back(DataMessage::Item{access.key, 0, 0});
    }
    slot.readsPending = static_cast<uint32_t>(requests.size());
    if (requests.empty())
    {
        StartCommit(slot);
        return;
    }
    for (auto& [host, request] : requests)
    {
        request.bytes = kHeaderBytes + static_cast<uint32_t>(request.items.size()) * 8;
        m_cluster.SendData(m_host, host, m_thread, request);
    }
}

void
WorkerThread::OnReadReply(ClientSlot& slot, const DataMessage& message)
{
    if (slot.stage != Stage::Executing)
    {
        return;
    }
    for (const DataMessage::Item& item : message.items)
    {
        slot.seen[item.key] = item;
    }
    if (--slot.readsPending == 0)
    {
        StartCommit(slot);
    }
}

void
WorkerThread::BuildShape(TxnPlan& plan) const
{
    // The shards' primaries and live backups as the membership knows them now.
    const Placement& placement = m_cluster.GetPlacement();
    for (PlanOp& op : plan.ops)
    {
        op.primary = placement.Primary(op.shard);
        if (op.type == txn::AccessType::Write)
        {
            plan.writePrimaries.push_back(op.primary);
            for (uint32_t r = 0; r < placement.replication; ++r)
            {
                if (placement.IsLiveBackup(op.shard, r))
                {
                    plan.writeBackups.push_back(placement.HostOf(op.shard, r));
                }
            }
        }
        else if (!op.alsoWritten)
        {
            plan.readPrimaries.push_back(op.primary);
        }
    }
    SortUnique(plan.writePrimaries);
    SortUnique(plan.writeBackups);
    SortUnique(plan.readPrimaries);
    plan.participants = plan.writePrimaries;
    plan.participants.insert(plan.participants.end(), plan.writeBackups.begin(),
                             plan.writeBackups.end());
    plan.participants.insert(plan.participants.end(), plan.readPrimaries.begin(),
                             plan.readPrimaries.end());
    SortUnique(plan.participants);
}

std::shared_ptr<TxnPlan>
WorkerThread::BuildPlan(const ClientSlot& slot)
{
    m_accesses.clear();
    m_cluster.Workload().Execute(slot.txn, SeenValues(slot.seen), m_accesses);
    auto plan = std::make_shared<TxnPlan>();
    plan->txnId = slot.txnId;
    plan->clientHost = m_host;
    plan->thread = m_thread;
    plan->client = ClientId();
    plan->kind = slot.txn.kind;
    plan->retry = slot.retry;
    // One read (the first access, if a read) and one write (the last value) per key.
    std::unordered_map<uint64_t, size_t> writeAt;
    std::unordered_map<uint64_t, bool> accessed;
    for (const txn::Access& access : m_accesses)
    {
        const uint32_t shard = m_cluster.Workload().PartitionOf(access.key);
        if (access.type == txn::AccessType::Write)
        {
            accessed[access.key] = true;
            const auto it = writeAt.find(access.key);
            if (it != writeAt.end())
            {
                plan->ops[it->second].value = access.value;
                continue;
            }
            writeAt[access.key] = plan->ops.size();
            plan->ops.push_back(PlanOp{access.type, access.key, access.value, 0, shard});
            continue;
        }
        if (!accessed.emplace(access.key, true).second)
        {
            continue;  // read again, or after its own write
        }
        const auto seen = slot.seen.find(access.key);
        const uint64_t version = seen == slot.seen.end() ? 0 : seen->second.version;
        plan->ops.push_back(
            PlanOp{txn::AccessType::Read, access.key, access.value, version, shard});
    }
    for (PlanOp& op : plan->ops)
    {
        op.alsoWritten = op.type == txn::AccessType::Read && writeAt.count(op.key) > 0;
    }
    BuildShape(*plan);
    std::vector<uint32_t> primaries = plan->writePrimaries;
    primaries.insert(primaries.end(), plan->readPrimaries.begin(), plan->readPrimaries.end());
    SortUnique(primaries);
    // A single-shard transaction skips the gatherer ([D] 17): its client drives it by RPC.
    plan->serverDriven = m_cluster.Config().mode == Mode::Fasst || primaries.size() == 1 ||
                         !GathererAlive();
    return plan;
}

namespace
{
bool
SameParticipants(const TxnPlan& a, const TxnPlan& b)
{
    return a.serverDriven == b.serverDriven && a.writePrimaries == b.writePrimaries &&
           a.writeBackups == b.writeBackups && a.readPrimaries == b.readPrimaries;
}
} // namespace

void
WorkerThread::StartCommit(ClientSlot& slot)
{
    std::shared_ptr<TxnPlan> plan = BuildPlan(slot);
    plan->attempt = m_attempts++;
    PrepareGather(slot, *plan);
    slot.initPlan.reset();
    slot.plan = plan;
    LogRequest(slot, NowPs() / kPsPerNs);
    slot.stage = Stage::Committing;
    StartLockPhase(slot);
}

void
WorkerThread::PrepareGather(ClientSlot& slot, TxnPlan& plan)
{
    if (plan.serverDriven)
    {
        return;
    }
    if (m_cluster.Config().mode != Mode::InSwitch)
    {
        GasSlices noInit;  // in-server's init went out at the start of the attempt
        m_cluster.Route()->Prepare(plan, noInit);
        return;
    }
    if (slot.initPlan && SameParticipants(*slot.initPlan, plan))
    {
        plan.gas = slot.initPlan->gas;
    }
    else if (!SendInit(slot, plan))  // read-only, or the values read changed who takes part
    {
        plan.serverDriven = true;
    }
}

bool
WorkerThread::SendInit(ClientSlot& slot, TxnPlan& plan)
{
    ControlHeader init;
    init.type = MsgType::Init;
    init.retry = slot.retry;
    init.txnId = slot.txnId;
    const std::optional<int64_t> waitPs = m_cluster.Route()->Prepare(plan, init.slices);
    if (!waitPs)
    {
        ++m_cluster.Stats().ungathered;
        return false;
    }
    slot.lockAtPs = NowPs() + *waitPs;
    // To the client's own address: up to the root untouched, then installed top down.
    m_cluster.SendControl(m_host, m_host, m_thread, init);
    return true;
}

void
WorkerThread::StartLockPhase(ClientSlot& slot)
{
    if (NowPs() >= slot.lockAtPs)
    {
        ArmTimer(slot);
        SendPlan(slot);
        return;
    }
    // The init has not had time to reach every tree switch: a participant's reply would find
    // a switch that does not know the attempt yet, and be dropped as stale. The plan, built,
    // leaves the NIC when it has.
    const uint32_t index = slot.index;
    const uint32_t txnId = slot.txnId;
    ns3::Simulator::Schedule(Ps(slot.lockAtPs - NowPs()), [this, index, txnId] {
        ClientSlot& waiting = m_clientSlots[index];
        if (waiting.txnId == txnId && waiting.stage == Stage::Committing)
        {
            ArmTimer(waiting);
            SendPlan(waiting);
        }
    });
}

void
WorkerThread::StartReadOnly(ClientSlot& slot, const std::vector<txn::Access>& accesses)
{
    auto plan = std::make_shared<TxnPlan>();
    plan->txnId = slot.txnId;
    plan->clientHost = m_host;
    plan->thread = m_thread;
    plan->client = ClientId();
    plan->attempt = m_attempts++;
    plan->kind = slot.txn.kind;
    plan->retry = slot.retry;
    plan->readOnly = true;
    std::unordered_map<uint64_t, bool> accessed;
    for (const txn::Access& access : accesses)
    {
        if (accessed.emplace(access.key, true).second)
        {
            const uint32_t shard = m_cluster.Workload().PartitionOf(access.key);
            plan->ops.push_back(PlanOp{txn::AccessType::Read, access.key, 0, 0, shard});
        }
    }
    BuildShape(*plan);
    plan->serverDriven = m_cluster.Config().mode == Mode::Fasst ||
                         plan->readPrimaries.size() == 1 || !GathererAlive();
    PrepareGather(slot, *plan);
    slot.plan = plan;
    slot.stage = Stage::Committing;
    StartLockPhase(slot);
}

void
WorkerThread::SendPlan(ClientSlot& slot)
{
    const TxnPlan& plan = *slot.plan;
    const GasRoute* route = m_cluster.Route();
    slot.replies = 0;
    if (plan.readOnly)
    {
        slot.phase = Phase::VersionCopy;
        // The request is logged once the values are known (at the answer), with this time.
        slot.sentPs = NowPs();
        for (uint32_t host : plan.readPrimaries)
        {
            DataMessage message = NewMessage(DataMessage::Kind::Plan, MsgType::LockRequest, slot);
            message.bytes += route && plan.gas ? route->PlanBytes(plan, host) : 0;
            m_cluster.SendData(m_host, host, m_thread, message);
        }
        return;
    }
    slot.phase = Phase::Lock;
    const auto bytesFor = [&plan](uint32_t host) {
        uint32_t items = 0;
        for (const PlanOp& op : plan.ops)
        {
            items += op.shard == host ? 1 : 0;
        }
        return kHeaderBytes + items * kItemBytes;
    };
    const std::vector<uint32_t>& targets = plan.serverDriven ? plan.writePrimaries
                                                             : plan.participants;
    for (uint32_t host : targets)
    {
        const bool lockOrValidate =
            Contains(plan.writePrimaries, host) || Contains(plan.readPrimaries, host);
        DataMessage message = NewMessage(
            DataMessage::Kind::Plan,
            lockOrValidate ? MsgType::LockRequest : MsgType::WriteData, slot);
        message.bytes = bytesFor(host) + (route && plan.gas ? route->PlanBytes(plan, host) : 0);
        m_cluster.SendData(m_host, host, m_thread, message);
    }
}

void
WorkerThread::OnPhaseReply(ClientSlot& slot, const DataMessage& message)
{
    if (slot.stage != Stage::Committing)
    {
        return;
    }
    const TxnPlan& plan = *slot.plan;
    if (message.command == MsgType::Fail)
    {
        ++(slot.phase == Phase::Lock ? m_cluster.Stats().lockFails
                                     : m_cluster.Stats().validateFails);
        Aborted(slot);
        return;
    }
    if (message.command != ReplyOf(slot.phase) ||
        ++slot.replies < Members(plan, slot.phase).size())
    {
        return;
    }
    const Phase next = NextPhase(plan, slot.phase);
    if (next == Phase::Done)
    {
        Committed(slot);
        return;
    }
    const MsgType command = ReplyOf(slot.phase);
    slot.phase = next;
    slot.replies = 0;
    for (uint32_t host : Members(plan, next))
    {
        DataMessage request = NewMessage(DataMessage::Kind::Command, command, slot);
        request.command = command;
        m_cluster.SendData(m_host, host, m_thread, request);
    }
}

void
WorkerThread::OnClientControl(ClientSlot& slot, const ControlHeader& header)
{
    if (slot.stage != Stage::Committing || header.txnId != slot.txnId)
    {
        return;
    }
    if (header.type == MsgType::CommitOk)
    {
        Committed(slot);
    }
    else if (header.type == MsgType::Fail)
    {
        ++m_cluster.Stats().lockFails;
        Aborted(slot);
    }
}

void
WorkerThread::OnReadOnlyResult(ClientSlot& slot, const DataMessage& message)
{
    if (slot.stage != Stage::Committing)
    {
        return;
    }
    if (!message.flag)
    {
        ++m_cluster.Stats().validateFails;
        Aborted(slot);
        return;
    }
    slot.readOnlyValues.insert(slot.readOnlyValues.end(), message.items.begin(),
                               message.items.end());
    if (++slot.replies == slot.plan->readPrimaries.size())
    {
        Committed(slot);
    }
}

void
WorkerThread::ArmTimer(ClientSlot& slot)
{
    slot.timer.Cancel();
    const uint32_t index = slot.index;
    const uint32_t txnId = slot.txnId;
    slot.timer = ns3::Simulator::Schedule(Ps(m_cluster.Config().timeoutPs), [this, index, txnId] {
        WorkItem item;
        item.kind = WorkItem::Kind::Timeout;
        item.priorityClass = contract::CLASS_HIGH;
        item.slot = index;
        item.txnId = txnId;
        Enqueue(std::move(item));
    });
}

bool
WorkerThread::ReadsFrom(const ClientSlot& slot, const std::vector<bool>& shards)
{
    m_accesses.clear();
    m_cluster.Workload().Execute(slot.txn, SeenValues(slot.seen), m_accesses);
    return std::any_of(m_accesses.begin(), m_accesses.end(), [&](const txn::Access& a) {
        return a.type == txn::AccessType::Read && shards[m_cluster.Workload().PartitionOf(a.key)];
    });
}

bool
WorkerThread::GathererAlive() const
{
    return m_cluster.Config().mode != Mode::InServer ||
           m_cluster.Alive(m_cluster.Route()->GatherHost(m_host));
}

void
WorkerThread::OnTimeout(ClientSlot& slot)
{
    ++m_cluster.Stats().timeouts;
    m_lossInEpoch = true;  // switchtx-spec [D] 14: admission control's packet loss
    StartResolution(slot);
}

void
WorkerThread::StartResolution(ClientSlot& slot)
{
    const TxnPlan& plan = *slot.plan;
    if (plan.readOnly)
    {
        Aborted(slot);  // nothing to resolve: no replica changed
        return;
    }
    // Resolution (§3.5 and [D] 4): fence every live write replica, then commit iff one of
    // them had installed the attempt (which they do only after every validation succeeded).
    slot.stage = Stage::Fencing;
    slot.anyCommitted = false;
    slot.retry = true;
    slot.awaiting.clear();
    for (uint32_t host : plan.participants)
    {
        if ((Contains(plan.writePrimaries, host) || Contains(plan.writeBackups, host)) &&
            m_cluster.Alive(host))
        {
            slot.awaiting.push_back(host);
            m_cluster.SendData(m_host, host, m_thread,
                               NewMessage(DataMessage::Kind::Fence, MsgType::Abort, slot));
        }
    }
    if (slot.awaiting.empty())
    {
        Resolved(slot);
    }
}

void
WorkerThread::OnFenceReply(ClientSlot& slot, const DataMessage& message)
{
    if (slot.stage != Stage::Fencing && slot.stage != Stage::Deciding)
    {
        return;
    }
    const auto it = std::find(slot.awaiting.begin(), slot.awaiting.end(), message.srcHost);
    if (it == slot.awaiting.end())
    {
        return;
    }
    slot.awaiting.erase(it);
    slot.anyCommitted = slot.anyCommitted || message.flag;
    if (slot.awaiting.empty())
    {
        Resolved(slot);
    }
}

void
WorkerThread::Resolved(ClientSlot& slot)
{
    if (slot.recovering && m_cluster.Config().fault == Fault::RecoveryAbortsAll)
    {
        slot.anyCommitted = false;  // the negative control: blind to what replicas hold
    }
    if (slot.stage == Stage::Deciding)
    {
        Committed(slot);  // every write replica has installed it: now it may be told
        return;
    }
    if (slot.anyCommitted)
    {
        // Committed: the client is told only once every write replica has installed it, as
        // after commit_ok, so a later transaction of anyone it tells sees the writes.
        ++m_cluster.Stats().resolvedCommit;
        slot.stage = Stage::Deciding;
        const TxnPlan& plan = *slot.plan;
        slot.awaiting.clear();
        for (uint32_t host : plan.participants)
        {
            if ((Contains(plan.writePrimaries, host) || Contains(plan.writeBackups, host)) &&
                m_cluster.Alive(host))
            {
                slot.awaiting.push_back(host);
            }
        }
        SendDecide(slot.plan, true, slot.retry);
        if (slot.awaiting.empty())
        {
            Committed(slot);
        }
    }
    else
    {
        ++m_cluster.Stats().resolvedAbort;
        Aborted(slot);
    }
}

void
WorkerThread::SendDecide(const PlanPtr& plan, bool commit, bool retry)
{
    for (uint32_t host : plan->participants)
    {
        DataMessage decide;
        decide.kind = DataMessage::Kind::Decide;
        decide.wireType = MsgType::Abort;
        decide.txnId = plan->txnId;
        decide.retry = retry;
        decide.flag = commit;
        decide.srcHost = m_host;
        decide.plan = plan;
        decide.bytes = kHeaderBytes;
        m_cluster.SendData(m_host, host, m_thread, decide);
    }
}

void
WorkerThread::Committed(ClientSlot& slot)
{
    slot.timer.Cancel();
    ClusterStats& stats = m_cluster.Stats();
    if (slot.recovering)
    {
        slot.recovering = false;
        stats.lastRecoveryPs = NowPs();
    }
    if (stats.lastDetectionPs >= 0 && stats.firstCommitAfterDetectionPs < stats.lastDetectionPs)
    {
        stats.firstCommitAfterDetectionPs = NowPs();
    }
    m_cluster.CountServerCommit(m_host);
    ++stats.committed;
    stats.committedAfterStop += NowPs() >= m_cluster.Config().stopPs ? 1 : 0;
    ++stats.committedByKind[slot.txn.kind];
    stats.latenciesPs.push_back(NowPs() - slot.beganPs);
    const TxnPlan& plan = *slot.plan;
    m_cluster.Recorder().Settle(plan.client, plan.attempt, true);
    if (plan.readOnly)
    {
        LogRequest(slot, slot.sentPs / kPsPerNs);
    }
    LogAnswer(slot, true);
    slot.inTransaction = false;
    slot.stage = Stage::Idle;
    NextAttempt(slot, false);
}

void
WorkerThread::NextAttempt(ClientSlot& slot, bool retry)
{
    if (m_running > m_mpl)
    {
        // The MPL fell while this attempt ran: the slot waits, with its transaction if it
        // aborted, until the MPL has room again.
        slot.parked = true;
        --m_running;
        return;
    }
    if (!retry)
    {
        // An aborted transaction that waits goes before a new one.
        for (ClientSlot& waiting : m_clientSlots)
        {
            if (waiting.parked && waiting.inTransaction)
            {
                slot.parked = true;
                waiting.parked = false;
                Resume(waiting);
                return;
            }
        }
    }
    Resume(slot);
}

void
WorkerThread::Admit()
{
    for (const bool inTransaction : {true, false})
    {
        for (ClientSlot& slot : m_clientSlots)
        {
            if (m_running < m_mpl && slot.parked && slot.inTransaction == inTransaction)
            {
                slot.parked = false;
                ++m_running;
                Resume(slot);
            }
        }
    }
}

void
WorkerThread::Resume(ClientSlot& slot)
{
    WorkItem next;
    next.kind = WorkItem::Kind::Begin;
    // §3.4.1: a retrying transaction's messages go first.
    next.priorityClass = slot.inTransaction ? contract::CLASS_HIGH : 0;
    next.slot = slot.index;
    Enqueue(std::move(next));
}

void
WorkerThread::Aborted(ClientSlot& slot)
{
    slot.timer.Cancel();
    if (slot.recovering)
    {
        slot.recovering = false;
        m_cluster.Stats().lastRecoveryPs = NowPs();
    }
    const TxnPlan& plan = *slot.plan;
    m_cluster.Recorder().Settle(plan.client, plan.attempt, false);
    if (plan.readOnly)
    {
        slot.readOnlyValues.clear();  // the values are unknown: logged as 0, no version
        LogRequest(slot, slot.sentPs / kPsPerNs);
    }
    // Every participant learns it reliably, validators included: one that validates after
    // the abort (a late command) settles its pending decision when the abort comes.
    SendDecide(slot.plan, false, slot.retry);
    LogAnswer(slot, false);
    slot.retry = true;  // §3.4.1: a retrying transaction's messages go first
    slot.stage = Stage::Idle;
    NextAttempt(slot, true);
}

void
WorkerThread::LogRequest(const ClientSlot& slot, int64_t timeNs)
{
    CsvWriter* log = m_cluster.ClientLog();
    if (!log)
    {
        return;
    }
    const TxnPlan& plan = *slot.plan;
    m_historyOps.clear();
    for (const PlanOp& op : plan.ops)
    {
        txn::HistoryOp h{op.type, op.key, op.value, std::nullopt};
        if (op.type == txn::AccessType::Read)
        {
            if (plan.readOnly)
            {
                h.value = 0;
                for (size_t i = 0; i < slot.readOnlyValues.size(); ++i)
                {
                    if (slot.readOnlyValues[i].key == op.key)
                    {
                        h.value = slot.readOnlyValues[i].value;
                        h.version = slot.readOnlyValues[i].version;
                    }
                }
            }
            else
            {
                h.version = op.version;
            }
        }
        m_historyOps.push_back(h);
    }
    txn::LogClient(*log, plan.client, plan.attempt, slot.logical,
                   m_cluster.Workload().KindNames()[plan.kind], txn::Event::Send,
                   txn::By::Client, m_historyOps, timeNs);
}

void
WorkerThread::LogAnswer(const ClientSlot& slot, bool commit)
{
    CsvWriter* log = m_cluster.ClientLog();
    if (!log)
    {
        return;
    }
    const TxnPlan& plan = *slot.plan;
    m_historyOps.clear();
    for (const PlanOp& op : plan.ops)
    {
        m_historyOps.push_back(txn::HistoryOp{op.type, op.key, op.value, std::nullopt});
    }
    txn::LogClient(*log, plan.client, plan.attempt, slot.logical,
                   m_cluster.Workload().KindNames()[plan.kind],
                   commit ? txn::Event::Commit : txn::Event::Abort, txn::By::Server,
                   m_historyOps, NowPs() / kPsPerNs);
}

} // namespace incsim::switchtx
