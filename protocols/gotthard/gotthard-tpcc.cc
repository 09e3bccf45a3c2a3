#include "protocols/gotthard/gotthard-tpcc.h"

namespace incsim::gotthard
{

namespace
{
enum TpccKind : uint32_t
{
    kPayment,
    kOrderStatus
};

// Keys: the table in the top 4 bits, the record's ids below.
constexpr uint32_t kWarehouse = 1u << 28;
constexpr uint32_t kDistrict = 2u << 28;
constexpr uint32_t kCustomer = 3u << 28;
constexpr uint32_t kOrder = 4u << 28;
constexpr uint32_t kOrderLine = 5u << 28;
constexpr uint32_t kHistory = 6u << 28;

constexpr uint32_t kCountShift = 40;
constexpr uint64_t kYtdMask = (uint64_t{1} << kCountShift) - 1;

uint32_t
CustomerId(uint32_t district, uint32_t customer)
{
    return district << 12 | customer;
}
} // namespace

TpccWorkload::TpccWorkload(const Config& config)
    : m_config(config)
{
}

const std::vector<std::string>&
TpccWorkload::KindNames() const
{
    static const std::vector<std::string> names = {"payment", "order_status"};
    return names;
}

uint32_t
TpccWorkload::OrderLines(uint32_t district, uint32_t customer)
{
    uint32_t mix = (district * 2654435761u) ^ (customer * 2246822519u);
    mix ^= mix >> 15;
    return 5 + mix % 11;
}

Transaction
TpccWorkload::Next(uint32_t /*client*/, Rng& rng) const
{
    Transaction txn;
    txn.kind = rng.Bernoulli(m_config.payment) ? kPayment : kOrderStatus;
    txn.args[0] = static_cast<uint32_t>(rng.UniformInt(m_config.districts));
    txn.args[1] = static_cast<uint32_t>(rng.UniformInt(m_config.customers));
    txn.args[2] = 100 + static_cast<uint32_t>(rng.UniformInt(500'000 - 100 + 1));  // cents
    return txn;
}

void
TpccWorkload::Execute(const Transaction& txn, const ValueCache& cache,
                      std::vector<Op>& ops) const
{
    const uint32_t district = txn.args[0];
    const uint32_t customerId = CustomerId(district, txn.args[1]);
    const uint32_t customer = kCustomer | customerId;
    const uint64_t customerValue = cache.Get(customer);
    if (txn.kind == kPayment)
    {
        const uint64_t amount = txn.args[2];
        const auto add = [&](uint32_t key, uint64_t next) {
            ops.push_back(Op{OpType::Compare, key, cache.Get(key)});
            ops.push_back(Op{OpType::Write, key, next});
        };
        add(kWarehouse, cache.Get(kWarehouse) + amount);
        add(kDistrict | district, cache.Get(kDistrict | district) + amount);
        const uint64_t count = customerValue >> kCountShift;
        const uint64_t ytd = (customerValue & kYtdMask) + amount;
        add(customer, (count + 1) << kCountShift | (ytd & kYtdMask));
        const uint32_t historyKey =
            kHistory | customerId << 12 | static_cast<uint32_t>(count & 0xfff);
        ops.push_back(Op{OpType::Write, historyKey, amount});
        return;
    }
    ops.push_back(Op{OpType::Compare, customer, customerValue});
    ops.push_back(Op{OpType::Compare, kOrder | customerId, cache.Get(kOrder | customerId)});
    for (uint32_t line = 0; line < OrderLines(district, txn.args[1]); ++line)
    {
        const uint32_t key = kOrderLine | customerId << 4 | line;
        ops.push_back(Op{OpType::Compare, key, cache.Get(key)});
    }
}

} // namespace incsim::gotthard
