// ErisThread's shard replicas: each executes its shard's part of the sequenced transactions
// in stamp order, keeps a later stamp until the ones before it are settled, and reports a
// stamp that is still missing after the gap timeout to the failure coordinator, which
// answers with the transaction or a NO-OP (docs/switchtx.md, "Baselines: Eris").

#include "protocols/switchtx/baselines/eris-thread.h"

#include "protocols/txn/txn-history.h"
#include "sim/core/sim-time.h"

namespace incsim::switchtx::eris
{

void
ErisThread::Accept(ReplicaState& r, const TxnMessage& message)
{
    if (message.type != contract::TYPE_SEQUENCED || message.session != ErisCluster::kSession ||
        r.shard >= message.slots || !(message.dests >> r.shard & 1))
    {
        return;
    }
    const uint32_t seq = message.stamps[r.shard];
    if (seq < r.next || r.early.count(seq))
    {
        return;  // settled already, or a second copy of one waiting
    }
    GapIndex& index = m_cluster.Index();
    if (index.IsNoop(message))
    {
        // The coordinator decided a stamp of it NO-OP when no replica had it: every
        // destination skips the whole transaction, this copy came too late.
        index.MarkNoop(message);
        ++m_cluster.Stats().droppedNoop;
        return;
    }
    index.Received(message);
    if (seq > r.next)
    {
        r.early.emplace(seq, message);
        ArmGapTimer(r);
        return;
    }
    Execute(r, message);
    Drain(r);
}

void
ErisThread::Drain(ReplicaState& r)
{
    for (auto it = r.early.begin(); it != r.early.end() && it->first == r.next;
         it = r.early.begin())
    {
        Execute(r, it->second);
        r.early.erase(it);
    }
    m_cluster.ReplicaAdvanced(r.shard);
    if (r.early.empty())
    {
        r.gapTimer.Cancel();
        r.gapArmed = false;
        return;
    }
    ArmGapTimer(r);
}

void
ErisThread::Execute(ReplicaState& r, const TxnMessage& message)
{
    ++r.next;
    const uint32_t slots = m_cluster.Config().mpl;
    Executed& done = r.executed[size_t{message.sender} * slots + SlotOfTxn(message.txnId) % slots];
    const uint32_t counter = CounterOfTxn(message.txnId);
    if (counter <= done.counter)
    {
        // A resent transaction, sequenced again: its new stamp is spent without effect, and
        // the latest one is answered again (the client is still waiting for it).
        ++m_cluster.Stats().duplicates;
        if (counter == done.counter)
        {
            Reply(r, message, done);
        }
        return;
    }
    done.counter = counter;
    done.results.clear();
    ShardStore& store = m_cluster.Replica(r.shard, r.replica);
    ServerLog& log = m_cluster.Log(m_host);
    const ServerLog::Handle row =
        log.Append(r.shard, r.replica, message.sender, message.txnId, false, true,
                   NowPs() / kPsPerNs);
    std::vector<txn::HistoryOp>& ops = log.Ops(row);
    for (const TxnOp& op : message.ops)
    {
        if (m_cluster.ShardOf(op.key) != r.shard)
        {
            continue;
        }
        const ShardStore::Record record = store.Get(op.key);
        ops.push_back(txn::HistoryOp{txn::AccessType::Read, op.key, record.value, record.version});
        OpResult result{op.kind, op.key, record.value, record.version};
        if (op.kind == OpKind::Increment)
        {
            result.version = store.Install(op.key, record.value + 1);
            ops.push_back(txn::HistoryOp{txn::AccessType::Write, op.key, record.value + 1,
                                         result.version});
        }
        done.results.push_back(result);
    }
    log.Settle(row, true);
    Reply(r, message, done);
}

void
ErisThread::Reply(const ReplicaState& r, const TxnMessage& message, const Executed& done)
{
    ReplyMessage reply;
    reply.shard = static_cast<uint8_t>(r.shard);
    reply.replica = static_cast<uint8_t>(r.replica);
    reply.txnId = message.txnId;
    if (r.replica == 0)
    {
        reply.results = done.results;  // the designated leader answers with the results
    }
    m_bytes.resize(reply.Bytes());
    reply.Encode(m_bytes.data());
    const uint32_t threads = m_cluster.Config().threads;
    m_cluster.SendHost(m_host, ErisCluster::ShardPort(r.replica, m_thread),
                       message.sender / threads, ErisCluster::ClientPort(message.sender % threads),
                       m_bytes.data(), static_cast<uint32_t>(m_bytes.size()));
}

void
ErisThread::Skip(ReplicaState& r)
{
    ++r.next;
    ++m_cluster.Stats().noops;
}

void
ErisThread::ArmGapTimer(ReplicaState& r)
{
    // One timer per missing stamp: it keeps running while later stamps arrive.
    if (r.gapArmed && r.gapTimer.IsRunning())
    {
        return;
    }
    r.gapArmed = true;
    const uint32_t replica = r.replica;
    const uint32_t seq = r.next;
    r.gapTimer = ns3::Simulator::Schedule(Ps(m_cluster.Config().gapTimeoutPs), [this, replica, seq] {
        WorkItem item;
        item.kind = WorkItem::Kind::GapTimeout;
        item.index = replica;
        item.txnId = seq;
        Enqueue(std::move(item));
    });
}

void
ErisThread::OnGapTimeout(ReplicaState& r, uint32_t seq)
{
    r.gapArmed = false;
    if (seq != r.next || r.early.empty())
    {
        if (!r.early.empty())
        {
            ArmGapTimer(r);  // that stamp came; the next missing one gets its own wait
        }
        return;
    }
    ++m_cluster.Stats().gapTimeouts;
    GapMessage query;
    query.kind = HostKind::GapQuery;
    query.shard = static_cast<uint8_t>(r.shard);
    query.replica = static_cast<uint8_t>(r.replica);
    query.session = ErisCluster::kSession;
    query.seq = seq;
    uint8_t bytes[GapMessage::kBytes];
    query.Encode(bytes);
    m_cluster.SendHost(m_host, ErisCluster::ShardPort(r.replica, m_thread),
                       m_cluster.Config().coordinatorHost, ErisCluster::kCoordinatorPort, bytes,
                       GapMessage::kBytes);
    ArmGapTimer(r);  // asks again if the query or the decision is lost
}

void
ErisThread::Decided(ReplicaState& r, const GapMessage& decision, const TxnMessage* found)
{
    if (decision.seq != r.next || decision.session != ErisCluster::kSession)
    {
        return;  // settled meanwhile
    }
    if (found)
    {
        ++m_cluster.Stats().gapsFound;
        Accept(r, *found);
        return;
    }
    Skip(r);
    Drain(r);
}

} // namespace incsim::switchtx::eris
