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
        std::fill(m_ports.begin(), m_ports.end(), Port{});
        m_upHigh = 0;
        m_allHigh = 0;
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
    const uint64_t barrier = Header::Read(frame->data + kEthernetHeaderBytes).barrier;
    if (port >= m_ports.size())
    {
        return;
    }
    if (m_config.linkDelayPs == 0)
    {
        Record(m_generation, port, barrier);
        return;
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(m_config.linkDelayPs), &BeaconProcessor::Record,
                             this, m_generation, port, barrier);
}

void
BeaconProcessor::Record(uint64_t generation, uint32_t port, uint64_t barrier)
{
    if (generation != m_generation)
    {
        return;
    }
    Port& in = m_ports[port];
    in.barrier = std::max(in.barrier, barrier);
    in.lastSeenPs = NowPs();
    if (!in.live)
    {
        // Admitted once above every barrier sent to the outputs this port feeds.
        const bool isUp = (m_config.upPorts >> port) & 1;
        if (in.barrier <= (isUp ? m_allHigh : std::max(m_upHigh, m_allHigh)))
        {
            return;
        }
        in.live = true;
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

void
BeaconProcessor::Broadcast(bool tick)
{
    uint64_t up = kNoBarrier;
    uint64_t all = kNoBarrier;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        if (!m_ports[p].live)
        {
            continue;
        }
        all = std::min(all, m_ports[p].barrier);
        if (((m_config.upPorts >> p) & 1) == 0)
        {
            up = std::min(up, m_ports[p].barrier);
        }
    }
    const bool upAdvanced = up != kNoBarrier && up > m_upHigh;
    const bool allAdvanced = all != kNoBarrier && all > m_allHigh;
    if (!tick && !upAdvanced && !allAdvanced)
    {
        return;
    }
    m_upHigh = upAdvanced ? up : m_upHigh;
    m_allHigh = allAdvanced ? all : m_allHigh;
    // As onepipe.p4: with no live port below, the barrier sent up is the maximum (nothing
    // below holds the neighbours back), without raising the high-water mark.
    ns3::Simulator::Schedule(ns3::PicoSeconds(m_config.broadcastDelayPs + m_config.linkDelayPs),
                             &BeaconProcessor::Send, this, m_generation,
                             std::max(up, m_upHigh), std::max(all, m_allHigh), tick);
}

void
BeaconProcessor::Send(uint64_t generation, uint64_t up, uint64_t all, bool tick)
{
    if (generation != m_generation || !m_device.IsUp())
    {
        return;
    }
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        Port& out = m_ports[p];
        const uint64_t barrier = ((m_config.upPorts >> p) & 1) ? up : all;
        const bool idleTick = tick && !out.busy;
        if (tick)
        {
            out.busy = false;
        }
        if (barrier <= out.sent && !idleTick)
        {
            continue;
        }
        out.sent = std::max(out.sent, barrier);
        out.busy = !tick;
        Header header;
        header.messageTs = barrier;
        header.barrier = barrier;
        header.psn = p; // packet-out port (onepipe.p4, MODE_CPU)
        header.opcode = Opcode::Beacon;
        m_device.InjectFromCpu(MakeBeaconFrame(NodeMac(m_device.NodeId()), header,
                                               m_config.priority));
        ++out.beaconsSent;
    }
}

} // namespace incsim::onepipe
