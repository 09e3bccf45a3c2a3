#include "protocols/txn/workload-spec.h"

#include <fmt/format.h>

namespace incsim::txn
{

Spec&
AddYcsbtFields(Spec& workload, const YcsbtWorkload::Config& d)
{
    return workload
        .Field("partitions_per_txn", Spec::Integer().Min(1).Max(1 << 22),
               "YCSB-T: distinct partitions (servers) each transaction touches, at most the "
               "partitions and the operations",
               d.partitionsPerTxn)
        .Field("ops", Spec::Integer().Min(1).Max(1024),
               "YCSB-T: operations (distinct keys) per transaction", d.ops)
        .Field("records", Spec::Integer().Min(1).Max(int64_t{1} << 31),
               "YCSB-T: records per partition (the paper does not say; switchtx-spec 8.8)",
               static_cast<int64_t>(d.records))
        .Field("columns", Spec::Integer().Min(1).Max(256),
               "YCSB-T: columns per record, each a key-value pair", d.columns)
        .Field("theta", Spec::Number().Min(0).Max(10),
               "YCSB-T: Zipf exponent of the record popularity", d.theta)
        .Field("reads", Spec::Number().Min(0).Max(1),
               "YCSB-T: share of operations that only read (the others read-modify-write)",
               d.reads);
}

YcsbtWorkload::Config
ReadYcsbtConfig(const ParamView& workload, uint32_t partitions)
{
    YcsbtWorkload::Config config;
    config.partitions = partitions;
    config.partitionsPerTxn = static_cast<uint32_t>(workload.Int("partitions_per_txn"));
    config.ops = static_cast<uint32_t>(workload.Int("ops"));
    config.records = static_cast<uint64_t>(workload.Int("records"));
    config.columns = static_cast<uint32_t>(workload.Int("columns"));
    config.theta = workload.Number("theta");
    config.reads = workload.Number("reads");
    if (config.partitionsPerTxn > partitions)
    {
        workload.Fail("partitions_per_txn",
                      fmt::format("{} partitions per transaction, but there are {}",
                                  config.partitionsPerTxn, partitions));
    }
    if (config.ops < config.partitionsPerTxn)
    {
        workload.Fail("ops", fmt::format("{} operations cannot touch {} partitions", config.ops,
                                         config.partitionsPerTxn));
    }
    if (config.ops > uint64_t{config.partitionsPerTxn} * config.records * config.columns)
    {
        workload.Fail("ops", fmt::format("{} distinct keys per transaction, but its {} "
                                         "partitions hold {} keys",
                                         config.ops, config.partitionsPerTxn,
                                         uint64_t{config.partitionsPerTxn} * config.records *
                                             config.columns));
    }
    return config;
}

Spec&
AddTpccFields(Spec& workload, const TpccWorkload::Config& d)
{
    return workload
        .Field("warehouses_per_server", Spec::Integer().Min(1).Max(1 << 20),
               "TPC-C: warehouses of each partition (server)", d.warehousesPerPartition)
        .Field("districts", Spec::Integer().Min(1).Max(15), "TPC-C: districts per warehouse",
               d.districts)
        .Field("customers", Spec::Integer().Min(1).Max(4095), "TPC-C: customers per district",
               d.customers)
        .Field("items", Spec::Integer().Min(1).Max(1 << 28), "TPC-C: items (and stock rows "
                                                             "per warehouse)",
               d.items)
        .Field("new_order", Spec::Number().Min(0).Max(1),
               "TPC-C: share of New-Order transactions", d.newOrder)
        .Field("payment", Spec::Number().Min(0).Max(1),
               "TPC-C: share of Payment transactions (Order-Status: the rest)", d.payment)
        .Field("remote_items", Spec::Number().Min(0).Max(1),
               "TPC-C: share of New-Order lines supplied by another warehouse", d.remoteItems)
        .Field("remote_customers", Spec::Number().Min(0).Max(1),
               "TPC-C: share of Payments by a customer of another warehouse",
               d.remoteCustomers)
        .Field("min_lines", Spec::Integer().Min(1).Max(15), "TPC-C: fewest New-Order lines",
               d.minLines)
        .Field("max_lines", Spec::Integer().Min(1).Max(15), "TPC-C: most New-Order lines",
               d.maxLines);
}

TpccWorkload::Config
ReadTpccConfig(const ParamView& workload, uint32_t partitions)
{
    TpccWorkload::Config config;
    config.partitions = partitions;
    config.warehousesPerPartition = static_cast<uint32_t>(workload.Int("warehouses_per_server"));
    config.districts = static_cast<uint32_t>(workload.Int("districts"));
    config.customers = static_cast<uint32_t>(workload.Int("customers"));
    config.items = static_cast<uint32_t>(workload.Int("items"));
    config.newOrder = workload.Number("new_order");
    config.payment = workload.Number("payment");
    config.remoteItems = workload.Number("remote_items");
    config.remoteCustomers = workload.Number("remote_customers");
    config.minLines = static_cast<uint32_t>(workload.Int("min_lines"));
    config.maxLines = static_cast<uint32_t>(workload.Int("max_lines"));
    if (config.newOrder + config.payment > 1 + 1e-9)
    {
        workload.Fail("payment", fmt::format("new_order {} and payment {} add up to more than 1",
                                             config.newOrder, config.payment));
    }
    if (config.minLines > config.maxLines)
    {
        workload.Fail("min_lines", fmt::format("{} is above max_lines {}", config.minLines,
                                               config.maxLines));
    }
    if (uint64_t{partitions} * config.warehousesPerPartition > UINT32_MAX)
    {
        workload.Fail("warehouses_per_server",
                      fmt::format("{} servers of {} warehouses: more than 2^32 warehouses",
                                  partitions, config.warehousesPerPartition));
    }
    return config;
}

} // namespace incsim::txn
