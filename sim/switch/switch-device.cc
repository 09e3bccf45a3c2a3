#include "sim/switch/switch-device.h"

#include "sim/core/sim-time.h"
#include "sim/net/egress-port.h"

#include "p4/runtime/v1model.h"

#include <ns3/boolean.h>
#include <ns3/simulator.h>
#include <ns3/uinteger.h>

namespace incsim
{

NS_OBJECT_ENSURE_REGISTERED(SwitchDevice);

ns3::TypeId
SwitchDevice::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("incsim::SwitchDevice")
            .SetParent<NetworkNode>()
            .SetGroupName("Incsim")
            .AddConstructor<SwitchDevice>()
            .AddAttribute("Priorities",
                          "Number of strict-priority queues per egress port.",
                          ns3::UintegerValue(8),
                          ns3::MakeUintegerAccessor(&SwitchDevice::m_priorities),
                          ns3::MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("CpuPort",
                          "Port number that addresses the switch CPU in egressSpec.",
                          ns3::UintegerValue(255),
                          ns3::MakeUintegerAccessor(&SwitchDevice::m_cpuPort),
                          ns3::MakeUintegerChecker<uint32_t>(0, 510))
            .AddAttribute("CpuServiceTime",
                          "Switch CPU processing time per packet.",
                          ns3::TimeValue(ns3::MicroSeconds(2)),
                          ns3::MakeTimeAccessor(&SwitchDevice::m_cpuServiceTime),
                          ns3::MakeTimeChecker())
            .AddAttribute("CpuQueueSize",
                          "Packets that may wait for the switch CPU.",
                          ns3::UintegerValue(1024),
                          ns3::MakeUintegerAccessor(&SwitchDevice::m_cpuQueueLimit),
                          ns3::MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PipelineDelay",
                          "Latency from the end of reception to the traffic manager.",
                          ns3::TimeValue(ns3::NanoSeconds(400)),
                          ns3::MakeTimeAccessor(&SwitchDevice::m_pipelineDelay),
                          ns3::MakeTimeChecker())
            .AddTraceSource("State",
                            "The switch crashed (false) or recovered (true).",
                            ns3::MakeTraceSourceAccessor(&SwitchDevice::m_stateTrace),
                            "ns3::TracedValueCallback::Bool");
    return tid;
}

SwitchDevice::SwitchDevice() = default;
SwitchDevice::~SwitchDevice() = default;

void
SwitchDevice::Configure(uint32_t nodeId, std::string name, uint32_t numPorts)
{
    ConfigureNode(nodeId, std::move(name), numPorts);
}

void
SwitchDevice::SetPipeline(std::unique_ptr<SwitchPipeline> pipeline)
{
    m_pipeline = std::move(pipeline);
}

void
SwitchDevice::ReceiveFrame(FramePtr frame, uint32_t port)
{
    if (!m_up)
    {
        Drop(*frame, port, DropReason::NodeDown);
        return;
    }
    ++m_counters.received;
    TraceReceive(*frame, port);
    StartIngress(std::move(frame), port);
}

void
SwitchDevice::StartIngress(FramePtr frame, uint32_t port)
{
    StandardMetadata& meta = frame->meta;
    meta = StandardMetadata{};
    meta.ingressPort = port;
    meta.packetLength = frame->wireLength;
    meta.ingressTimestampPs = NowPs();
    m_pipeline->Ingress(*frame);
    Dispatch(std::move(frame));
}

void
SwitchDevice::InjectFromCpu(FramePtr frame)
{
    if (m_up)
    {
        StartIngress(std::move(frame), m_cpuPort);
    }
}

void
SwitchDevice::SendFromCpu(FramePtr frame, uint32_t port)
{
    if (!m_up || port >= m_ports.size())
    {
        return;
    }
    frame->meta.egressPort = port;
    if (m_ports[port]->Enqueue(std::move(frame)))
    {
        ++m_counters.forwarded;
    }
}

void
SwitchDevice::Recirculate(FramePtr frame)
{
    if (!m_up)
    {
        Drop(*frame, 0, DropReason::NodeDown);
        return;
    }
    m_recirculating.Push(std::move(frame));
    ns3::Simulator::Schedule(m_pipelineDelay, &SwitchDevice::RecirculationDone, this,
                             m_generation);
}

void
SwitchDevice::RecirculationDone(uint64_t generation)
{
    if (generation != m_generation || m_recirculating.Empty())
    {
        return;  // the switch crashed since: its frames were dropped
    }
    FramePtr frame = m_recirculating.Pop();
    frame->meta.ingressTimestampPs = NowPs();
    m_pipeline->Ingress(*frame);
    Dispatch(std::move(frame));
}

void
SwitchDevice::EnqueueAfterEgress(FramePtr frame, uint32_t port)
{
    // The egress port is in the middle of dequeuing: enqueue once it has finished.
    m_afterEgress.Push({std::move(frame), port});
    ns3::Simulator::ScheduleNow(&SwitchDevice::AfterEgressDone, this, m_generation);
}

void
SwitchDevice::AfterEgressDone(uint64_t generation)
{
    if (generation != m_generation || m_afterEgress.Empty())
    {
        return;
    }
    auto [frame, port] = m_afterEgress.Pop();
    SendFromCpu(std::move(frame), port);
}

// The traffic manager: unicast, multicast replication, or the CPU.
void
SwitchDevice::Dispatch(FramePtr frame)
{
    const StandardMetadata& meta = frame->meta;
    if (meta.mcastGroup != 0)
    {
        const std::vector<p4rt::Replica>* replicas = m_pipeline->MulticastGroup(meta.mcastGroup);
        if (!replicas || replicas->empty())
        {
            Drop(*frame, meta.ingressPort, DropReason::NoRoute);
            return;
        }
        for (size_t i = 0; i < replicas->size(); ++i)
        {
            const p4rt::Replica& target = (*replicas)[i];
            FramePtr replica = i + 1 == replicas->size() ? std::move(frame)
                                                         : FramePool::Instance().Clone(
                                                               *frame, m_pipeline->StateBytes());
            if (target.port >= m_ports.size())
            {
                Drop(*replica, meta.ingressPort, DropReason::NoRoute);
                continue;
            }
            replica->meta.egressPort = target.port;
            replica->meta.replicationId = static_cast<uint16_t>(target.rid);
            replica->meta.instanceType = static_cast<uint8_t>(p4rt::InstanceType::Replication);
            if (m_ports[target.port]->Enqueue(std::move(replica)))
            {
                ++m_counters.forwarded;
            }
        }
        return;
    }
    uint32_t spec = meta.egressSpec;
    if (spec == kDropPort)
    {
        Drop(*frame, meta.ingressPort, meta.dropReason);
        return;
    }
    if (spec == m_cpuPort)
    {
        if (m_cpuQueue.Size() >= m_cpuQueueLimit)
        {
            Drop(*frame, meta.ingressPort, DropReason::CpuQueueFull);
            return;
        }
        ++m_counters.toCpu;
        m_cpuQueue.Push(std::move(frame));
        if (!m_cpuEvent.IsRunning())
        {
            m_cpuEvent =
                ns3::Simulator::Schedule(m_cpuServiceTime, &SwitchDevice::CpuServiceDone, this);
        }
        return;
    }
    if (spec >= m_ports.size())
    {
        Drop(*frame, meta.ingressPort, DropReason::NoRoute);
        return;
    }
    frame->meta.egressPort = spec;
    if (m_ports[spec]->Enqueue(std::move(frame)))
    {
        ++m_counters.forwarded;
    }
}

void
SwitchDevice::CpuServiceDone()
{
    FramePtr frame = m_cpuQueue.Pop();
    if (!m_cpuQueue.Empty())
    {
        m_cpuEvent =
            ns3::Simulator::Schedule(m_cpuServiceTime, &SwitchDevice::CpuServiceDone, this);
    }
    if (m_cpuHandler)
    {
        m_cpuHandler(std::move(frame));
    }
}

bool
SwitchDevice::PrepareTransmit(Frame& frame, uint32_t port)
{
    frame.meta.egressPort = port;
    frame.meta.egressSpec = port;
    frame.meta.deqQdepth = static_cast<uint32_t>(m_ports[port]->QueuedFrames());
    m_pipeline->Egress(frame);
    if (frame.meta.egressSpec == kDropPort)
    {
        Drop(frame, port, frame.meta.dropReason);
        return false;
    }
    return frame.meta.egressSpec != kRecirculatePort;
}

void
SwitchDevice::SetUp(bool up)
{
    if (m_up == up)
    {
        return;
    }
    m_up = up;
    if (!up)
    {
        FlushPorts(DropReason::NodeDown);
        m_cpuEvent.Cancel();
        while (!m_cpuQueue.Empty())
        {
            FramePtr frame = m_cpuQueue.Pop();
            Drop(*frame, m_cpuPort, DropReason::NodeDown);
        }
        ++m_generation;
        while (!m_recirculating.Empty())
        {
            FramePtr frame = m_recirculating.Pop();
            Drop(*frame, 0, DropReason::NodeDown);
        }
        while (!m_afterEgress.Empty())
        {
            auto [frame, port] = m_afterEgress.Pop();
            Drop(*frame, port, DropReason::NodeDown);
        }
        m_pipeline->Reset();
    }
    m_stateTrace(up);
}

void
SwitchDevice::SetPortUp(uint32_t port, bool up)
{
    if (!up)
    {
        m_ports[port]->Flush(DropReason::LinkDown);
    }
    m_pipeline->PortStatusChanged(port, up);
}

void
SwitchDevice::DoDispose()
{
    m_cpuEvent.Cancel();
    while (!m_cpuQueue.Empty())
    {
        m_cpuQueue.Pop();
    }
    ++m_generation;
    while (!m_recirculating.Empty())
    {
        m_recirculating.Pop();
    }
    while (!m_afterEgress.Empty())
    {
        m_afterEgress.Pop();
    }
    m_pipeline.reset();
    NetworkNode::DoDispose();
}

} // namespace incsim
