#include "protocols/onepipe/beacon-processor.h"

#include "protocols/onepipe/onepipe-wire.h"
#include "sim/core/sim-time.h"
#include "sim/net/headers.h"
#include "sim/switch/switch-device.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <limits>

namespace incsim::onepipe
{

namespace
{
constexpr uint64_t kNoBarrier = kTimestampMask; // onepipe.p4's BARRIER_MAX
}

BeaconProcessor::BeaconProcessor(SwitchDevice& device, const BeaconProcessorConfig& config)
    : m_device(device),
      m_config(config),
      m_ports(device.NumPorts())
{
    ResetPorts(m_config.commitInputs);
}

void
BeaconProcessor::ResetPorts(bool commitInputs)
{
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        const bool silent = (m_config.silentPorts >> p) & 1;
        m_ports[p] = Port{};
        m_ports[p].live = !silent;
        m_ports[p].commitLive = commitInputs && !silent;
    }
}

uint32_t
BeaconProcessor::SilentCommitInputs() const
{
    uint32_t silent = 0;
    for (uint32_t p = 0; p < m_ports.size() && p < 32; ++p)
    {
        silent |= !m_ports[p].live && m_ports[p].commitLive ? 1u << p : 0;
    }
    return silent;
}

uint32_t
BeaconProcessor::LivePorts() const
{
    uint32_t live = 0;
    for (uint32_t p = 0; p < m_ports.size() && p < 32; ++p)
    {
        live |= Out(m_ports[p]) ? 0 : 1u << p;
    }
    return live;
}

void
BeaconProcessor::ReadmitCommitInput(uint32_t port)
{
    m_ports[port].commitLive = true;
    if (((m_config.upPorts >> port) & 1) == 0 && m_commitUpHigh == kNoBarrier)
    {
        m_commitUpHigh = 0; // as ChipCommitInputs
    }
}

BeaconProcessor::~BeaconProcessor()
{
    m_tick.Cancel();
}

void
BeaconProcessor::Start()
{
    m_device.SetCpuHandler([this](FramePtr frame) { FromChip(std::move(frame)); });
    m_device.TraceConnectWithoutContext(
        "State", ns3::MakeCallback(&BeaconProcessor::SwitchStateChanged, this));
    const int64_t interval = m_config.intervalNs * kPsPerNs;
    const int64_t now = NowPs();
    m_tick = ns3::Simulator::Schedule(ns3::PicoSeconds((now / interval + 1) * interval - now),
                                      &BeaconProcessor::Tick, this);
}

void
BeaconProcessor::SwitchStateChanged(bool up)
{
    if (!up)
    {
        // As the chip's registers: no commit input survives; the failure detector re-admits
        // each port as its neighbour returns.
        ResetPorts(false);
        m_upHigh = 0;
        m_allHigh = 0;
        m_commitUpHigh = 0;
        m_commitAllHigh = 0;
        m_lastBroadcast = Barriers{};
        m_lastBroadcastPs = std::numeric_limits<int64_t>::min() / 2;
        m_joinAbove = 0;
        m_blockedBy = 0;
        ++m_generation;
    }
}

void
BeaconProcessor::FromChip(FramePtr frame)
{
    if (frame->length < kEthernetHeaderBytes + Header::kBytes)
    {
        return;
    }
    const uint32_t port = frame->meta.ingressPort;
    const Header header = Header::Read(frame->data + kEthernetHeaderBytes);
    if (port >= m_ports.size())
    {
        return;
    }
    if (m_config.receiveLoss > 0 && m_config.lossRng.Bernoulli(m_config.receiveLoss))
    {
        ++m_receiveDrops;
        return;
    }
    const uint64_t join = (header.flags & kFlagJoin) ? header.messageTs : 0;
    if (m_config.linkDelayPs == 0)
    {
        Record(m_generation, port, header.barrier, header.commitBarrier, join);
        return;
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(m_config.linkDelayPs), &BeaconProcessor::Record,
                             this, m_generation, port, header.barrier, header.commitBarrier,
                             join);
}

