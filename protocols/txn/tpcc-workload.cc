#include "protocols/txn/tpcc-workload.h"

#include <stdexcept>

namespace incsim::txn
{

namespace
{
// Tables, in bits 28..31 of the key's low word.
constexpr uint32_t kWarehouse = 1;
constexpr uint32_t kDistrict = 2;
constexpr uint32_t kCustomer = 3;
constexpr uint32_t kOrder = 4;
constexpr uint32_t kOrderLine = 5;
constexpr uint32_t kHistory = 6;
constexpr uint32_t kNextOrderId = 7;
constexpr uint32_t kStock = 8;
constexpr uint32_t kNewOrderOrder = 9;
constexpr uint32_t kNewOrderRow = 10;
constexpr uint32_t kNewOrderLine = 11;

constexpr uint32_t kCountShift = 40;
constexpr uint64_t kYtdMask = (uint64_t{1} << kCountShift) - 1;

uint64_t
Key(uint64_t warehouse, uint32_t table, uint32_t record)
{
    return warehouse << 32 | uint64_t{table} << 28 | record;
}

uint32_t
CustomerId(uint64_t district, uint64_t customer)
{
    return static_cast<uint32_t>(district << 12 | customer);
}

// Transaction arguments, by position.
enum PaymentArg
{
    kHome,
    kDistrictArg,
    kCustomerArg,
    kAmount,
    kCustomerWarehouse,
    kCustomerDistrict
};
// New-Order: home, district, customer, then (supply warehouse, item, quantity) per line.
constexpr size_t kFirstLine = 3;
constexpr size_t kLineArgs = 3;
} // namespace

TpccWorkload::Config
TpccWorkload::GotthardScale()
{
    Config config;
    config.districts = 2;
    config.customers = 10;
    config.newOrder = 0;
    config.payment = 43.0 / 47.0;
    return config;
}

TpccWorkload::TpccWorkload(const Config& config)
    : m_config(config),
      m_warehouses(config.partitions * config.warehousesPerPartition),
      m_kindNames({"payment", "order_status"})
{
    if (config.newOrder > 0)
    {
        m_kindNames.emplace_back("new_order");
    }
    if (config.partitions == 0 || config.warehousesPerPartition == 0 ||
        uint64_t{config.partitions} * config.warehousesPerPartition > UINT32_MAX ||
        config.districts == 0 || config.districts > 15 || config.customers == 0 ||
        config.customers > 4095 || config.items == 0 || config.items > (1u << 28) ||
        config.minLines == 0 || config.minLines > config.maxLines || config.maxLines > 15 ||
        config.newOrder < 0 || config.payment < 0 || config.newOrder + config.payment > 1 + 1e-9)
    {
        throw std::logic_error("TpccWorkload: inconsistent configuration");
    }
}

const std::vector<std::string>&
TpccWorkload::KindNames() const
{
    return m_kindNames;
}

uint32_t
TpccWorkload::OrderLines(uint32_t district, uint32_t customer)
{
    uint32_t mix = (district * 2654435761u) ^ (customer * 2246822519u);
    mix ^= mix >> 15;
    return 5 + mix % 11;
}

void
TpccWorkload::Next(uint32_t client, Rng& rng, Transaction& txn) const
{
    // The draws of Gotthard's reduced scale come first and in its order (kind, district,
    // customer, amount), so its runs keep their random streams.
    const double otherShare = 1 - m_config.newOrder;
    if (rng.Bernoulli(m_config.newOrder))
    {
        txn.kind = kNewOrder;
    }
    else
    {
        txn.kind = rng.Bernoulli(otherShare > 0 ? m_config.payment / otherShare : 0)
                       ? kPayment
                       : kOrderStatus;
    }
    const uint64_t home = client % m_warehouses;
    const uint64_t district = rng.UniformInt(m_config.districts);
    const uint64_t customer = rng.UniformInt(m_config.customers);
    const auto otherWarehouse = [&] {
        return (home + 1 + rng.UniformInt(m_warehouses - 1)) % m_warehouses;
    };
    txn.args.assign({home, district, customer});
    if (txn.kind == kNewOrder)
    {
        const uint64_t lines =
            m_config.minLines + rng.UniformInt(m_config.maxLines - m_config.minLines + 1);
        for (uint64_t line = 0; line < lines; ++line)
        {
            const uint64_t item = rng.UniformInt(m_config.items);
            const bool remote = m_warehouses > 1 && rng.Bernoulli(m_config.remoteItems);
            txn.args.push_back(remote ? otherWarehouse() : home);
            txn.args.push_back(item);
            txn.args.push_back(1 + rng.UniformInt(10));
        }
        return;
    }
    txn.args.push_back(100 + rng.UniformInt(500'000 - 100 + 1));  // cents
    const bool remote = m_warehouses > 1 && rng.Bernoulli(m_config.remoteCustomers);
    txn.args.push_back(remote ? otherWarehouse() : home);
    txn.args.push_back(remote ? rng.UniformInt(m_config.districts) : district);
}

void
TpccWorkload::Execute(const Transaction& txn, const ValueView& values,
                      std::vector<Access>& accesses) const
{
    if (txn.kind == kNewOrder)
    {
        ExecuteNewOrder(txn, values, accesses);
        return;
    }
    const uint64_t home = txn.args[kHome];
    const uint64_t district = txn.args[kDistrictArg];
    const uint64_t customerWarehouse = txn.args[kCustomerWarehouse];
    const uint32_t customerId = CustomerId(txn.args[kCustomerDistrict], txn.args[kCustomerArg]);
    const uint64_t customer = Key(customerWarehouse, kCustomer, customerId);
    const uint64_t customerValue = values.Value(customer);
    if (txn.kind == kPayment)
    {
        const uint64_t amount = txn.args[kAmount];
        const auto add = [&](uint64_t key, uint64_t next) {
            accesses.push_back(Access{AccessType::Read, key, values.Value(key)});
            accesses.push_back(Access{AccessType::Write, key, next});
        };
        const uint64_t warehouse = Key(home, kWarehouse, 0);
        add(warehouse, values.Value(warehouse) + amount);
        const uint64_t districtKey = Key(home, kDistrict, static_cast<uint32_t>(district));
        add(districtKey, values.Value(districtKey) + amount);
        const uint64_t count = customerValue >> kCountShift;
        const uint64_t ytd = (customerValue & kYtdMask) + amount;
        add(customer, (count + 1) << kCountShift | (ytd & kYtdMask));
        const uint64_t history = Key(customerWarehouse, kHistory,
                                     customerId << 12 | static_cast<uint32_t>(count & 0xfff));
        accesses.push_back(Access{AccessType::Write, history, amount});
        return;
    }
    accesses.push_back(Access{AccessType::Read, customer, customerValue});
    const uint64_t order = Key(customerWarehouse, kOrder, customerId);
    accesses.push_back(Access{AccessType::Read, order, values.Value(order)});
    const uint32_t lines = OrderLines(static_cast<uint32_t>(txn.args[kCustomerDistrict]),
                                      static_cast<uint32_t>(txn.args[kCustomerArg]));
    for (uint32_t line = 0; line < lines; ++line)
    {
        const uint64_t key = Key(customerWarehouse, kOrderLine, customerId << 4 | line);
        accesses.push_back(Access{AccessType::Read, key, values.Value(key)});
    }
}

void
TpccWorkload::ExecuteNewOrder(const Transaction& txn, const ValueView& values,
                              std::vector<Access>& accesses) const
{
    const uint64_t home = txn.args[kHome];
    const auto district = static_cast<uint32_t>(txn.args[kDistrictArg]);
    const uint64_t nextKey = Key(home, kNextOrderId, district);
    const uint64_t orderId = values.Value(nextKey);
    accesses.push_back(Access{AccessType::Read, nextKey, orderId});
    accesses.push_back(Access{AccessType::Write, nextKey, orderId + 1});
    const size_t lines = (txn.args.size() - kFirstLine) / kLineArgs;
    for (size_t line = 0; line < lines; ++line)
    {
        const uint64_t* arg = &txn.args[kFirstLine + line * kLineArgs];
        const uint64_t stock = Key(arg[0], kStock, static_cast<uint32_t>(arg[1]));
        const uint64_t seen = values.Value(stock);
        accesses.push_back(Access{AccessType::Read, stock, seen});
        accesses.push_back(Access{AccessType::Write, stock, seen + arg[2]});
    }
    // Order ids wrap in the keys after 2^20 orders of one district.
    const auto order = static_cast<uint32_t>(district << 24 | (orderId & 0xfffff) << 4);
    accesses.push_back(
        Access{AccessType::Write, Key(home, kNewOrderOrder, order), txn.args[2] << 8 | lines});
    accesses.push_back(Access{AccessType::Write, Key(home, kNewOrderRow, order), 1});
    for (size_t line = 0; line < lines; ++line)
    {
        const uint64_t* arg = &txn.args[kFirstLine + line * kLineArgs];
        accesses.push_back(Access{AccessType::Write,
                                  Key(home, kNewOrderLine, order | static_cast<uint32_t>(line)),
                                  arg[1] << 8 | arg[2]});
    }
}

} // namespace incsim::txn
