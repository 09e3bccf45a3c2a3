#include "protocols/onepipe/apps/decision-log.h"

#include "sim/trace/csv-writer.h"

namespace incsim::onepipe::apps
{

void
DecisionLog::Append(uint32_t client, uint64_t attempt, const std::vector<txn::HistoryOp>& ops,
                    int64_t timeNs, std::optional<bool> outcome)
{
    const uint64_t key = Key(client, attempt);
    if (!outcome)
    {
        if (auto early = m_early.find(key); early != m_early.end())
        {
            outcome = early->second;
            m_early.erase(early);
        }
    }
    if (!outcome)
    {
        m_pending[key] = m_firstOpen + m_open.size();
    }
    m_open.push_back(Entry{client, attempt, timeNs, outcome, ops});
    WriteResolved();
}

void
DecisionLog::Resolve(uint32_t client, uint64_t attempt, bool committed)
{
    const uint64_t key = Key(client, attempt);
    const auto it = m_pending.find(key);
    if (it == m_pending.end())
    {
        m_early[key] = committed;
        return;
    }
    m_open[it->second - m_firstOpen].outcome = committed;
    m_pending.erase(it);
    WriteResolved();
}

void
DecisionLog::WriteResolved()
{
    while (!m_open.empty() && m_open.front().outcome)
    {
        const Entry& e = m_open.front();
        if (m_log != nullptr)
        {
            txn::LogServer(*m_log, m_server, m_server, 0, m_nextSeq, e.client, e.attempt,
                           *e.outcome, e.ops, e.timeNs);
        }
        ++m_nextSeq;
        m_open.pop_front();
        ++m_firstOpen;
    }
}

void
DecisionLog::Close()
{
    for (Entry& e : m_open)
    {
        if (!e.outcome)
        {
            e.outcome = false;
        }
    }
    m_pending.clear();
    WriteResolved();
}

} // namespace incsim::onepipe::apps
