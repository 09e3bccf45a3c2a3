#include "protocols/switchtx/baselines/eris-cluster.h"

#include "protocols/switchtx/baselines/eris-thread.h"
#include "p4/runtime/control-plane.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-cpu.h"
#include "sim/host/host-node.h"
#include "sim/net/headers.h"
#include "sim/runner/world.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace incsim::switchtx::eris
{

namespace
{
constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

/// Hop distances from `from` to every node, over switches only (hosts do not forward).
std::vector<uint32_t>
Distances(const Topology& topology, uint32_t from)
{
    std::vector<uint32_t> distance(topology.NumNodes(), kUnreached);
    std::deque<uint32_t> queue{from};
    distance[from] = 0;
    while (!queue.empty())
    {
        const uint32_t node = queue.front();
        queue.pop_front();
        if (node != from && topology.Node(node).kind == NodeKind::Host)
        {
            continue;
        }
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            const uint32_t peer = topology.Peer(node, port).peerNode;
            if (distance[peer] == kUnreached)
            {
                distance[peer] = distance[node] + 1;
                queue.push_back(peer);
            }
        }
    }
    return distance;
}

/// The first port of `node` one hop closer to what `distance` measures from.
uint32_t
PortToward(const Topology& topology, uint32_t node, const std::vector<uint32_t>& distance)
{
    for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
    {
        const uint32_t peer = topology.Peer(node, port).peerNode;
        if (distance[peer] != kUnreached && distance[peer] + 1 == distance[node])
        {
            return port;
        }
    }
    return 0;
}

uint64_t
Mix(uint64_t x)
{
    // splitmix64's finaliser: the threads of a server share its keys evenly.
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
} // namespace

// ---- GapIndex

void
GapIndex::Init(uint32_t shards)
{
    m_shards.assign(shards, Shard{});
}

GapIndex::Entry*
GapIndex::At(uint32_t shard, uint32_t seq)
{
    Shard& s = m_shards[shard];
    if (seq < s.base)
    {
        return nullptr;
    }
    const size_t at = seq - s.base;
    if (at >= s.entries.size())
    {
        s.entries.resize(at + 1);
    }
    return &s.entries[at];
}

const GapIndex::Entry*
GapIndex::Find(uint32_t shard, uint32_t seq) const
{
    const Shard& s = m_shards[shard];
    if (seq < s.base || seq - s.base >= s.entries.size())
    {
        return nullptr;
    }
    return &s.entries[seq - s.base];
}

void
GapIndex::Received(const TxnMessage& message)
{
    std::shared_ptr<const TxnMessage> copy;
    for (uint64_t dests = message.dests; dests != 0; dests &= dests - 1)
    {
        const auto shard = static_cast<uint32_t>(__builtin_ctzll(dests));
        Entry* entry = At(shard, message.stamps[shard]);
        if (!entry || entry->message)
        {
            continue;
        }
        if (!copy)
        {
            copy = std::make_shared<const TxnMessage>(message);
        }
        entry->message = copy;
    }
}

bool
GapIndex::IsNoop(const TxnMessage& message) const
{
    for (uint64_t dests = message.dests; dests != 0; dests &= dests - 1)
    {
        const auto shard = static_cast<uint32_t>(__builtin_ctzll(dests));
        const Entry* entry = Find(shard, message.stamps[shard]);
        if (entry && entry->noop)
        {
            return true;
        }
    }
    return false;
}

void
GapIndex::MarkNoop(const TxnMessage& message)
{
    for (uint64_t dests = message.dests; dests != 0; dests &= dests - 1)
    {
        const auto shard = static_cast<uint32_t>(__builtin_ctzll(dests));
        if (Entry* entry = At(shard, message.stamps[shard]))
        {
            entry->noop = true;
        }
    }
}

std::shared_ptr<const TxnMessage>
GapIndex::Decide(uint32_t shard, uint32_t seq)
{
    Entry* entry = At(shard, seq);
    if (!entry)
    {
        return nullptr;  // every replica is past it: nobody asks for it any more
    }
    if (!entry->message)
    {
        entry->noop = true;
    }
    return entry->noop ? nullptr : entry->message;
}

void
GapIndex::Advance(uint32_t shard, uint32_t base)
{
    Shard& s = m_shards[shard];
    while (s.base < base)
    {
        if (!s.entries.empty())
        {
            s.entries.pop_front();
        }
        ++s.base;
    }
}

// ---- ErisCluster

ErisCluster::ErisCluster(World& world, const ErisConfig& config, const txn::Workload* workload,
                         CsvWriter* clientLog, CsvWriter* serverLog)
    : m_world(world),
      m_config(config),
      m_workload(workload),
      m_clientLog(clientLog),
      m_hosts(static_cast<uint32_t>(world.NumHosts()))
{
    const Topology& topology = world.GetTopology();
    m_stores.resize(Shards(), std::vector<ShardStore>(config.replication));
    m_index.Init(Shards());
    m_scratch.resize(MaxMessageBytes(255));
    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        m_logs.push_back(std::make_unique<ServerLog>(serverLog, h));
        HostNode& host = world.Host(h);
        for (uint32_t t = 0; t < config.threads; ++t)
        {
            m_threads.push_back(std::make_unique<ErisThread>(
                *this, h, t, world.MakeRng("switchtx-eris-thread", h * config.threads + t)));
            for (uint32_t r = 0; r < config.replication; ++r)
            {
                auto endpoint = ns3::CreateObject<ErisEndpoint>();
                endpoint->Configure(this, ErisEndpoint::Role::Shard, t, r);
                host.Bind(ShardPort(r, t), endpoint);
            }
            auto client = ns3::CreateObject<ErisEndpoint>();
            client->Configure(this, ErisEndpoint::Role::Client, t, 0);
            host.Bind(ClientPort(t), client);
        }
    }
    HostNode& coordinator = world.Host(config.coordinatorHost);
    auto fc = ns3::CreateObject<ErisEndpoint>();
    fc->Configure(this, ErisEndpoint::Role::Coordinator, 0, 0);
    coordinator.Bind(kCoordinatorPort, fc);
    if (config.softwareSequencer)
    {
        auto sequencer = ns3::CreateObject<ErisEndpoint>();
        sequencer->Configure(this, ErisEndpoint::Role::Sequencer, 0, 0);
        coordinator.Bind(kSequencerPort, sequencer);
        return;
    }

    // The in-switch sequencer is the switch nearest to every host (the root; [D] 12's S0):
    // the fewest hops to the farthest host, the first in node order on a tie.
    uint32_t best = kUnreached;
    for (uint32_t node : topology.Switches())
    {
        const std::vector<uint32_t> distance = Distances(topology, node);
        uint32_t farthest = 0;
        for (uint32_t h : topology.Hosts())
        {
            farthest = std::max(farthest, distance[h]);
        }
        if (farthest < best)
        {
            best = farthest;
            m_sequencerSwitch = node;
        }
    }
    const std::vector<uint32_t> distance = Distances(topology, m_sequencerSwitch);
    m_towardSequencer.assign(topology.NumNodes(), 0);
    for (uint32_t node : topology.Switches())
    {
        m_towardSequencer[node] = PortToward(topology, node, distance);
    }
}