bool
BeaconProcessor::Out(const Port& port) const
{
    return !port.live || port.barrier == kNoBarrier;
}

void
BeaconProcessor::Record(uint64_t generation, uint32_t port, uint64_t barrier, uint64_t commit,
                        uint64_t join)
{
    if (generation != m_generation)
    {
        return;
    }
    Port& in = m_ports[port];
    const bool isUp = (m_config.upPorts >> port) & 1;
    in.commit = std::max(in.commit, commit);
    in.lastSeenPs = NowPs();
    if (isUp)
    {
        // A join from above: the neighbour there blocks this switch's barrier, so the ports
        // below must pass its join timestamp too (as onepipe.p4).
        m_joinAbove = std::max(m_joinAbove, join);
        m_blockedBy = join != 0 ? m_blockedBy | (1u << port) : m_blockedBy & ~(1u << port);
    }
    if (Out(in))
    {
        // Admitted once above every barrier sent to the outputs this port feeds (as onepipe.p4).
        if (barrier <= (isUp ? m_allHigh : std::max(m_upHigh, m_allHigh)))
        {
            return;
        }
        in.live = true;
        in.barrier = barrier;
    }
    in.barrier = std::max(in.barrier, barrier);
    if (m_device.CpuBacklog() > 0 &&
        NowPs() - m_lastBroadcastPs < m_config.intervalNs * kPsPerNs)
    {
        return; // the last beacon of the batch waiting at the CPU port broadcasts for it
    }
    Broadcast(false);
}

void
BeaconProcessor::Tick()
{
    const int64_t interval = m_config.intervalNs * kPsPerNs;
    m_tick = ns3::Simulator::Schedule(ns3::PicoSeconds(interval), &BeaconProcessor::Tick, this);
    if (!m_device.IsUp())
    {
        return;
    }
    const int64_t silentAfter = NowPs() - m_config.portTimeoutIntervals * interval;
    for (Port& port : m_ports)
    {
        if (port.live && port.lastSeenPs < silentAfter)
        {
            port.live = false;
        }
    }
    Broadcast(true);
}

uint32_t
BeaconProcessor::GroupOf(uint32_t port) const
{
    if ((m_config.upPorts >> port) & 1)
    {
        return m_config.upPorts;
    }
    return port < m_config.portGroups.size() ? m_config.portGroups[port] : 0;
}

template <typename Value>
BeaconProcessor::Minima
BeaconProcessor::MinimaOver(uint32_t inputs, Value value) const
{
    Minima minima{kNoBarrier, kNoBarrier, 0};
    uint32_t holder = 0;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        if ((inputs >> p) & 1 && value(m_ports[p]) < minima.min)
        {
            minima.min = value(m_ports[p]);
            holder = p;
        }
    }
    minima.group = GroupOf(holder);
    const uint32_t rest = inputs & ~minima.group;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        if ((rest >> p) & 1)
        {
            minima.second = std::min(minima.second, value(m_ports[p]));
        }
    }
    return minima;
}

