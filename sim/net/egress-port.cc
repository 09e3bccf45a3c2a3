#include "sim/net/egress-port.h"

#include "sim/core/sim-time.h"
#include "sim/net/headers.h"
#include "sim/net/link.h"

#include <ns3/simulator.h>
#include <ns3/uinteger.h>

#include <algorithm>
#include <cmath>

namespace incsim
{

NS_OBJECT_ENSURE_REGISTERED(EgressPort);

ns3::TypeId
EgressPort::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("incsim::EgressPort")
            .SetParent<ns3::Object>()
            .SetGroupName("Incsim")
            .AddConstructor<EgressPort>()
            .AddAttribute("EcnThreshold",
                          "Bytes queued behind a departing frame above which the port marks an "
                          "ECN-capable IPv4 frame CE (RFC 3168, as DCTCP switches do); 0: none.",
                          ns3::UintegerValue(0),
                          ns3::MakeUintegerAccessor(&EgressPort::m_ecnThresholdBytes),
                          ns3::MakeUintegerChecker<uint64_t>())
            .AddTraceSource("Enqueue",
                            "A frame entered a queue of this port.",
                            ns3::MakeTraceSourceAccessor(&EgressPort::m_enqueueTrace),
                            "incsim::EgressPort::FrameCallback")
            .AddTraceSource("Transmit",
                            "A frame started serialisation onto the link.",
                            ns3::MakeTraceSourceAccessor(&EgressPort::m_transmitTrace),
                            "incsim::EgressPort::FrameCallback")
            .AddTraceSource("Drop",
                            "A frame was dropped at this port (buffer full, or flushed).",
                            ns3::MakeTraceSourceAccessor(&EgressPort::m_dropTrace),
                            "incsim::EgressPort::DropCallback");
    return tid;
}

EgressPort::EgressPort() = default;
EgressPort::~EgressPort() = default;

void
EgressPort::Configure(uint32_t nodeId,
                      uint32_t port,
                      uint64_t rateBps,
                      uint64_t bufferBytes,
                      uint32_t priorities,
                      TransmitHook* hook)
{
    m_nodeId = nodeId;
    m_port = port;
    m_rateBps = rateBps;
    m_bufferBytes = bufferBytes;
    m_hook = hook;
    m_queues.resize(std::max<uint32_t>(priorities, 1));
}

int64_t
EgressPort::BacklogPs() const
{
    const double bits = (static_cast<double>(m_queuedBytes) +
                         static_cast<double>(m_queuedFrames) * kWireOverheadBytes) *
                        8;
    return std::max<int64_t>(0, m_busyUntilPs - NowPs()) +
           static_cast<int64_t>(std::ceil(bits * 1e12 / static_cast<double>(m_rateBps)));
}

void
EgressPort::ConnectLink(Link* link, int side)
{
    m_link = link;
    m_side = side;
}

int64_t
EgressPort::SerialisationPs(uint64_t wireBytes) const
{
    // Exact to the picosecond, rounded up; frames are small enough that bits * 1e12 fits.
    uint64_t bits = (wireBytes + kWireOverheadBytes) * 8;
    return static_cast<int64_t>((bits * 1000000000000ULL + m_rateBps - 1) / m_rateBps);
}

bool
EgressPort::Enqueue(FramePtr frame)
{
    if (m_queuedBytes + frame->wireLength > m_bufferBytes)
    {
        ++m_counters.bufferDrops;
        if (!m_dropTrace.IsEmpty())
        {
            m_dropTrace(*frame, m_nodeId, m_port, DropReason::BufferFull);
        }
        return false;
    }
    ++m_counters.enqueued;
    if (!m_enqueueTrace.IsEmpty())
    {
        m_enqueueTrace(*frame, m_nodeId, m_port);
    }
    size_t priority = std::min<size_t>(frame->meta.priority, m_queues.size() - 1);
    frame->meta.enqQdepth = static_cast<uint32_t>(m_queuedFrames);
    ++m_queuedFrames;
    m_queuedBytes += frame->wireLength;
    m_counters.maxQueuedBytes = std::max(m_counters.maxQueuedBytes, m_queuedBytes);
    m_queues[priority].Push(std::move(frame));

    // Invariant: frames wait only while a TransmissionDone event is pending.
    if (m_donePending)
    {
        return true;
    }
    if (NowPs() >= m_busyUntilPs)
    {
        StartNext();
    }
    else
    {
        ScheduleDone();
    }
    return true;
}

void
EgressPort::StartNext()
{
    for (auto q = m_queues.rbegin(); q != m_queues.rend(); ++q)
    {
        while (!q->Empty())
        {
            FramePtr frame = q->Pop();
            --m_queuedFrames;
            m_queuedBytes -= frame->wireLength;
            if (m_hook != nullptr && !m_hook->PrepareTransmit(*frame, m_port))
            {
                continue; // the egress pipeline dropped it; try the next frame
            }
            ++m_counters.transmitted;
            if (m_ecnThresholdBytes > 0 && m_queuedBytes > m_ecnThresholdBytes &&
                MarkCongestionExperienced(*frame))
            {
                ++m_counters.ecnMarks;
            }
            if (!m_transmitTrace.IsEmpty())
            {
                m_transmitTrace(*frame, m_nodeId, m_port);
            }
            uint64_t wireBytes = frame->wireLength + kWireOverheadBytes;
            m_busyUntilPs = NowPs() + SerialisationPs(frame->wireLength);
            m_link->Transmit(m_side, std::move(frame), wireBytes, m_busyUntilPs);
            if (m_queuedBytes > 0)
            {
                ScheduleDone();
            }
            return;
        }
    }
}

void
EgressPort::ScheduleDone()
{
    m_donePending = true;
    m_doneEvent =
        ns3::Simulator::Schedule(Ps(m_busyUntilPs - NowPs()), &EgressPort::TransmissionDone, this);
}

void
EgressPort::TransmissionDone()
{
    m_donePending = false;
    StartNext();
}

void
EgressPort::Flush(DropReason reason)
{
    for (auto& q : m_queues)
    {
        while (!q.Empty())
        {
            FramePtr frame = q.Pop();
            ++m_counters.flushDrops[static_cast<size_t>(reason)];
            if (!m_dropTrace.IsEmpty())
            {
                m_dropTrace(*frame, m_nodeId, m_port, reason);
            }
        }
    }
    m_queuedBytes = 0;
    m_queuedFrames = 0;
    m_doneEvent.Cancel();
    m_donePending = false;
}

void
EgressPort::DoDispose()
{
    m_doneEvent.Cancel();
    for (auto& q : m_queues)
    {
        while (!q.Empty())
        {
            q.Pop();
        }
    }
    m_queuedBytes = 0;
    m_queuedFrames = 0;
    ns3::Object::DoDispose();
}

} // namespace incsim