ErisCluster::~ErisCluster() = default;

ErisThread&
ErisCluster::Thread(uint32_t host, uint32_t thread)
{
    return *m_threads[size_t{host} * m_config.threads + thread];
}

uint32_t
ErisCluster::ShardOf(uint64_t key) const
{
    return m_workload->PartitionOf(key) * m_config.threads +
           static_cast<uint32_t>(Mix(key) % m_config.threads);
}

void
ErisCluster::ConfigureSwitch(P4Pipeline& pipeline, const SwitchDevice& device) const
{
    using configure = contract::MyIngress::configure;
    p4rt::ControlPlane& control = pipeline.Control();
    const uint32_t node = device.NodeId();
    const bool sequencer = node == m_sequencerSwitch;
    control.SetDefaultAction(
        contract::MyIngress::eris_config::kName, configure::kName,
        {{configure::is_sequencer::kName, p4rt::BitString(sequencer ? 1 : 0)},
         {configure::toward_port::kName, p4rt::BitString(sequencer ? 0 : m_towardSequencer[node])},
         {configure::session::kName, p4rt::BitString(kSession)}});
    if (!sequencer)
    {
        return;
    }
    // One node per shard replica: rid = replica * 64 + shard + 1 (eris.p4 takes the shard from
    // the low six bits), each readdressed to its replica's thread.
    const Topology& topology = m_world.GetTopology();
    std::vector<std::vector<uint32_t>> toHost(m_hosts);
    std::vector<p4rt::Replica> replicas;
    using receivers = contract::MyEgress::eris_receivers;
    using to_shard = contract::MyEgress::to_shard;
    for (uint32_t shard = 0; shard < Shards(); ++shard)
    {
        for (uint32_t r = 0; r < m_config.replication; ++r)
        {
            const uint32_t host = HostOf(shard, r);
            if (toHost[host].empty())
            {
                toHost[host] = Distances(topology, topology.Hosts()[host]);
            }
            const uint32_t rid = r * 64 + shard + 1;
            replicas.push_back({PortToward(topology, node, toHost[host]), rid});
            control.AddEntry(receivers::kName,
                             {{receivers::kKeys[0], p4rt::MatchValue::Exact(p4rt::BitString(rid))}},
                             to_shard::kName,
                             {{to_shard::addr::kName, p4rt::BitString(HostIpv4(host))},
                              {to_shard::udp_port::kName,
                               p4rt::BitString(ShardPort(r, ThreadOf(shard)))}});
        }
    }
    control.SetMulticastGroup(contract::ERIS_SHARDS_GROUP, std::move(replicas));
}

