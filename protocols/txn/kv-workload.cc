#include "protocols/txn/kv-workload.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace incsim::txn
{

namespace
{
enum KvKind : uint32_t
{
    kRead,
    kWrite
};

uint64_t
SetSize(const KvWorkload::Config& config)
{
    return config.locality ? std::max<uint64_t>(1, config.keys / 2) : config.keys;
}

std::variant<ZipfKeys, HotSetKeys>
MakeKeys(const KvWorkload::Config& config)
{
    const uint64_t n = SetSize(config);
    switch (config.distribution)
    {
    case KvWorkload::Distribution::Uniform:
        return ZipfKeys(n, 0);
    case KvWorkload::Distribution::Zipf:
        return ZipfKeys(n, config.theta);
    case KvWorkload::Distribution::HotSet:
        return HotSetKeys(n, config.hotFraction, config.hotAccess);
    }
    throw std::logic_error("KvWorkload: unknown distribution");
}
} // namespace

KvWorkload::KvWorkload(const Config& config, std::vector<uint32_t> groupOf)
    : m_config(config),
      m_setSize(SetSize(config)),
      m_keys(MakeKeys(config)),
      m_keyBase(groupOf.size(), 0)
{
    if (config.partitions == 0)
    {
        throw std::logic_error("KvWorkload: no partitions");
    }
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

const std::vector<std::string>&
KvWorkload::KindNames() const
{
    static const std::vector<std::string> names = {"read", "write"};
    return names;
}

void
KvWorkload::Next(uint32_t client, Rng& rng, Transaction& txn) const
{
    txn.kind = rng.Bernoulli(m_config.writes) ? kWrite : kRead;
    const uint64_t rank = std::visit([&rng](const auto& keys) { return keys.Draw(rng); }, m_keys);
    txn.args.assign(1, m_keyBase.at(client) + rank);
}

void
KvWorkload::Execute(const Transaction& txn, const ValueView& values,
                    std::vector<Access>& accesses) const
{
    const uint64_t key = txn.args[0];
    if (txn.kind == kWrite)
    {
        const uint64_t seen = values.Value(key);
        accesses.push_back(Access{AccessType::Read, key, seen});
        accesses.push_back(Access{AccessType::Write, key, seen + 1});
    }
    else
    {
        accesses.push_back(Access{AccessType::Fetch, key, 0});
    }
}

} // namespace incsim::txn
