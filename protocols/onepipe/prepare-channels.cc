#include "protocols/onepipe/prepare-channels.h"

#include <stdexcept>

namespace incsim::onepipe
{

PrepareChannels::PrepareChannels(HooksFor hooksFor, const RetransmitTimeout& timeout,
                                 uint32_t stallRounds)
    : m_hooksFor(std::move(hooksFor)),
      m_timeout(timeout),
      m_stallRounds(stallRounds)
{
}

void
PrepareChannels::BeginScattering(uint64_t ts)
{
    Pending pending{ts, 0};
    pending.firstMessage = m_firstMessage + m_messages.size();
    m_pending.push_back(pending);
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
        link.channel =
            std::make_unique<Channel>(m_hooksFor(dst), m_timeout, m_stallRounds, &m_rtt);
    }
    if (segment.fragment == 0)
    {
        m_messages.push_back(Message{dst, segment.sequence, segment.tag});
        ++m_pending.back().messages;
    }
    link.scatterings.push_back(m_firstPending + m_pending.size() - 1);
    ++m_pending.back().unacked;
    link.channel->Send(segment);
}

void
PrepareChannels::Retire(uint64_t entry)
{
    if (entry & kRecallBit)
    {
        --m_recallsOutstanding;
    }
    --At(entry & ~kRecallBit).unacked;
}

bool
PrepareChannels::ReceiveAck(uint32_t dst, uint32_t next, bool sequenceError, uint64_t echo)
{
    if (dst >= m_links.size() || !m_links[dst].channel)
    {
        return false;
    }
    Link& link = m_links[dst];
    const size_t before = link.channel->InFlight();
    const bool measured = m_rtt.Known();
    link.channel->ReceiveAck(next, sequenceError, echo);
    if (!measured && m_rtt.Known())
    {
        // The sender's first round trip: its channels waited the largest timeout until now.
        for (Link& other : m_links)
        {
            if (other.channel)
            {
                other.channel->Rearm();
            }
        }
    }
    for (size_t acked = before - link.channel->InFlight(); acked > 0; --acked)
    {
        Retire(link.scatterings.front());
        link.scatterings.pop_front();
    }
    return Settle();
}

bool
PrepareChannels::Settle()
{
    bool advanced = false;
    while (!m_pending.empty() && m_pending.front().unacked == 0)
    {
        const uint32_t messages = m_pending.front().messages;
        m_messages.erase(m_messages.begin(), m_messages.begin() + messages);
        m_firstMessage += messages;
        m_pending.pop_front();
        ++m_firstPending;
        advanced = true;
    }
    return advanced;
}

void
PrepareChannels::Abort(uint32_t dst, std::vector<uint64_t>& aborted, std::vector<uint32_t>& recalls)
{
    if (dst >= m_links.size() || !m_links[dst].channel)
    {
        return;
    }
    Link& link = m_links[dst];
    for (size_t i = 0; i < link.scatterings.size(); ++i)
    {
        const uint64_t entry = link.scatterings[i];
        Retire(entry);
        Pending& pending = At(entry & ~kRecallBit);
        if (entry & kRecallBit)
        {
            recalls.push_back(link.channel->InFlightAt(i).sequence);
        }
        else if (!pending.aborted)
        {
            pending.aborted = true;
            aborted.push_back(entry);
        }
    }
    link.scatterings.clear();
    m_aborted += link.channel->GetCounters();
    link.channel.reset();
}

std::vector<PrepareChannels::Message>
PrepareChannels::MessagesOf(uint64_t scattering) const
{
    const Pending& pending = At(scattering);
    const auto first = m_messages.begin() + (pending.firstMessage - m_firstMessage);
    return std::vector<Message>(first, first + pending.messages);
}

void
PrepareChannels::Recall(uint64_t scattering, const Message& message)
{
    Channel* channel = Find(message.dst);
    if (channel == nullptr)
    {
        throw std::logic_error("PrepareChannels::Recall: no channel to the receiver");
    }
    Pending& pending = At(scattering);
    ++pending.unacked;
    ++m_recallsOutstanding;
    m_links[message.dst].scatterings.push_back(scattering | kRecallBit);
    Segment recall;
    recall.ts = pending.ts;
    recall.sequence = message.sequence;
    recall.recall = true;
    channel->Send(recall);
}

PrepareChannels::Channel*
PrepareChannels::Find(uint32_t dst) const
{
    return dst < m_links.size() ? m_links[dst].channel.get() : nullptr;
}

PrepareChannels::Channel::Counters
PrepareChannels::Totals() const
{
    Channel::Counters total = m_aborted;
    for (const Link& link : m_links)
    {
        if (link.channel)
        {
            total += link.channel->GetCounters();
        }
    }
    return total;
}

} // namespace incsim::onepipe