void
ErisCluster::Start()
{
    for (auto& thread : m_threads)
    {
        thread->Start();
    }
}

void
ErisCluster::Finish()
{
    for (auto& log : m_logs)
    {
        log->Flush();
    }
}

void
ErisCluster::Charge(uint32_t host, ErisFunction function, std::function<void()> done)
{
    const int64_t costPs = m_config.costPs[static_cast<size_t>(function)];
    m_stats.cpuPs[static_cast<size_t>(function)] += costPs;
    ++m_stats.jobs[static_cast<size_t>(function)];
    m_world.Host(host).Cpu().Execute(costPs, std::move(done));
}

void
ErisCluster::SendTxn(uint32_t host, uint32_t thread, const TxnMessage& message)
{
    const uint32_t length = message.Bytes();
    message.Encode(m_scratch.data());
    if (m_config.softwareSequencer)
    {
        SendHost(host, ClientPort(thread), m_config.coordinatorHost, kSequencerPort,
                 m_scratch.data(), length);
        return;
    }
    // The switches send it toward the sequencer whatever its address; any other host's.
    m_world.Host(host).SendUdp(ClientPort(thread), (host + 1) % m_hosts, contract::ERIS_PORT,
                               m_scratch.data(), length, length, 0);
}

void
ErisCluster::SendHost(uint32_t host, uint16_t srcPort, uint32_t dst, uint16_t port,
                      const uint8_t* bytes, uint32_t length)
{
    m_world.Host(host).SendUdp(srcPort, dst, port, bytes, length, length, 0);
}

void
ErisCluster::ReplicaAdvanced(uint32_t shard)
{
    uint32_t base = std::numeric_limits<uint32_t>::max();
    for (uint32_t r = 0; r < m_config.replication; ++r)
    {
        base = std::min(base, Thread(HostOf(shard, r), ThreadOf(shard)).NextStamp(r));
    }
    m_index.Advance(shard, base);
}

void
ErisCluster::OnShardDatagram(uint32_t host, uint32_t thread, uint32_t replica,
                             const Datagram& datagram)
{
    if (datagram.srcPort == kCoordinatorPort)
    {
        GapMessage decision;
        if (!decision.Decode(datagram.bytes, datagram.materialised) ||
            decision.kind == HostKind::GapQuery)
        {
            return;
        }
        TxnMessage found;
        if (decision.kind == HostKind::GapFound &&
            !found.Decode(datagram.bytes + GapMessage::kBytes,
                          datagram.materialised - GapMessage::kBytes))
        {
            return;
        }
        Thread(host, thread)
            .OnGapDecision(replica, decision,
                           decision.kind == HostKind::GapFound ? &found : nullptr);
        return;
    }
    TxnMessage message;
    if (message.Decode(datagram.bytes, datagram.materialised))
    {
        Thread(host, thread).OnSequenced(replica, message);
    }
}

