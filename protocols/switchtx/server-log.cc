#include "protocols/switchtx/server-log.h"

namespace incsim::switchtx
{

ServerLog::ServerLog(CsvWriter* log, uint32_t server)
    : m_log(log),
      m_server(server)
{
}

ServerLog::Handle
ServerLog::Append(uint32_t shard, uint32_t replica, uint32_t client, uint64_t attempt,
                  bool settled, bool committed, int64_t timeNs)
{
    const Handle handle = m_first + m_entries.size();
    Entry& entry = m_entries.emplace_back();
    entry.shard = shard;
    entry.replica = replica;
    entry.client = client;
    entry.attempt = attempt;
    entry.settled = settled;
    entry.committed = committed;
    entry.timeNs = timeNs;
    return handle;
}

std::vector<txn::HistoryOp>&
ServerLog::Ops(Handle handle)
{
    return m_entries[handle - m_first].ops;
}

bool
ServerLog::Pending(Handle handle) const
{
    return handle >= m_first && !m_entries[handle - m_first].settled;
}

void
ServerLog::Settle(Handle handle, bool committed)
{
    if (handle < m_first)
    {
        return;
    }
    Entry& entry = m_entries[handle - m_first];
    entry.settled = true;
    entry.committed = committed;
    Emit();
}

void
ServerLog::Emit()
{
    while (!m_entries.empty() && m_entries.front().settled)
    {
        const Entry& e = m_entries.front();
        // Only commits: an abort changed nothing at this replica, and with decisions that
        // wait for their fate, a row for an abort could not be written in order anyway.
        if (e.committed && m_log)
        {
            txn::LogServer(*m_log, m_server, e.shard, e.replica, m_seq++, e.client, e.attempt,
                           true, e.ops, e.timeNs);
        }
        m_entries.pop_front();
        ++m_first;
    }
}

uint64_t
ServerLog::Flush()
{
    uint64_t pending = 0;
    for (Entry& entry : m_entries)
    {
        if (!entry.settled)
        {
            entry.settled = true;
            entry.committed = false;
            ++pending;
        }
    }
    Emit();
    return pending;
}

void
HistoryRecorder::AddPending(uint32_t client, uint64_t attempt, ServerLog* log,
                            ServerLog::Handle handle, bool commitSettles)
{
    m_pending[{client, attempt}].push_back(Pending{log, handle, commitSettles});
}

void
HistoryRecorder::Settle(uint32_t client, uint64_t attempt, bool committed)
{
    const auto it = m_pending.find({client, attempt});
    if (it == m_pending.end())
    {
        return;
    }
    std::vector<Pending> pending = std::move(it->second);
    m_pending.erase(it);
    for (const Pending& p : pending)
    {
        if (!committed || p.commitSettles)
        {
            if (p.log->Pending(p.handle))
            {
                p.log->Settle(p.handle, committed);
            }
        }
    }
}

} // namespace incsim::switchtx
