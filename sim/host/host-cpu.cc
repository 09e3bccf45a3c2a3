#include "sim/host/host-cpu.h"

#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

namespace incsim
{

NS_OBJECT_ENSURE_REGISTERED(HostCpu);

ns3::TypeId
HostCpu::GetTypeId()
{
    static ns3::TypeId tid =
        ns3::TypeId("incsim::HostCpu")
            .SetParent<ns3::Object>()
            .SetGroupName("Incsim")
            .AddConstructor<HostCpu>()
            .AddTraceSource("QueueLength",
                            "Jobs waiting for a core.",
                            ns3::MakeTraceSourceAccessor(&HostCpu::m_queueLength),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

HostCpu::HostCpu() = default;
HostCpu::~HostCpu() = default;

void
HostCpu::SetCores(uint32_t cores)
{
    m_cores = cores;
}

void
HostCpu::Execute(int64_t servicePs, std::function<void()> done)
{
    Job job{servicePs, std::move(done)};
    if (m_busy < m_cores)
    {
        Start(std::move(job));
        return;
    }
    m_queue.Push(std::move(job));
    m_queueLength = static_cast<uint32_t>(m_queue.Size());
}

void
HostCpu::Start(Job job)
{
    ++m_busy;
    m_busyPs += job.servicePs;
    uint64_t slot;
    if (m_freeSlots.empty())
    {
        slot = m_running.size();
        m_running.emplace_back();
        m_events.emplace_back();
    }
    else
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    m_running[slot] = std::move(job);
    m_events[slot] =
        ns3::Simulator::Schedule(Ps(m_running[slot].servicePs), &HostCpu::Finish, this, slot);
}

void
HostCpu::Finish(uint64_t slot)
{
    std::function<void()> done = std::move(m_running[slot].done);
    m_running[slot] = Job{};
    m_freeSlots.push_back(slot);
    --m_busy;
    ++m_completed;
    if (!m_queue.Empty())
    {
        Start(m_queue.Pop());
        m_queueLength = static_cast<uint32_t>(m_queue.Size());
    }
    if (done)
    {
        done();
    }
}

void
HostCpu::Reset()
{
    for (auto& event : m_events)
    {
        event.Cancel();
    }
    m_running.clear();
    m_events.clear();
    m_freeSlots.clear();
    while (!m_queue.Empty())
    {
        m_queue.Pop();
    }
    m_busy = 0;
    m_queueLength = 0;
}

void
HostCpu::DoDispose()
{
    Reset();
    ns3::Object::DoDispose();
}

} // namespace incsim