void
ErisCluster::OnClientDatagram(uint32_t host, uint32_t thread, const Datagram& datagram)
{
    ReplyMessage reply;
    if (reply.Decode(datagram.bytes, datagram.materialised))
    {
        Thread(host, thread).OnReply(reply);
    }
}

void
ErisCluster::OnCoordinatorDatagram(const Datagram& datagram)
{
    GapMessage query;
    if (!query.Decode(datagram.bytes, datagram.materialised) ||
        query.kind != HostKind::GapQuery || query.shard >= Shards() ||
        query.replica >= m_config.replication)
    {
        return;
    }
    const uint32_t src = datagram.srcHost;
    const uint16_t port = datagram.srcPort;
    Charge(m_config.coordinatorHost, ErisFunction::Gap, [this, query, src, port] {
        const std::shared_ptr<const TxnMessage> found = m_index.Decide(query.shard, query.seq);
        GapMessage decision = query;
        decision.kind = found ? HostKind::GapFound : HostKind::GapNoop;
        decision.Encode(m_scratch.data());
        uint32_t length = GapMessage::kBytes;
        if (found)
        {
            found->Encode(m_scratch.data() + length);
            length += found->Bytes();
        }
        SendHost(m_config.coordinatorHost, kCoordinatorPort, src, port, m_scratch.data(),
                 length);
    });
}

void
ErisCluster::OnSequencerDatagram(const Datagram& datagram)
{
    TxnMessage message;
    if (!message.Decode(datagram.bytes, datagram.materialised) ||
        message.type != contract::TYPE_TXN || message.dests == 0 ||
        (message.dests >> Shards()) != 0)
    {
        return;
    }
    m_sequencerQueue.push_back(std::move(message));
    if (!m_sequencerBusy)
    {
        SequenceNext();
    }
}

void
ErisCluster::SequenceNext()
{
    if (m_sequencerQueue.empty())
    {
        m_sequencerBusy = false;
        return;
    }
    m_sequencerBusy = true;
    // One thread: the stamps of a transaction are taken together, as the switch's one pass
    // does (§5.4: the vector update does not parallelise).
    Charge(m_config.coordinatorHost, ErisFunction::Sequence, [this] {
        TxnMessage message = std::move(m_sequencerQueue.front());
        m_sequencerQueue.pop_front();
        ++m_stats.sequenced;
        for (uint64_t dests = message.dests; dests != 0; dests &= dests - 1)
        {
            const auto shard = static_cast<uint32_t>(__builtin_ctzll(dests));
            message.stamps[shard] = ++m_sequencerCounters[shard];
        }
        message.type = contract::TYPE_SEQUENCED;
        message.session = kSession;
        const uint32_t length = message.Bytes();
        message.Encode(m_scratch.data());
        for (uint64_t dests = message.dests; dests != 0; dests &= dests - 1)
        {
            const auto shard = static_cast<uint32_t>(__builtin_ctzll(dests));
            for (uint32_t r = 0; r < m_config.replication; ++r)
            {
                SendHost(m_config.coordinatorHost, kSequencerPort, HostOf(shard, r),
                         ShardPort(r, ThreadOf(shard)), m_scratch.data(), length);
            }
        }
        SequenceNext();
    });
}

// ---- ErisEndpoint

NS_OBJECT_ENSURE_REGISTERED(ErisEndpoint);

ns3::TypeId
ErisEndpoint::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::switchtx::eris::ErisEndpoint")
                                 .SetParent<Endpoint>()
                                 .SetGroupName("Incsim")
                                 .AddConstructor<ErisEndpoint>();
    return tid;
}

void
ErisEndpoint::DoReceive(const Datagram& datagram)
{
    switch (m_role)
    {
    case Role::Shard:
        m_cluster->OnShardDatagram(Host().Index(), m_thread, m_replica, datagram);
        return;
    case Role::Client:
        m_cluster->OnClientDatagram(Host().Index(), m_thread, datagram);
        return;
    case Role::Coordinator:
        m_cluster->OnCoordinatorDatagram(datagram);
        return;
    case Role::Sequencer:
        m_cluster->OnSequencerDatagram(datagram);
        return;
    }
}

} // namespace incsim::switchtx::eris