void
BeaconProcessor::Broadcast(bool tick)
{
    uint32_t live = 0;
    uint32_t commitLive = 0;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        live |= m_ports[p].live ? 1u << p : 0;
        commitLive |= m_ports[p].commitLive ? 1u << p : 0;
    }
    Barriers barriers;
    barriers.barrier = MinimaOver(live, [](const Port& port) { return port.barrier; });
    if (barriers.barrier.min == kNoBarrier)
    {
        // No live input holds a barrier (just recovered, or all it connects left), as
        // onepipe.p4: the maximum up, the highest sent to the other ports, never the maximum
        // (hosts would raise their clocks to it).
        barriers.barrier = Minima{m_allHigh, kNoBarrier, m_config.upPorts};
    }
    // No commit input at all (best effort has none): the highest sent, 0 if none, as onepipe.p4.
    barriers.commit = commitLive != 0
                          ? MinimaOver(commitLive, [](const Port& port) { return port.commit; })
                          : Minima{m_commitAllHigh, m_commitUpHigh, m_config.upPorts};
    if (barriers.commit.min == kNoBarrier)
    {
        // Every commit input holds the maximum: as the barrier above.
        barriers.commit = Minima{m_commitAllHigh, kNoBarrier, m_config.upPorts};
    }
    if (!tick && !barriers.barrier.AdvancedFrom(m_lastBroadcast.barrier) &&
        !barriers.commit.AdvancedFrom(m_lastBroadcast.commit))
    {
        return;
    }
    m_lastBroadcast = barriers;
    m_lastBroadcastPs = NowPs();
    // High-water marks, as onepipe.p4: the most sent up and to the other ports; the maximum
    // (no input feeds the port) does not count for the best-effort barrier.
    const Minima& b = barriers.barrier;
    const uint32_t up = m_config.upPorts;
    const uint64_t toUp = b.group & up ? b.second : b.min;
    const uint64_t toDown = b.group & ~up && b.second != kNoBarrier ? b.second : b.min;
    m_upHigh = toUp != kNoBarrier ? std::max(m_upHigh, toUp) : m_upHigh;
    m_allHigh = toDown != kNoBarrier ? std::max(m_allHigh, toDown) : m_allHigh;
    const Minima& c = barriers.commit;
    m_commitUpHigh = std::max(m_commitUpHigh, c.group & up ? c.second : c.min);
    m_commitAllHigh = std::max(m_commitAllHigh, c.group & ~up ? c.second : c.min);
    // The join timestamps (as onepipe.p4): what an out port must pass, the marks after this
    // broadcast, and for a port below also the join timestamp from above.
    barriers.joinUp = m_allHigh;
    barriers.joinDown = std::max({m_upHigh, m_allHigh, m_joinAbove});
    ns3::Simulator::Schedule(ns3::PicoSeconds(m_config.broadcastDelayPs + m_config.linkDelayPs),
                             &BeaconProcessor::Send, this, m_generation, barriers, tick);
}

void
BeaconProcessor::Send(uint64_t generation, Barriers barriers, bool tick)
{
    if (generation != m_generation || !m_device.IsUp())
    {
        return;
    }
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        Port& out = m_ports[p];
        const uint64_t barrier = barriers.barrier.For(p);
        const uint64_t commit = barriers.commit.For(p);
        const bool idleTick = tick && !out.busy;
        if (tick)
        {
            out.busy = false;
        }
        if (barrier <= out.sent && commit <= out.sentCommit && !idleTick)
        {
            continue;
        }
        out.sent = std::max(out.sent, barrier);
        out.sentCommit = std::max(out.sentCommit, commit);
        out.busy = !tick;
        // A port that is out, and every port below while a neighbour above blocks this
        // switch, gets the join timestamp (as onepipe.p4).
        // (The latter get the timestamp from above alone: this switch's marks follow their own
        // barriers, which a join would then chase.)
        const bool isUp = (m_config.upPorts >> p) & 1;
        const bool outPort = Out(out);
        const bool join = outPort || (!isUp && m_blockedBy != 0);
        Header header;
        header.messageTs = !join    ? barrier
                           : outPort ? (isUp ? barriers.joinUp : barriers.joinDown)
                                     : m_joinAbove;
        header.flags = join ? kFlagJoin : 0;
        header.barrier = barrier;
        header.commitBarrier = commit;
        header.psn = p; // packet-out port (onepipe.p4, MODE_CPU)
        header.opcode = Opcode::Beacon;
        m_device.InjectFromCpu(MakeBeaconFrame(NodeMac(m_device.NodeId()), header,
                                               m_config.priority));
        ++out.beaconsSent;
    }
}

} // namespace incsim::onepipe
