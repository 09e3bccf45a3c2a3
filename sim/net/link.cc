#include "sim/net/link.h"

#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

namespace incsim
{

NS_OBJECT_ENSURE_REGISTERED(Link);

ns3::TypeId
Link::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("incsim::Link")
            .SetParent<ns3::Object>()
            .SetGroupName("Incsim")
            .AddConstructor<Link>()
            .AddTraceSource("Drop",
                            "A frame was lost on the link or dropped because the link is down.",
                            ns3::MakeTraceSourceAccessor(&Link::m_dropTrace),
                            "incsim::Link::DropCallback");
    return tid;
}

Link::Link() = default;
Link::~Link() = default;

void
Link::Configure(uint32_t id, int64_t delayPs, double lossRate, uint64_t seed)
{
    m_id = id;
    m_delayPs = delayPs;
    m_lossRate = lossRate;
    for (int side = 0; side < 2; ++side)
    {
        m_dir[side].lossRng = Rng(seed, "link-loss", 2ULL * id + side);
    }
}

void
Link::Attach(int side, FrameSink* sink, uint32_t nodeId, uint32_t port, int64_t rxExtraPs)
{
    // Frames sent from `side` arrive at the other side's sink.
    Direction& in = m_dir[1 - side];
    in.sink = sink;
    in.toPort = port;
    in.latencyPs = m_delayPs + rxExtraPs;
    m_dir[side].fromNode = nodeId;
    m_dir[side].fromPort = port;
}

void
Link::Transmit(int side, FramePtr frame, uint64_t wireBytes, int64_t lastBitPs)
{
    Direction& d = m_dir[side];
    if (!m_up)
    {
        ++d.counters.downDrops;
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(*frame, d.fromNode, d.fromPort, DropReason::LinkDown);
        }
        return;
    }
    ++d.counters.txFrames;
    d.counters.txBytes += wireBytes;
    if (m_lossRate > 0 && d.lossRng.Bernoulli(m_lossRate))
    {
        ++d.counters.lossDrops;
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(*frame, d.fromNode, d.fromPort, DropReason::LinkLoss);
        }
        return;
    }
    int64_t arrival = lastBitPs + d.latencyPs;
    bool wasIdle = d.inFlight.Empty();
    d.inFlight.Push(InFlight{arrival, std::move(frame)});
    if (wasIdle)
    {
        d.event = ns3::Simulator::Schedule(Ps(arrival - NowPs()), &Link::Deliver, this, side);
    }
}

void
Link::Deliver(int side)
{
    Direction& d = m_dir[side];
    InFlight head = d.inFlight.Pop();
    if (!d.inFlight.Empty())
    {
        d.event = ns3::Simulator::Schedule(Ps(d.inFlight.Front().arrivalPs - NowPs()),
                                           &Link::Deliver,
                                           this,
                                           side);
    }
    ++d.counters.deliveredFrames;
    d.sink->ReceiveFrame(std::move(head.frame), d.toPort);
}

void
Link::DropInFlight(int side)
{
    Direction& d = m_dir[side];
    d.event.Cancel();
    while (!d.inFlight.Empty())
    {
        InFlight lost = d.inFlight.Pop();
        ++d.counters.downDrops;
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(*lost.frame, d.fromNode, d.fromPort, DropReason::LinkDown);
        }
    }
}

void
Link::SetUp(bool up)
{
    if (m_up && !up)
    {
        DropInFlight(0);
        DropInFlight(1);
    }
    m_up = up;
}

void
Link::SetLossRate(double lossRate)
{
    m_lossRate = lossRate;
}

void
Link::DoDispose()
{
    for (auto& d : m_dir)
    {
        d.event.Cancel();
        while (!d.inFlight.Empty())
        {
            d.inFlight.Pop();
        }
    }
    ns3::Object::DoDispose();
}

} // namespace incsim
