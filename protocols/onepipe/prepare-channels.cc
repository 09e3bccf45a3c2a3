#include "protocols/onepipe/prepare-channels.h"

namespace incsim::onepipe
{

PrepareChannels::PrepareChannels(HooksFor hooksFor, int64_t retransmitPs)
    : m_hooksFor(std::move(hooksFor)),
      m_retransmitPs(retransmitPs)
{
}

void
PrepareChannels::BeginScattering(uint64_t ts)
{
    m_pending.push_back(Pending{ts, 0});
}

void
PrepareChannels::Send(uint32_t dst, const Segment& segment)
{
    if (dst >= m_links.size())
    {
        m_links.resize(dst + 1);
    }
    Link& link = m_links[dst];
    if (!link.channel)
    {
        link.channel = std::make_unique<Channel>(m_hooksFor(dst), m_retransmitPs);
    }
    link.scatterings.push_back(m_firstPending + m_pending.size() - 1);
    ++m_pending.back().unacked;
    link.channel->Send(segment);
}

bool
PrepareChannels::ReceiveAck(uint32_t dst, uint32_t next)
{
    if (dst >= m_links.size() || !m_links[dst].channel)
    {
        return false;
    }
    Link& link = m_links[dst];
    const size_t before = link.channel->InFlight();
    link.channel->ReceiveAck(next);
    for (size_t acked = before - link.channel->InFlight(); acked > 0; --acked)
    {
        --m_pending[link.scatterings.front() - m_firstPending].unacked;
        link.scatterings.pop_front();
    }
    bool advanced = false;
    while (!m_pending.empty() && m_pending.front().unacked == 0)
    {
        m_pending.pop_front();
        ++m_firstPending;
        advanced = true;
    }
    return advanced;
}

PrepareChannels::Channel*
PrepareChannels::Find(uint32_t dst) const
{
    return dst < m_links.size() ? m_links[dst].channel.get() : nullptr;
}

uint64_t
PrepareChannels::Retransmitted() const
{
    uint64_t total = 0;
    for (const Link& link : m_links)
    {
        if (link.channel)
        {
            total += link.channel->GetCounters().retransmitted;
        }
    }
    return total;
}

} // namespace incsim::onepipe
