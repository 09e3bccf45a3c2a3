#include "protocols/onepipe/scatter-workload.h"

#include "protocols/onepipe/onepipe-endpoint.h"
#include "sim/core/sim-time.h"

#include <ns3/simulator.h>

#include <algorithm>

namespace incsim::onepipe
{

ScatterApp::ScatterApp(uint32_t self, Send send, const ScatterWorkload& workload,
                       uint32_t processes, Rng rng)
    : m_self(self),
      m_send(std::move(send)),
      m_workload(workload),
      m_processes(processes),
      m_rng(rng)
{
}

ScatterApp::~ScatterApp()
{
    m_event.Cancel();
}

void
ScatterApp::Start()
{
    if (m_processes < 2 || m_workload.meanIntervalPs <= 0)
    {
        return;
    }
    const int64_t first =
        m_workload.startPs + static_cast<int64_t>(m_rng.Uniform() * m_workload.meanIntervalPs);
    if (first < m_workload.stopPs)
    {
        m_event = ns3::Simulator::Schedule(Ps(first - NowPs()), &ScatterApp::SendNext, this);
    }
}

void
ScatterApp::Transmitted()
{
    if (m_unsent > 0)
    {
        --m_unsent;
    }
    if (m_blocked && NowPs() < m_workload.stopPs)
    {
        m_blocked = false;
        SendNext();
    }
}

void
ScatterApp::SendNext()
{
    if (m_workload.maxUnsent > 0 && m_unsent >= m_workload.maxUnsent)
    {
        m_blocked = true; // the send call blocks: Transmitted() resumes the schedule
        return;
    }
    const uint32_t self = m_self;
    std::vector<Outgoing> scattering;
    auto other = [&]() {
        const uint32_t pick = static_cast<uint32_t>(m_rng.UniformInt(m_processes - 1));
        return pick >= self ? pick + 1 : pick;
    };
    switch (m_workload.pattern)
    {
    case ScatterWorkload::Pattern::Broadcast:
        for (uint32_t dst = 0; dst < m_processes; ++dst)
        {
            if (dst != self)
            {
                scattering.push_back({dst, m_workload.messageBytes});
            }
        }
        break;
    case ScatterWorkload::Pattern::Unicast:
        scattering.push_back({other(), m_workload.messageBytes});
        break;
    case ScatterWorkload::Pattern::Scatter:
        while (scattering.size() < std::min(m_workload.fanout, m_processes - 1))
        {
            const uint32_t dst = other();
            if (std::none_of(scattering.begin(), scattering.end(),
                             [dst](const Outgoing& o) { return o.dst == dst; }))
            {
                scattering.push_back({dst, m_workload.messageBytes});
            }
        }
        break;
    }
    ++m_unsent; // before the call: a free send leaves at once
    m_send(scattering);
    ScheduleNext();
}

void
ScatterApp::ScheduleNext()
{
    const double gap = m_workload.poisson ? m_rng.Exponential(m_workload.meanIntervalPs)
                                          : m_workload.meanIntervalPs;
    const int64_t next = NowPs() + std::max<int64_t>(1, static_cast<int64_t>(gap));
    if (next < m_workload.stopPs)
    {
        m_event = ns3::Simulator::Schedule(Ps(next - NowPs()), &ScatterApp::SendNext, this);
    }
}

} // namespace incsim::onepipe
