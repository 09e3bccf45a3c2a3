#include "protocols/switchtx/worker-thread.h"

#include "protocols/switchtx/gas-delivery-trace.h"

#include "sim/core/sim-time.h"
#include "sim/host/host-cpu.h"
#include "sim/trace/csv-writer.h"
#include "sim/host/host-node.h"
#include "sim/runner/world.h"


namespace incsim::switchtx
{

WorkerThread::WorkerThread(Cluster& cluster, uint32_t host, uint32_t thread, Rng rng)
    : m_cluster(cluster),
      m_host(host),
      m_thread(thread),
      m_rng(rng),
      m_queue(cluster.Config().reorder)
{
    const ClusterConfig& config = cluster.Config();
    m_clientSlots.resize(cluster.Slots().mpl);
    for (uint32_t i = 0; i < m_clientSlots.size(); ++i)
    {
        m_clientSlots[i].index = i;
    }
    m_mpl = config.mpl;
    if (config.dynamicMpl)
    {
        m_admission.emplace(config.maxMpl, kMplAlpha);
        m_mpl = m_admission->Mpl();
        m_peerCommits.resize(cluster.Hosts());
    }
}

void
WorkerThread::Start()
{
    const ClusterConfig& config = m_cluster.Config();
    for (ClientSlot& slot : m_clientSlots)
    {
        if (m_running == m_mpl)
        {
            slot.parked = true;
            continue;
        }
        ++m_running;
        const uint32_t index = slot.index;
        ns3::Simulator::Schedule(Ps(config.startPs), [this, index] {
            WorkItem item;
            item.kind = WorkItem::Kind::Begin;
            item.slot = index;
            Enqueue(std::move(item));
        });
    }
    if (m_admission)
    {
        ns3::Simulator::Schedule(Ps(config.startPs + config.epochPs), [this] { EndEpoch(); });
    }
}

void
WorkerThread::HearCommits(uint32_t host, uint32_t commits)
{
    if (!m_admission || host == m_host)
    {
        return;  // its own server's count it reads from memory
    }
    // Counts only grow: a smaller one is an older message overtaken by a newer one.
    const uint32_t increase = commits - m_peerCommits[host];
    if (increase < 0x80000000u)
    {
        m_heardCommits += increase;
        m_peerCommits[host] = commits;
    }
}

void
WorkerThread::EndEpoch()
{
    const ClusterConfig& config = m_cluster.Config();
    if (!m_cluster.GetWorld().Host(m_host).IsUp())
    {
        return;  // a crashed server's threads are gone
    }
    // The global throughput of the epoch: the commits of this server (shared memory) and of
    // the others (as their control messages said) since the last epoch's end.
    const uint64_t total = m_cluster.ServerCommits(m_host) + m_heardCommits;
    const double throughput = static_cast<double>(total - m_totalAtEpoch) * 1e12 /
                              static_cast<double>(config.epochPs);
    m_totalAtEpoch = total;
    const bool loss = m_lossInEpoch;
    m_lossInEpoch = false;
    const AdmissionControl::Branch branch = m_admission->EndEpoch(throughput, loss);
    ClusterStats& stats = m_cluster.Stats();
    ++stats.mplEpochs;
    stats.mplSum += m_mpl;
    stats.mplResets += branch == AdmissionControl::Branch::Reset ? 1 : 0;
    stats.mplDecreases += branch == AdmissionControl::Branch::Decrease ? 1 : 0;
    m_mpl = m_admission->Mpl();
    if (CsvWriter* log = m_cluster.MplLog())
    {
        log->Row(NowPs() / kPsPerNs, m_host, m_thread, m_epoch, throughput, loss ? 1 : 0,
                 AdmissionControl::BranchName(branch), m_mpl);
    }
    ++m_epoch;
    // A smaller MPL takes effect as running attempts end; a larger one starts parked slots.
    Admit();
    if (NowPs() + config.epochPs <= config.stopPs)
    {
        ns3::Simulator::Schedule(Ps(config.epochPs), [this] { EndEpoch(); });
    }
}

void
WorkerThread::Enqueue(WorkItem item)
{
    m_queue.Push(std::move(item));
    if (!m_busy)
    {
        ServeNext();
    }
}

void
WorkerThread::ServeNext()
{
    if (m_queue.Empty())
    {
        m_busy = false;
        return;
    }
    m_busy = true;
    m_serving = m_queue.Pop();
    const Function function = FunctionOf(m_serving);
    const int64_t costPs = m_cluster.Config().costPs[static_cast<size_t>(function)];
    ClusterStats& stats = m_cluster.Stats();
    stats.cpuPs[static_cast<size_t>(function)] += costPs;
    ++stats.jobs[static_cast<size_t>(function)];
    m_cluster.GetWorld().Host(m_host).Cpu().Execute(costPs, [this] { Finish(); });
}

void
WorkerThread::Finish()
{
    const WorkItem item = std::move(m_serving);
    if (m_cluster.GetWorld().Host(m_host).IsUp())
    {
        Handle(item);
    }
    ServeNext();
}

Function
WorkerThread::FunctionOf(const WorkItem& item) const
{
    const auto byCommand = [](MsgType type) {
        switch (type)
        {
        case MsgType::LockOk:
        case MsgType::VersionCopyOk:
            return Function::Validate;
        case MsgType::ValidateOk:
            return Function::CommitBackup;
        case MsgType::ReplicateOk:
            return Function::CommitPrimary;
        case MsgType::CommitOk:
            return Function::Reply;
        case MsgType::Fail:
            return Function::Abort;
        default:
            return Function::Gather;
        }
    };
    switch (item.kind)
    {
    case WorkItem::Kind::Begin:
        return Function::Execute;
    case WorkItem::Kind::Timeout:
        return Function::Abort;
    case WorkItem::Kind::Control:
        if (m_cluster.Config().mode == Mode::InServer && !item.control.down)
        {
            return Function::Gather;
        }
        return byCommand(item.control.type);
    case WorkItem::Kind::Data:
        break;
    }
    switch (item.data.kind)
    {
    case DataMessage::Kind::ReadRequest:
        return Function::Read;
    case DataMessage::Kind::ReadReply:
    case DataMessage::Kind::ReadOnlyResult:
        return Function::Reply;
    case DataMessage::Kind::Plan:
        return item.data.plan->readOnly ? Function::Validate : Function::Lock;
    case DataMessage::Kind::Command:
        return byCommand(item.data.command);
    case DataMessage::Kind::PhaseReply:
    case DataMessage::Kind::FenceReply:
        return Function::Gather;
    case DataMessage::Kind::Fence:
    case DataMessage::Kind::Decide:
        return Function::Abort;
    }
    return Function::Gather;
}

void
WorkerThread::Handle(const WorkItem& item)
{
    switch (item.kind)
    {
    case WorkItem::Kind::Begin:
        BeginAttempt(m_clientSlots[item.slot]);
        return;
    case WorkItem::Kind::Timeout: {
        ClientSlot& slot = m_clientSlots[item.slot];
        if (slot.txnId == item.txnId && slot.stage == Stage::Committing)
        {
            OnTimeout(slot);
        }
        return;
    }
    case WorkItem::Kind::Control:
        HandleControl(item);
        return;
    case WorkItem::Kind::Data:
        HandleData(item);
        return;
    }
}

void
WorkerThread::HandleControl(const WorkItem& item)
{
    const ControlHeader& header = item.control;
    if (m_cluster.Config().mode == Mode::InServer && !header.down)
    {
        Gather(item);
        return;
    }
    if (CsvWriter* log = m_cluster.GasLog())
    {
        LogDelivery(*log, m_host, m_thread, header.txnId, header.type, NowPs() / kPsPerNs);
    }
    if (m_cluster.Config().gasBench && header.type == MsgType::VersionCopyOk)
    {
        // Fig. 11: this participant takes its operation's scatter. Every copy is counted,
        // so that a second one shows as a surplus.
        if (const Participation* p = Current(header.txnId))
        {
            m_cluster.Stats().gas.Taken(p->plan->client, p->plan->attempt,
                                        p->plan->readPrimaries.size(), NowPs());
        }
    }
    if (header.type == MsgType::CommitOk)
    {
        if (ClientSlot* slot = MySlot(header.txnId))
        {
            OnClientControl(*slot, header);
        }
        return;
    }
    OnCommand(header.txnId, header.type, header.retry);
    if (header.type == MsgType::Fail)
    {
        if (ClientSlot* slot = MySlot(header.txnId))
        {
            OnClientControl(*slot, header);
        }
    }
}

void
WorkerThread::HandleData(const WorkItem& item)
{
    const DataMessage& message = item.data;
    switch (message.kind)
    {
    case DataMessage::Kind::ReadRequest:
        ServeRead(item.srcHost, message);
        return;
    case DataMessage::Kind::Plan:
        OnPlan(item.srcHost, message);
        return;
    case DataMessage::Kind::Command:
        OnPlan(item.srcHost, message);
        OnCommand(message.txnId, message.command, message.retry);
        return;
    case DataMessage::Kind::Fence:
        OnFence(item.srcHost, message);
        return;
    case DataMessage::Kind::Decide:
        OnDecide(message);
        return;
    default:
        break;
    }
    ClientSlot* slot = MySlot(message.txnId);
    if (!slot)
    {
        return;  // an answer to an attempt this client has left
    }
    switch (message.kind)
    {
    case DataMessage::Kind::ReadReply:
        OnReadReply(*slot, message);
        return;
    case DataMessage::Kind::PhaseReply:
        OnPhaseReply(*slot, message);
        return;
    case DataMessage::Kind::FenceReply:
        OnFenceReply(*slot, message);
        return;
    case DataMessage::Kind::ReadOnlyResult:
        OnReadOnlyResult(*slot, message);
        return;
    default:
        return;
    }
}

void
WorkerThread::Gather(const WorkItem& item)
{
    ControlHeader header = item.control;
    const GasSlice& slice = header.slices.path[0];
    const GasEngine::Action action = m_cluster.Engine(m_host).Process(header, slice);
    if (action == GasEngine::Action::Drop)
    {
        return;
    }
    header.down = true;
    const SlotLayout& slots = m_cluster.Slots();
    const uint32_t clientHost = slots.HostOf(SlotOf(header.txnId));
    if (action == GasEngine::Action::ToClient)
    {
        m_cluster.SendControl(m_host, clientHost, m_thread, header);
        return;
    }
    for (uint32_t host : m_cluster.Route()->GroupHosts(slice.scatterGroup))
    {
        // Like the switch's egress, a fail does not go back to its sender.
        if (header.type == MsgType::Fail && host == item.srcHost)
        {
            continue;
        }
        m_cluster.SendControl(m_host, host, m_thread, header);
    }
}

} // namespace incsim::switchtx
