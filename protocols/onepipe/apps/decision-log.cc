#include "protocols/onepipe/apps/decision-log.h"

#include "sim/trace/csv-writer.h"

namespace incsim::onepipe::apps
{

uint64_t
DecisionLog::Append(uint32_t client, uint64_t attempt, const std::vector<txn::HistoryOp>& ops,
                    int64_t timeNs, std::optional<bool> outcome)
{
    if (!outcome && !m_early.empty())
    {
        if (auto early = m_early.find(Key(client, attempt)); early != m_early.end())
        {
            outcome = early->second;
            m_early.erase(early);
        }
    }
    const uint64_t index = m_next++;
    if (outcome && m_open.empty())
    {
        // The common case (1Pipe's reliable transactions): nothing earlier is open.
        if (m_log != nullptr)
        {
            txn::LogServer(*m_log, m_server, m_shard, m_replica, index, client, attempt, *outcome, ops,
                           timeNs);
        }
        m_firstOpen = m_next;
        return index;
    }
    std::vector<txn::HistoryOp> storage;
    if (!m_spare.empty())
    {
        storage = std::move(m_spare.back());
        m_spare.pop_back();
    }
    storage.assign(ops.begin(), ops.end());
    m_open.push_back(Entry{client, attempt, timeNs, outcome, std::move(storage)});
    WriteResolved();
    return index;
}

void
DecisionLog::Resolve(uint64_t index, bool committed)
{
    if (index < m_firstOpen || index - m_firstOpen >= m_open.size())
    {
        return; // written already (Close wrote it as an abort)
    }
    m_open[index - m_firstOpen].outcome = committed;
    WriteResolved();
}

void
DecisionLog::ResolveUnseen(uint32_t client, uint64_t attempt, bool committed)
{
    for (Entry& e : m_open)
    {
        if (e.client == client && e.attempt == attempt && !e.outcome)
        {
            e.outcome = committed;
            WriteResolved();
            return;
        }
    }
    m_early[Key(client, attempt)] = committed;
}

void
DecisionLog::Write(const Entry& e)
{
    if (m_log != nullptr)
    {
        txn::LogServer(*m_log, m_server, m_shard, m_replica, m_firstOpen, e.client, e.attempt,
                       *e.outcome, e.ops, e.timeNs);
    }
}

void
DecisionLog::WriteResolved()
{
    while (!m_open.empty() && m_open.front().outcome)
    {
        Write(m_open.front());
        m_spare.push_back(std::move(m_open.front().ops));
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
    WriteResolved();
}

} // namespace incsim::onepipe::apps
