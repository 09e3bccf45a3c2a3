#include "protocols/onepipe/beacon-processor.h"

#include "protocols/onepipe/onepipe-wire.h"
#include "sim/core/sim-time.h"
#include "sim/net/headers.h"
#include "sim/switch/switch-device.h"

#include <ns3/simulator.h>

#include <algorithm>

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
    for (Port& port : m_ports)
    {
        port.commitLive = config.commitInputs;
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
        for (Port& port : m_ports)
        {
            port = Port{};
        }
        m_upHigh = 0;
        m_allHigh = 0;
        m_commitUpHigh = 0;
        m_commitAllHigh = 0;
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

void
BeaconProcessor::Broadcast(bool tick)
{
    uint64_t up = kNoBarrier;
    uint64_t all = kNoBarrier;
    uint64_t commitUp = kNoBarrier;
    uint64_t commitAll = kNoBarrier;
    bool commitInputs = false;
    bool commitBelow = false;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        const Port& port = m_ports[p];
        const bool below = ((m_config.upPorts >> p) & 1) == 0;
        if (port.live)
        {
            all = std::min(all, port.barrier);
            up = below ? std::min(up, port.barrier) : up;
        }
        if (port.commitLive)
        {
            commitInputs = true;
            commitBelow = commitBelow || below;
            commitAll = std::min(commitAll, port.commit);
            commitUp = below ? std::min(commitUp, port.commit) : commitUp;
        }
    }
    const bool upAdvanced = up != kNoBarrier && up > m_upHigh;
    const bool allAdvanced = all != kNoBarrier && all > m_allHigh;
    // With commit inputs but none below left (the controller removed them all), nothing below
    // holds the neighbours back: the maximum goes up, as onepipe.p4 does.
    const bool commitUpAdvanced =
        (commitUp != kNoBarrier || (commitInputs && !commitBelow)) && commitUp > m_commitUpHigh;
    const bool commitAllAdvanced = commitAll != kNoBarrier && commitAll > m_commitAllHigh;
    if (!tick && !upAdvanced && !allAdvanced && !commitUpAdvanced && !commitAllAdvanced)
    {
        return;
    }
    m_upHigh = upAdvanced ? up : m_upHigh;
    m_allHigh = allAdvanced ? all : m_allHigh;
    m_commitUpHigh = commitUpAdvanced ? commitUp : m_commitUpHigh;
    m_commitAllHigh = commitAllAdvanced ? commitAll : m_commitAllHigh;
    // As onepipe.p4: with no live port below, the barrier sent up is the maximum (nothing
    // below holds the neighbours back), without raising the high-water mark; the commit
    // barrier is the maximum only once the controller removed every commit input below. The
    // barrier to the other ports never is (a processor with no live port sends its mark).
    ns3::Simulator::Schedule(ns3::PicoSeconds(m_config.broadcastDelayPs + m_config.linkDelayPs),
                             &BeaconProcessor::Send, this, m_generation,
                             Barriers{std::max(up, m_upHigh), m_allHigh,
                                      m_commitUpHigh, m_commitAllHigh, m_allHigh,
                                      std::max({m_upHigh, m_allHigh, m_joinAbove})},
                             tick);
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
        const bool isUp = (m_config.upPorts >> p) & 1;
        const uint64_t barrier = isUp ? barriers.up : barriers.all;
        const uint64_t commit = isUp ? barriers.commitUp : barriers.commitAll;
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
