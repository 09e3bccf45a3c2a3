#include "protocols/txn/ycsbt-workload.h"

#include <algorithm>
#include <stdexcept>

namespace incsim::txn
{

namespace
{
// Each operation's argument: its key, and bit 63 set for a read-modify-write (keys stay below
// 2^63: the configuration allows fewer than 2^23 partitions).
constexpr uint64_t kRmwBit = uint64_t{1} << 63;
} // namespace

YcsbtWorkload::YcsbtWorkload(const Config& config)
    : m_config(config),
      m_records(config.records, config.theta)
{
    if (config.partitions == 0 || config.partitions >= (1u << 23) ||
        config.partitionsPerTxn == 0 || config.partitionsPerTxn > config.partitions ||
        config.ops < config.partitionsPerTxn || config.columns == 0 || config.columns > 256 ||
        config.records == 0 || config.records >= (uint64_t{1} << 32) ||
        static_cast<uint64_t>(config.ops) >
            static_cast<uint64_t>(config.partitionsPerTxn) * config.records * config.columns)
    {
        throw std::logic_error("YcsbtWorkload: inconsistent configuration");
    }
}

const std::vector<std::string>&
YcsbtWorkload::KindNames() const
{
    static const std::vector<std::string> names = {"ycsbt"};
    return names;
}

void
YcsbtWorkload::Next(uint32_t /*client*/, Rng& rng, Transaction& txn) const
{
    txn.kind = 0;
    txn.args.clear();
    // Distinct partitions, uniformly, by rejection: args[0 .. partitionsPerTxn) hold them
    // until each is replaced by its first operation's key (PartitionOf gives it back).
    const uint32_t spread = m_config.partitionsPerTxn;
    while (txn.args.size() < spread)
    {
        const uint64_t p = rng.UniformInt(m_config.partitions);
        if (std::find(txn.args.begin(), txn.args.end(), p) == txn.args.end())
        {
            txn.args.push_back(p);
        }
    }
    for (uint32_t op = 0; op < m_config.ops; ++op)
    {
        const auto partition = static_cast<uint32_t>(
            op < spread ? txn.args[op] : PartitionOf(txn.args[op % spread] & ~kRmwBit));
        // Keys drawn so far: args[0 .. min(op, spread)) and args[spread ..).
        const auto drawn = [&txn, spread, op](uint64_t key) {
            const auto same = [key](uint64_t arg) { return (arg & ~kRmwBit) == key; };
            return std::any_of(txn.args.begin(), txn.args.begin() + std::min(op, spread), same) ||
                   std::any_of(txn.args.begin() + spread, txn.args.end(), same);
        };
        uint64_t key = 0;
        do
        {
            const uint64_t record = m_records.Draw(rng);
            const auto column = static_cast<uint32_t>(rng.UniformInt(m_config.columns));
            key = Key(partition, record, column);
        } while (drawn(key));
        const uint64_t arg = key | (rng.Bernoulli(m_config.reads) ? 0 : kRmwBit);
        if (op < spread)
        {
            txn.args[op] = arg;
        }
        else
        {
            txn.args.push_back(arg);
        }
    }
}

void
YcsbtWorkload::Execute(const Transaction& txn, const ValueView& values,
                       std::vector<Access>& accesses) const
{
    for (const uint64_t arg : txn.args)
    {
        const uint64_t key = arg & ~kRmwBit;
        const uint64_t seen = values.Value(key);
        accesses.push_back(Access{AccessType::Read, key, seen});
        if (arg & kRmwBit)
        {
            accesses.push_back(Access{AccessType::Write, key, seen + 1});
        }
    }
}

} // namespace incsim::txn
