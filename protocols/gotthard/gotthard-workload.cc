#include "protocols/gotthard/gotthard-workload.h"

#include <algorithm>
#include <cmath>

namespace incsim::gotthard
{

ZipfKeys::ZipfKeys(uint32_t n, double exponent)
{
    m_cdf.reserve(n);
    double sum = 0;
    for (uint32_t k = 0; k < n; ++k)
    {
        sum += 1.0 / std::pow(k + 1.0, exponent);
        m_cdf.push_back(sum);
    }
    for (double& c : m_cdf)
    {
        c /= sum;
    }
}

uint32_t
ZipfKeys::Draw(Rng& rng) const
{
    const double u = rng.Uniform();
    const auto it = std::upper_bound(m_cdf.begin(), m_cdf.end(), u);
    return static_cast<uint32_t>(std::min<size_t>(it - m_cdf.begin(), m_cdf.size() - 1));
}

namespace
{
uint32_t
SetSize(const MicroWorkload::Config& config)
{
    return config.locality ? std::max<uint32_t>(1, config.keys / 2) : config.keys;
}
} // namespace

MicroWorkload::MicroWorkload(const Config& config, std::vector<uint32_t> groupOf)
    : m_config(config),
      m_keys(SetSize(config), config.zipf),
      m_setSize(SetSize(config)),
      m_keyBase(groupOf.size(), 0)
{
    if (!config.locality)
    {
        return;
    }
    for (uint32_t group = 0; group < 2; ++group)
    {
        std::vector<uint32_t> members;
        for (uint32_t c = 0; c < groupOf.size(); ++c)
        {
            if (groupOf[c] == group)
            {
                members.push_back(c);
            }
        }
        const auto remote = static_cast<size_t>(
            std::lround((1.0 - config.localFraction) * static_cast<double>(members.size())));
        for (size_t i = 0; i < members.size(); ++i)
        {
            const uint32_t set = i < remote ? 1 - group : group;
            m_keyBase[members[i]] = set * m_setSize;
        }
    }
}

namespace
{
enum MicroKind : uint32_t
{
    kRead,
    kWrite
};
} // namespace

const std::vector<std::string>&
MicroWorkload::KindNames() const
{
    static const std::vector<std::string> names = {"read", "write"};
    return names;
}

Transaction
MicroWorkload::Next(uint32_t client, Rng& rng) const
{
    Transaction txn;
    txn.kind = rng.Bernoulli(m_config.writes) ? kWrite : kRead;
    txn.args[0] = m_keyBase[client] + m_keys.Draw(rng);
    return txn;
}

void
MicroWorkload::Execute(const Transaction& txn, const ValueCache& cache,
                       std::vector<Op>& ops) const
{
    const uint32_t key = txn.args[0];
    if (txn.kind == kWrite)
    {
        ops.push_back(Op{OpType::Compare, key, cache.Get(key)});
        ops.push_back(Op{OpType::Write, key, cache.Get(key) + 1});
    }
    else
    {
        ops.push_back(Op{OpType::Read, key, 0});
    }
}

} // namespace incsim::gotthard
