// ErisThread's queue and its client: each client slot sends one independent transaction at a
// time to the sequencer, resends it if some reply is missing after the timeout, and completes
// it once every destination shard's designated leader and a majority of its replicas replied
// (docs/switchtx.md, "Baselines: Eris").

#include "protocols/switchtx/baselines/eris-thread.h"

#include "protocols/txn/txn-history.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/runner/world.h"

#include <fmt/format.h>

#include <stdexcept>

namespace incsim::switchtx::eris
{

namespace
{
/// Every key reads as 0: executing on it shows which keys a transaction reads and writes.
class ZeroValues : public txn::ValueView
{
  public:
    uint64_t Value(uint64_t) const override { return 0; }
};
} // namespace

ErisThread::ErisThread(ErisCluster& cluster, uint32_t host, uint32_t thread, Rng rng)
    : m_cluster(cluster),
      m_host(host),
      m_thread(thread),
      m_rng(rng)
{
    const ErisConfig& config = cluster.Config();
    m_slots.resize(config.mpl);
    for (uint32_t i = 0; i < config.mpl; ++i)
    {
        m_slots[i].index = i;
    }
    const uint32_t hosts = cluster.Hosts();
    m_replicas.resize(config.replication);
    for (uint32_t r = 0; r < config.replication; ++r)
    {
        ReplicaState& state = m_replicas[r];
        state.replica = r;
        state.shard = ((host + hosts - r) % hosts) * config.threads + thread;
        state.executed.resize(size_t{cluster.Shards()} * config.mpl);
    }
}

void
ErisThread::Start()
{
    for (const ClientSlot& slot : m_slots)
    {
        const uint32_t index = slot.index;
        ns3::Simulator::Schedule(Ps(m_cluster.Config().startPs), [this, index] {
            WorkItem item;
            item.kind = WorkItem::Kind::Begin;
            item.index = index;
            Enqueue(std::move(item));
        });
    }
}

void
ErisThread::Enqueue(WorkItem item)
{
    m_queue.push_back(std::move(item));
    if (!m_busy)
    {
        ServeNext();
    }
}

void
ErisThread::ServeNext()
{
    if (m_queue.empty())
    {
        m_busy = false;
        return;
    }
    m_busy = true;
    ErisFunction function = ErisFunction::Gap;
    switch (m_queue.front().kind)
    {
    case WorkItem::Kind::Begin:
        function = ErisFunction::Begin;
        break;
    case WorkItem::Kind::Sequenced:
        function = ErisFunction::Execute;
        break;
    case WorkItem::Kind::Reply:
        function = ErisFunction::Reply;
        break;
    default:
        break;
    }
    m_cluster.Charge(m_host, function, [this] {
        WorkItem item = std::move(m_queue.front());
        m_queue.pop_front();
        if (m_cluster.GetWorld().Host(m_host).IsUp())
        {
            Handle(item);
        }
        ServeNext();
    });
}

void
ErisThread::Handle(WorkItem& item)
{
    switch (item.kind)
    {
    case WorkItem::Kind::Begin:
        Begin(m_slots[item.index]);
        return;
    case WorkItem::Kind::Timeout: {
        ClientSlot& slot = m_slots[item.index];
        if (slot.busy && slot.txnId == item.txnId)
        {
            OnTimeout(slot);
        }
        return;
    }
    case WorkItem::Kind::Sequenced:
        Accept(m_replicas[item.index], item.txn);
        return;
    case WorkItem::Kind::Reply:
        TakeReply(item.reply);
        return;
    case WorkItem::Kind::GapTimeout:
        OnGapTimeout(m_replicas[item.index], item.txnId);
        return;
    case WorkItem::Kind::GapDecision:
        Decided(m_replicas[item.index], item.gap,
                item.gap.kind == HostKind::GapFound ? &item.txn : nullptr);
        return;
    }
}

void
ErisThread::OnSequenced(uint32_t replica, const TxnMessage& message)
{
    WorkItem item;
    item.kind = WorkItem::Kind::Sequenced;
    item.index = replica;
    item.txn = message;
    Enqueue(std::move(item));
}

void
ErisThread::OnReply(const ReplyMessage& reply)
{
    WorkItem item;
    item.kind = WorkItem::Kind::Reply;
    item.reply = reply;
    Enqueue(std::move(item));
}

void
ErisThread::OnGapDecision(uint32_t replica, const GapMessage& decision, const TxnMessage* found)
{
    WorkItem item;
    item.kind = WorkItem::Kind::GapDecision;
    item.index = replica;
    item.gap = decision;
    if (found)
    {
        item.txn = *found;
    }
    Enqueue(std::move(item));
}

void
ErisThread::Begin(ClientSlot& slot)
{
    const ErisConfig& config = m_cluster.Config();
    if (NowPs() >= config.stopPs)
    {
        return;  // clients drain after the stop, so every transaction settles
    }
    m_cluster.Workload().Next(ClientId(), m_rng, m_txn);
    m_accesses.clear();
    m_cluster.Workload().Execute(m_txn, ZeroValues(), m_accesses);
    TxnMessage& txn = slot.txn;
    txn.ops.clear();
    txn.dests = 0;
    uint32_t highest = 0;
    for (size_t i = 0; i < m_accesses.size(); ++i)
    {
        const txn::Access& access = m_accesses[i];
        const bool increment = i + 1 < m_accesses.size() &&
                               m_accesses[i + 1].type == txn::AccessType::Write &&
                               m_accesses[i + 1].key == access.key &&
                               m_accesses[i + 1].value == access.value + 1;
        if (access.type != txn::AccessType::Read)
        {
            // Install refuses workloads whose transactions are not independent (TPC-C).
            throw std::logic_error(fmt::format("eris: operation {} of a transaction is neither a "
                                               "read nor a read-modify-write",
                                               i));
        }
        TxnOp op;
        op.kind = increment ? OpKind::Increment : OpKind::Read;
        op.key = access.key;
        op.shard = m_cluster.ShardOf(access.key);
        txn.ops.push_back(op);
        txn.dests |= uint64_t{1} << op.shard;
        highest = std::max(highest, op.shard);
        i += increment ? 1 : 0;
    }
    txn.type = contract::TYPE_TXN;
    txn.slots = static_cast<uint8_t>(highest + 1);
    txn.sender = static_cast<uint16_t>(ClientId());
    txn.session = 0;
    txn.stamps.fill(0);
    if (++slot.counter >= (1u << (32 - kSlotBits)))
    {
        throw std::logic_error("eris: a client slot ran out of transaction ids");
    }
    slot.txnId = TxnIdOf(slot.counter, slot.index);
    txn.txnId = slot.txnId;
    slot.busy = true;
    slot.logical = m_logicals++;
    slot.kind = m_txn.kind;
    slot.beganPs = NowPs();
    slot.replied.fill(0);
    slot.results.clear();
    ++m_cluster.Stats().attempts;
    Send(slot);
}

void
ErisThread::Send(ClientSlot& slot)
{
    m_cluster.SendTxn(m_host, m_thread, slot.txn);
    slot.timer.Cancel();
    const uint32_t index = slot.index;
    const uint32_t txnId = slot.txnId;
    slot.timer = ns3::Simulator::Schedule(Ps(m_cluster.Config().timeoutPs), [this, index, txnId] {
        WorkItem item;
        item.kind = WorkItem::Kind::Timeout;
        item.index = index;
        item.txnId = txnId;
        Enqueue(std::move(item));
    });
}

void
ErisThread::OnTimeout(ClientSlot& slot)
{
    // The request, a stamped copy or a reply was lost: the same transaction again. It gets new
    // stamps; shards that executed it already take them as duplicates and answer again.
    ++m_cluster.Stats().retransmits;
    Send(slot);
}

void
ErisThread::TakeReply(const ReplyMessage& reply)
{
    ClientSlot& slot = m_slots[SlotOfTxn(reply.txnId) % m_slots.size()];
    if (!slot.busy || slot.txnId != reply.txnId || reply.shard >= kMaxShards ||
        !(slot.txn.dests >> reply.shard & 1) || reply.replica >= m_cluster.Config().replication)
    {
        return;  // a late answer of a transaction this slot has completed
    }
    const auto bit = static_cast<uint16_t>(1u << reply.replica);
    if (slot.replied[reply.shard] & bit)
    {
        return;
    }
    slot.replied[reply.shard] |= bit;
    if (reply.replica == 0)
    {
        slot.results.insert(slot.results.end(), reply.results.begin(), reply.results.end());
    }
    if (Complete(slot))
    {
        Committed(slot);
    }
}

bool
ErisThread::Complete(const ClientSlot& slot) const
{
    const uint32_t majority = m_cluster.Config().replication / 2 + 1;
    for (uint64_t dests = slot.txn.dests; dests != 0; dests &= dests - 1)
    {
        const uint16_t replied = slot.replied[__builtin_ctzll(dests)];
        if (!(replied & 1) || static_cast<uint32_t>(__builtin_popcount(replied)) < majority)
        {
            return false;
        }
    }
    return true;
}

void
ErisThread::Committed(ClientSlot& slot)
{
    slot.timer.Cancel();
    slot.busy = false;
    ErisStats& stats = m_cluster.Stats();
    ++stats.committed;
    stats.committedAfterStop += NowPs() >= m_cluster.Config().stopPs ? 1 : 0;
    stats.latenciesPs.push_back(NowPs() - slot.beganPs);
    if (CsvWriter* log = m_cluster.ClientLog())
    {
        // The request is logged with what the leaders read, once known, at the time it was
        // sent: the client sent operations, not values (an independent transaction's values
        // are the shards' own).
        const std::string& kind = m_cluster.Workload().KindNames()[slot.kind];
        m_historyOps.clear();
        for (const TxnOp& op : slot.txn.ops)
        {
            for (const OpResult& r : slot.results)
            {
                if (r.key != op.key)
                {
                    continue;
                }
                m_historyOps.push_back(
                    txn::HistoryOp{txn::AccessType::Read, op.key, r.value,
                                   op.kind == OpKind::Increment ? r.version - 1 : r.version});
                if (op.kind == OpKind::Increment)
                {
                    m_historyOps.push_back(
                        txn::HistoryOp{txn::AccessType::Write, op.key, r.value + 1, std::nullopt});
                }
            }
        }
        txn::LogClient(*log, ClientId(), slot.txnId, slot.logical, kind, txn::Event::Send,
                       txn::By::Client, m_historyOps, slot.beganPs / kPsPerNs);
        for (txn::HistoryOp& op : m_historyOps)
        {
            op.version.reset();
        }
        txn::LogClient(*log, ClientId(), slot.txnId, slot.logical, kind, txn::Event::Commit,
                       txn::By::Server, m_historyOps, NowPs() / kPsPerNs);
    }
    WorkItem next;
    next.kind = WorkItem::Kind::Begin;
    next.index = slot.index;
    Enqueue(std::move(next));
}

} // namespace incsim::switchtx::eris
