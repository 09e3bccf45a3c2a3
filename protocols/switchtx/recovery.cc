// WorkerThread and server failures (§3.5): a promoted primary's takeover of the crashed
// primary's undecided attempts, live clients' reaction to the membership event, and the
// recovery server's resolution of a crashed coordinator's attempts (docs/switchtx.md,
// "Failures").

#include "protocols/switchtx/worker-thread.h"

#include "sim/core/sim-time.h"

#include <algorithm>

namespace incsim::switchtx
{

namespace
{
bool
Writes(const TxnPlan& plan, uint32_t host)
{
    return Contains(plan.writePrimaries, host) || Contains(plan.writeBackups, host);
}
} // namespace

void
WorkerThread::FenceTakeovers()
{
    for (const ClientSlot& slot : m_clientSlots)
    {
        // Committing, fencing or deciding: a plan may be out.
        const bool inFlight = slot.stage != Stage::Idle && slot.stage != Stage::Executing;
        if (!slot.plan || !inFlight || slot.plan->readOnly)
        {
            continue;
        }
        // The current primary of each shard the attempt writes whose primary in the plan is
        // dead (also when a promoted one crashed in turn: its fences died with it). The
        // attempt's plan is in the coordination log of every live write replica that got it;
        // where none did, no live replica can have installed it, and the fence only waits
        // for its abort.
        const Placement& placement = m_cluster.GetPlacement();
        for (const PlanOp& op : slot.plan->ops)
        {
            if (op.type == txn::AccessType::Write && !m_cluster.Alive(op.primary))
            {
                m_cluster.Thread(placement.Primary(op.shard), m_thread)
                    .TakeOver(slot.plan, op.primary);
            }
        }
    }
}

void
WorkerThread::TakeOver(const PlanPtr& plan, uint32_t dead)
{
    DataMessage message;
    message.txnId = plan->txnId;
    message.plan = plan;
    Participation* p = Adopt(message);
    if (!p || p->takeover)
    {
        return;  // the client has moved on (so the attempt was decided), or done already
    }
    p->takeover = true;
    p->takeoverFrom = dead;
    if (p->over)
    {
        if (p->backupHeld)
        {
            FinishTakeover(*p);  // decided commit here before the crash was known
        }
        p->takeoverDone = true;
        return;
    }
    for (const PlanOp& op : plan->ops)
    {
        if (op.type == txn::AccessType::Write && TakenOver(op))
        {
            m_cluster.StoreAt(op.shard, m_host).Fence(op.key);
            ++m_cluster.Stats().fencedKeys;
        }
    }
    p->takeoverFenced = true;
}

void
WorkerThread::FinishTakeover(Participation& p)
{
    if (!p.takeover || p.takeoverDone)
    {
        return;
    }
    p.takeoverDone = true;
    const TxnPlan& plan = *p.plan;
    // The history of the shards taken over: the old primary's decision for the attempt, if it
    // made one (its validation took its place in its log then), is settled committed with
    // the writes as installed here; if the old primary had installed the attempt itself,
    // there is nothing to add. Otherwise this primary logs the decision now. (The stores do
    // not differ either way: a backup installs exactly what its primary does.)
    WorkerThread& old = m_cluster.Thread(p.takeoverFrom, plan.thread);
    Participation* before = old.Current(p.txnId);
    if (!before || !before->primaryCommitted)
    {
        ServerLog& oldLog = m_cluster.Log(p.takeoverFrom);
        ServerLog& log = m_cluster.Log(m_host);
        std::vector<std::pair<uint32_t, std::pair<ServerLog*, ServerLog::Handle>>> rows;
        for (const PlanOp& op : plan.ops)
        {
            if (!TakenOver(op))
            {
                continue;
            }
            auto it = std::find_if(rows.begin(), rows.end(),
                                   [&op](const auto& r) { return r.first == op.shard; });
            if (it == rows.end())
            {
                std::pair<ServerLog*, ServerLog::Handle> row{nullptr, 0};
                if (before)
                {
                    for (const auto& [shard, handle] : before->rows)
                    {
                        if (shard == op.shard && oldLog.Pending(handle))
                        {
                            row = {&oldLog, handle};
                            oldLog.Ops(handle).clear();
                        }
                    }
                }
                if (!row.first)
                {
                    row = {&log, log.Append(op.shard, 0, plan.client, plan.attempt, false, false,
                                            NowPs() / kPsPerNs)};
                }
                rows.emplace_back(op.shard, row);
                it = rows.end() - 1;
            }
            const uint64_t version = op.type == txn::AccessType::Write
                                         ? m_cluster.StoreAt(op.shard, m_host).Get(op.key).version
                                         : op.version;
            it->second.first->Ops(it->second.second)
                .push_back(txn::HistoryOp{op.type, op.key, op.value, version});
        }
        for (const auto& [shard, row] : rows)
        {
            row.first->Settle(row.second, true);
        }
    }
    UnfenceTakeover(p);
    m_cluster.Recorder().Settle(plan.client, plan.attempt, true);
}

void
WorkerThread::UnfenceTakeover(Participation& p)
{
    if (!p.takeoverFenced)
    {
        return;
    }
    p.takeoverFenced = false;
    for (const PlanOp& op : p.plan->ops)
    {
        if (op.type == txn::AccessType::Write && TakenOver(op))
        {
            m_cluster.StoreAt(op.shard, m_host).Unfence(op.key);
        }
    }
}

void
WorkerThread::ReleaseTakeover(Participation& p)
{
    if (!p.takeover || p.takeoverDone)
    {
        return;
    }
    p.takeoverDone = true;
    UnfenceTakeover(p);
}

void
WorkerThread::OnMemberDown(uint32_t dead, const std::vector<bool>& promoted)
{
    for (ClientSlot& slot : m_clientSlots)
    {
        switch (slot.stage)
        {
        case Stage::Idle:
            break;
        case Stage::Executing: {
            // A read waits on the crashed primary: the attempt starts again (nothing was
            // locked yet), reading from the promoted one.
            if (ReadsFrom(slot, promoted))
            {
                slot.stage = Stage::Idle;
                slot.retry = true;
                Resume(slot);
            }
            break;
        }
        case Stage::Committing: {
            const TxnPlan& plan = *slot.plan;
            const bool gathererLost = !plan.serverDriven && m_cluster.Config().mode == Mode::InServer &&
                                      m_cluster.Route()->GatherHost(m_host) == dead;
            if (Contains(plan.participants, dead) || gathererLost)
            {
                ++m_cluster.Stats().resolvedAtMembership;
                slot.recovering = true;
                slot.timer.Cancel();
                StartResolution(slot);
            }
            break;
        }
        case Stage::Fencing:
        case Stage::Deciding: {
            const auto it = std::find(slot.awaiting.begin(), slot.awaiting.end(), dead);
            if (it != slot.awaiting.end())
            {
                slot.recovering = true;
                slot.awaiting.erase(it);
                if (slot.awaiting.empty())
                {
                    Resolved(slot);
                }
            }
            break;
        }
        }
    }
}

void
WorkerThread::RecoverClient(WorkerThread& crashed)
{
    // The crashed thread's client slots, as the coordination log of the live participants
    // has them (their Participation of each slot; the gathering round is read from them at
    // once, docs/switchtx.md "Failures"). Every attempt one of them holds undecided is
    // decided: committed iff a live write replica installed it (it passed the serialization
    // point; nothing installed can then be undone, and nothing else needs to be), and the
    // decision goes to its live participants over RC. The crashed client is never answered.
    ClusterStats& stats = m_cluster.Stats();
    const SlotLayout& slots = m_cluster.Slots();
    for (const ClientSlot& dead : crashed.m_clientSlots)
    {
        const uint32_t slot = slots.Slot(crashed.m_host, m_thread, dead.index);
        // Attempts of the slot that live participants hold and have not settled (the
        // current one, and an earlier one whose abort had not reached everyone).
        std::vector<PlanPtr> open;
        for (uint32_t host = 0; host < m_cluster.Hosts(); ++host)
        {
            if (!m_cluster.Alive(host))
            {
                continue;
            }
            WorkerThread& thread = m_cluster.Thread(host, m_thread);
            const auto it = thread.m_participations.find(slot);
            if (it == thread.m_participations.end() || !it->second.plan)
            {
                continue;
            }
            Participation& p = it->second;
            const bool settled = p.takeover ? p.takeoverDone
                                            : p.over || p.primaryCommitted ||
                                                  (p.backupHeld && p.txnId != dead.txnId);
            if (settled)
            {
                continue;
            }
            p.fenced = true;  // the recovery server's fence: no more phase commands
            if (std::none_of(open.begin(), open.end(),
                             [&p](const PlanPtr& plan) { return plan->txnId == p.txnId; }))
            {
                open.push_back(p.plan);
            }
        }
        for (const PlanPtr& plan : open)
        {
            bool installed = false;
            for (uint32_t host : plan->participants)
            {
                if (!m_cluster.Alive(host) || !Writes(*plan, host))
                {
                    continue;
                }
                const Participation* p = m_cluster.Thread(host, m_thread).Current(plan->txnId);
                installed = installed || (p && (p->primaryCommitted || p->backupHeld));
            }
            const bool commit = installed && m_cluster.Config().fault != Fault::RecoveryAbortsAll;
            ++(commit ? stats.recoveredCommit : stats.recoveredAbort);
            stats.lastRecoveryPs = NowPs();
            SendDecide(plan, commit, true);
            if (!commit)
            {
                m_cluster.Recorder().Settle(plan->client, plan->attempt, false);
            }
        }
    }
}

} // namespace incsim::switchtx
