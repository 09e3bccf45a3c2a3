#include "protocols/switchtx/switchtx-cluster.h"

#include "protocols/switchtx/worker-thread.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/runner/world.h"

#include <array>

namespace incsim::switchtx
{

const char*
FunctionName(Function function)
{
    static constexpr std::array<const char*, kFunctions> names{
        "execute", "read", "lock", "validate", "commit_backup", "commit_primary",
        "abort", "gather", "reply"};
    return names[static_cast<size_t>(function)];
}

Cluster::Cluster(World& world, const ClusterConfig& config, const txn::Workload* workload,
                 GasRoute* route, CsvWriter* clientLog, CsvWriter* serverLog,
                 CsvWriter* mplLog)
    : m_world(world),
      m_config(config),
      m_workload(workload),
      m_route(route),
      m_clientLog(clientLog),
      m_mplLog(mplLog)
{
    const auto hosts = static_cast<uint32_t>(world.NumHosts());
    m_serverCommits.resize(hosts);
    m_placement = Placement(hosts, config.replication);
    m_crashed.resize(hosts, false);
    // A thread has a client slot (a txn id space, a switch slot) for each MPL it may reach.
    m_slots = SlotLayout{config.threads, config.dynamicMpl ? config.maxMpl : config.mpl};
    m_stores.resize(hosts, std::vector<ShardStore>(config.replication));
    if (config.mode == Mode::InServer)
    {
        m_engines.resize(hosts);
    }
    m_channels.resize(size_t{hosts} * hosts * config.threads);
    m_stats.committedByKind.resize(workload->KindNames().size());
    for (uint32_t h = 0; h < hosts; ++h)
    {
        m_logs.push_back(std::make_unique<ServerLog>(serverLog, h));
        for (uint32_t t = 0; t < config.threads; ++t)
        {
            m_threads.push_back(std::make_unique<WorkerThread>(
                *this, h, t, world.MakeRng("switchtx-thread", h * config.threads + t)));
            auto endpoint = ns3::CreateObject<ThreadEndpoint>();
            endpoint->Configure(this, t);
            world.Host(h).Bind(PortOf(t), endpoint);
        }
    }
}

Cluster::~Cluster() = default;

void
Cluster::Start()
{
    for (auto& thread : m_threads)
    {
        thread->Start();
    }
}

void
Cluster::Finish()
{
    for (uint32_t h = 0; h < Hosts(); ++h)
    {
        // A crashed server's log may end with a validation it made just before the crash of
        // an attempt already aborted (the abort never reached it): dropped like any pending
        // decision, but not a sign of a run that failed to settle.
        const uint64_t pending = m_logs[h]->Flush();
        m_stats.pendingAtEnd += m_crashed[h] ? 0 : pending;
    }
    for (const auto& channel : m_channels)
    {
        if (channel)
        {
            m_stats.rcRetransmits += channel->GetCounters().retransmitted;
        }
    }
}

void
Cluster::OnCrash(uint32_t host)
{
    if (m_crashed[host])
    {
        return;  // each of its threads' endpoints reports it
    }
    m_crashed[host] = true;
    ++m_stats.crashes;
    m_stats.lastCrashPs = NowPs();
    // Its NIC is gone: nothing it sent is resent (what is on the wire may still arrive).
    for (uint32_t dst = 0; dst < Hosts(); ++dst)
    {
        for (uint32_t t = 0; t < m_config.threads; ++t)
        {
            if (auto& channel = m_channels[(size_t{host} * Hosts() + dst) * m_config.threads + t])
            {
                channel->Close();
            }
        }
    }
    ns3::Simulator::Schedule(Ps(m_config.failureDetectionPs), [this, host] { OnDetected(host); });
}

void
Cluster::OnDetected(uint32_t host)
{
    m_stats.lastDetectionPs = NowPs();
    m_placement.alive[host] = false;
    // Participant recovery: the first live backup of each shard the crashed server led
    // becomes its primary (its store holds every committed write: backups install first).
    std::vector<bool> promoted(Hosts(), false);
    for (uint32_t shard = 0; shard < Hosts(); ++shard)
    {
        if (m_placement.Primary(shard) != host)
        {
            continue;
        }
        for (uint32_t r = 0; r < m_config.replication; ++r)
        {
            if (m_placement.IsLiveBackup(shard, r))
            {
                m_placement.primaryReplica[shard] = r;
                promoted[shard] = true;
                ++m_stats.promotedShards;
                break;
            }
        }
    }
    // Live servers stop sending to it (RC's retries to it end).
    for (uint32_t src = 0; src < Hosts(); ++src)
    {
        for (uint32_t t = 0; t < m_config.threads; ++t)
        {
            if (auto& channel = m_channels[(size_t{src} * Hosts() + host) * m_config.threads + t])
            {
                channel->Close();
            }
        }
    }
    // Coordinator recovery, step 1: the gatherers take the crashed client's slots back, so its
    // attempts' later control messages are dropped as stale.
    for (uint32_t t = 0; t < m_config.threads; ++t)
    {
        for (uint32_t i = 0; i < m_slots.mpl; ++i)
        {
            const uint32_t slot = m_slots.Slot(host, t, i);
            if (m_recycleSlot)
            {
                m_recycleSlot(slot);
            }
            for (uint32_t h = 0; h < m_engines.size(); ++h)
            {
                m_engines[h].Recycle(slot);
            }
        }
    }
    // The promoted primaries hold the keys of the attempts in flight that wrote there, until
    // each is decided; then the clients, live and crashed, have them decided.
    for (auto& thread : m_threads)
    {
        thread->FenceTakeovers();
    }
    for (uint32_t h = 0; h < Hosts(); ++h)
    {
        for (uint32_t t = 0; t < m_config.threads && Alive(h); ++t)
        {
            Thread(h, t).OnMemberDown(host, promoted);
        }
    }
    uint32_t recovery = (host + 1) % Hosts();
    while (!Alive(recovery))
    {
        recovery = (recovery + 1) % Hosts();
    }
    // Every crashed coordinator known so far, not only this one: a recovery server chosen at
    // an earlier detection may have crashed itself before deciding (re-resolving finds only
    // what is still open).
    for (uint32_t dead = 0; dead < Hosts(); ++dead)
    {
        for (uint32_t t = 0; t < m_config.threads && !Alive(dead); ++t)
        {
            Thread(recovery, t).RecoverClient(Thread(dead, t));
        }
    }
}

WorkItem
WorkItem::Control(uint32_t src, const ControlHeader& header)
{
    WorkItem item;
    item.kind = Kind::Control;
    item.priorityClass = ClassOf(header.type, header.retry);
    item.srcHost = src;
    item.control = header;
    return item;
}

WorkItem
WorkItem::Data(uint32_t src, const DataMessage& message)
{
    WorkItem item;
    item.kind = Kind::Data;
    item.priorityClass = ClassOf(message.wireType, message.retry);
    item.srcHost = src;
    item.data = message;
    return item;
}

WorkerThread&
Cluster::Thread(uint32_t host, uint32_t thread)
{
    return *m_threads[size_t{host} * m_config.threads + thread];
}

Cluster::Channel&
Cluster::ChannelOf(uint32_t src, uint32_t dst, uint32_t thread)
{
    std::unique_ptr<Channel>& channel =
        m_channels[(size_t{src} * Hosts() + dst) * m_config.threads + thread];
    if (!channel)
    {
        Channel::Hooks hooks;
        // A connection has one traffic class, as an RDMA QP has one service level: its
        // segments and acknowledgements are type Rc with no retry bit and no slices (RoCE's
        // transport header carries no coordination header), so the switches route them all in
        // the medium class and none overtakes another in a priority queue (go-back-N would
        // drop it and wait for the retransmission timer). Stats count them by their type.
        // The fixed timer (RDMA RC's) reads no send times: RoCE's headers carry none.
        hooks.transmit = [this, src, dst, thread](uint32_t seq, const DataMessage& message,
                                                  uint64_t) {
            ControlHeader header;
            header.type = MsgType::Rc;
            header.txnId = message.txnId;
            Transmit(src, dst, thread, header, HostHeader{HostHeader::Kind::Segment, seq},
                     message.bytes, message.wireType);
        };
        hooks.transmitAck = [this, src, dst, thread](uint32_t next, bool sequenceError,
                                                     uint64_t) {
            ControlHeader header;
            header.type = MsgType::Rc;
            const auto kind = sequenceError ? HostHeader::Kind::Nak : HostHeader::Kind::Ack;
            Transmit(dst, src, thread, header, HostHeader{kind, next}, 0,
                     MsgType::Rc);
        };
        hooks.deliver = [this, dst, thread](const DataMessage& message) {
            Deliver(dst, thread, WorkItem::Data(message.srcHost, message));
        };
        channel = std::make_unique<Channel>(std::move(hooks), m_config.rcRetransmitPs);
    }
    return *channel;
}

void
Cluster::Transmit(uint32_t src, uint32_t dst, uint32_t thread, const ControlHeader& header,
                  HostHeader host, uint32_t payloadBytes, MsgType counted)
{
    std::array<uint8_t, ControlHeader::kBytes + HostHeader::kBytes> bytes{};
    header.Encode(bytes.data());
    host.Encode(bytes.data() + header.WireBytes());
    const uint32_t length = header.WireBytes() + HostHeader::kBytes;
    const auto type = static_cast<size_t>(counted);
    ++m_stats.packetsByType[type < m_stats.packetsByType.size() ? type : 0];
    m_world.Host(src).SendUdp(kSwitchTxPort, dst, PortOf(thread), bytes.data(), length,
                              length + payloadBytes, ClassOf(header.type, header.retry));
}

void
Cluster::SendControl(uint32_t src, uint32_t dst, uint32_t thread, const ControlHeader& header)
{
    if (m_crashed[src] || !Alive(dst))
    {
        return;  // a crashed server sends nothing; no one sends to a member known to be down
    }
    if (src == dst && m_config.mode != Mode::InSwitch)
    {
        Deliver(dst, thread, WorkItem::Control(src, header));
        return;
    }
    // The sending server's commits ride in the host header's 4-byte word, which a control
    // message does not otherwise use (§3.4.2's piggybacked metric; docs/switchtx.md,
    // "Admission control").
    Transmit(src, dst, thread, header,
             HostHeader{HostHeader::Kind::Control, static_cast<uint32_t>(m_serverCommits[src])},
             0, header.type);
}

void
Cluster::SendData(uint32_t src, uint32_t dst, uint32_t thread, const DataMessage& message)
{
    if (m_crashed[src] || !Alive(dst))
    {
        return;
    }
    if (src == dst)
    {
        // A thread's messages to its own server do not leave the host (NIC loopback).
        Deliver(dst, thread, WorkItem::Data(src, message));
        return;
    }
    ChannelOf(src, dst, thread).Send(message);
}

void
Cluster::Receive(uint32_t host, uint32_t thread, const Datagram& datagram)
{
    ControlHeader header;
    HostHeader hostHeader;
    if (datagram.srcPort != kSwitchTxPort || datagram.srcHost >= Hosts() ||
        !header.Decode(datagram.bytes, datagram.materialised) ||
        !hostHeader.Decode(datagram.bytes + header.WireBytes(),
                           datagram.materialised - header.WireBytes()) ||
        (header.type == MsgType::Rc) != (hostHeader.kind != HostHeader::Kind::Control))
    {
        return;  // not ours
    }
    switch (hostHeader.kind)
    {
    case HostHeader::Kind::Segment:
        ChannelOf(datagram.srcHost, host, thread).ReceiveData(hostHeader.seq, Channel::kNoStamp);
        return;
    case HostHeader::Kind::Ack:
    case HostHeader::Kind::Nak:
        ChannelOf(host, datagram.srcHost, thread)
            .ReceiveAck(hostHeader.seq, hostHeader.kind == HostHeader::Kind::Nak,
                        Channel::kNoStamp);
        return;
    case HostHeader::Kind::Control: {
        if (m_world.Host(host).IsUp())
        {
            Thread(host, thread).HearCommits(datagram.srcHost, hostHeader.seq);
        }
        Deliver(host, thread, WorkItem::Control(datagram.srcHost, header));
        return;
    }
    }
}

void
Cluster::Deliver(uint32_t host, uint32_t thread, WorkItem item)
{
    if (!m_world.Host(host).IsUp())
    {
        return;
    }
    Thread(host, thread).Enqueue(std::move(item));
}

NS_OBJECT_ENSURE_REGISTERED(ThreadEndpoint);

ns3::TypeId
ThreadEndpoint::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::switchtx::ThreadEndpoint")
                                 .SetParent<Endpoint>()
                                 .SetGroupName("Incsim")
                                 .AddConstructor<ThreadEndpoint>();
    return tid;
}

void
ThreadEndpoint::DoReceive(const Datagram& datagram)
{
    m_cluster->Receive(Host().Index(), m_thread, datagram);
}

void
ThreadEndpoint::DoCrash()
{
    m_cluster->OnCrash(Host().Index());
}

} // namespace incsim::switchtx
