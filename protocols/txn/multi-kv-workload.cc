#include "protocols/txn/multi-kv-workload.h"

#include <algorithm>
#include <stdexcept>

namespace incsim::txn
{

MultiKvWorkload::MultiKvWorkload(const Config& config)
    : m_config(config),
      m_keys(config.keys, config.theta)
{
    if (config.partitions == 0 || config.keysPerTxn == 0 || config.keysPerTxn > kMaxKeysPerTxn ||
        config.keysPerTxn > config.keys)
    {
        throw std::logic_error("MultiKvWorkload: bad configuration");
    }
}

const std::vector<std::string>&
MultiKvWorkload::KindNames() const
{
    static const std::vector<std::string> names{"ro", "wo", "wr"};
    return names;
}

void
MultiKvWorkload::Next(uint32_t /*client*/, Rng& rng, Transaction& txn) const
{
    // args: the keys, then the mask of written keys, then the stamp the written values
    // derive from (unique per transaction with overwhelming probability: 56 random bits).
    const uint32_t n = m_config.keysPerTxn;
    txn.args.clear();
    while (txn.args.size() < n)
    {
        const uint64_t key = m_keys.Draw(rng);
        if (std::find(txn.args.begin(), txn.args.end(), key) == txn.args.end())
        {
            txn.args.push_back(key);
        }
    }
    uint64_t mask = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (rng.Uniform() < m_config.writes)
        {
            mask |= uint64_t{1} << i;
        }
    }
    const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    txn.kind = mask == 0 ? kReadOnly : mask == all ? kWriteOnly : kReadWrite;
    txn.args.push_back(mask);
    txn.args.push_back((rng.NextU64() >> 8) << 7);
}

void
MultiKvWorkload::Execute(const Transaction& txn, const ValueView& /*values*/,
                         std::vector<Access>& accesses) const
{
    const uint32_t n = static_cast<uint32_t>(txn.args.size() - 2);
    const uint64_t mask = txn.args[n];
    const uint64_t stamp = txn.args[n + 1];
    for (uint32_t i = 0; i < n; ++i)
    {
        if ((mask >> i) & 1)
        {
            accesses.push_back({AccessType::Write, txn.args[i], stamp + i + 1});
        }
        else
        {
            accesses.push_back({AccessType::Fetch, txn.args[i], 0});
        }
    }
}

} // namespace incsim::txn
