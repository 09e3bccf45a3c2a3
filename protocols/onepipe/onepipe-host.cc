#include "protocols/onepipe/onepipe-host.h"

#include "protocols/onepipe/onepipe-endpoint.h"
#include "protocols/onepipe/onepipe-wire.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/headers.h"

#include <ns3/simulator.h>

namespace incsim::onepipe
{

NS_OBJECT_ENSURE_REGISTERED(OnePipeHost);

ns3::TypeId
OnePipeHost::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::onepipe::OnePipeHost")
                                 .SetParent<ns3::Object>()
                                 .SetGroupName("Incsim")
                                 .AddConstructor<OnePipeHost>();
    return tid;
}

OnePipeHost::OnePipeHost() = default;
OnePipeHost::~OnePipeHost()
{
    m_beaconEvent.Cancel();
}

void
OnePipeHost::Configure(HostNode& host, const HostConfig& config, Stats* stats)
{
    m_host = &host;
    m_config = config;
    m_stats = stats;
    m_clock = TimestampClock(&host.Clock(), config.logicalClock, config.clockGainPerNs);
    if (config.ordered)
    {
        host.SetEtherTypeHandler(kEtherType,
                                 [this](const Frame& frame, uint32_t) { ReceiveBeacon(frame); });
    }
}

void
OnePipeHost::Start()
{
    if (m_config.ordered)
    {
        ScheduleBeacon();
    }
}

void
OnePipeHost::ScheduleBeacon()
{
    // Synchronized beacons: at the next multiple of the interval on the timestamp clock, so
    // that every host's round-k beacon carries (about) k * interval.
    const uint64_t interval = static_cast<uint64_t>(m_config.beaconIntervalNs);
    m_nextBeaconTs = (m_clock.Now() / interval + 1) * interval;
    WaitForBeaconTime();
}

void
OnePipeHost::WaitForBeaconTime()
{
    m_beaconEvent = ns3::Simulator::Schedule(
        ns3::NanoSeconds(m_clock.LocalNsUntil(m_nextBeaconTs)), &OnePipeHost::SendBeacon, this);
}

void
OnePipeHost::SendBeacon()
{
    // A logical clock whose rate fell since the wait began (or an oscillator running slow)
    // has not reached the round yet: wait for it rather than send a beacon of an old round.
    if (m_clock.Now() < m_nextBeaconTs)
    {
        WaitForBeaconTime();
        return;
    }
    if (m_host->IsUp())
    {
        Header header;
        header.messageTs = Timestamp();
        header.barrier = header.messageTs;
        header.opcode = Opcode::Beacon;
        FramePtr frame = MakeBeaconFrame(NodeMac(m_host->NodeId()), header, m_config.priority);
        if (m_host->SendFrame(0, std::move(frame)))
        {
            ++m_stats->hostBeacons;
            ++m_beaconsSent;
        }
    }
    ScheduleBeacon();
}

void
OnePipeHost::ReceiveBeacon(const Frame& frame)
{
    if (frame.length < kEthernetHeaderBytes + Header::kBytes)
    {
        return;
    }
    ObserveBarrier(Header::Read(frame.data + kEthernetHeaderBytes).barrier);
}

void
OnePipeHost::ObserveBarrier(uint64_t barrier)
{
    if (barrier <= m_barrier)
    {
        return;
    }
    m_barrier = barrier;
    // Lamport's rule (TimestampClock): the clock passes the barrier before anything below it
    // is delivered.
    if (m_clock.AdvanceTo(barrier))
    {
        ++m_stats->clockRaises;
    }
    for (OnePipeEndpoint* process : m_processes)
    {
        process->DeliverBelow(barrier);
    }
}

void
OnePipeHost::DoDispose()
{
    m_beaconEvent.Cancel();
    m_processes.clear();
    m_host = nullptr;
    ns3::Object::DoDispose();
}

} // namespace incsim::onepipe
