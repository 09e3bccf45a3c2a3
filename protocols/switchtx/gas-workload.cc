#include "protocols/switchtx/gas-workload.h"

#include <stdexcept>

namespace incsim::switchtx
{

GasWorkload::GasWorkload(uint32_t servers, uint32_t threads, uint32_t serversPerOp)
    : m_servers(servers),
      m_threads(threads),
      m_serversPerOp(serversPerOp)
{
    if (threads == 0 || serversPerOp < 2 || serversPerOp > servers)
    {
        throw std::logic_error("GasWorkload: inconsistent configuration");
    }
}

const std::vector<std::string>&
GasWorkload::KindNames() const
{
    static const std::vector<std::string> names = {"gas"};
    return names;
}

void
GasWorkload::Next(uint32_t client, Rng& /*rng*/, txn::Transaction& txn) const
{
    txn.kind = 0;
    txn.args.assign(1, client);
}

void
GasWorkload::Execute(const txn::Transaction& txn, const txn::ValueView& /*values*/,
                     std::vector<txn::Access>& accesses) const
{
    // The client's global id is host * threads + thread (WorkerThread::ClientId). Its key on
    // each server is its own, so no two clients' operations touch one key.
    const uint64_t client = txn.args[0];
    const auto host = static_cast<uint32_t>(client / m_threads);
    for (uint32_t i = 0; i < m_serversPerOp; ++i)
    {
        const uint64_t server = (host + i) % m_servers;
        accesses.push_back(txn::Access{txn::AccessType::Read, server << kServerShift | client, 0});
    }
}

void
GasOps::Sent(uint32_t client, uint64_t attempt, int64_t nowPs)
{
    Op& op = m_ops[uint64_t{client} << 32 | attempt];
    if (op.sent++ == 0)
    {
        op.firstSentPs = nowPs;
    }
}

void
GasOps::Taken(uint32_t client, uint64_t attempt, size_t participants, int64_t nowPs)
{
    ++m_receipts;
    Op& op = m_ops[uint64_t{client} << 32 | attempt];
    if (op.firstSentPs < 0 || ++op.taken > participants)
    {
        ++m_surplus;  // a scatter before any gather, or a second one for a participant
        return;
    }
    if (op.sent < participants)
    {
        ++m_early;
    }
    if (op.taken == participants)
    {
        ++m_completed;
        m_latenciesPs.push_back(nowPs - op.firstSentPs);
    }
}

} // namespace incsim::switchtx
