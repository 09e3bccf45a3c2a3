#ifndef INCSIM_TXN_WORKLOAD_SPEC_H
#define INCSIM_TXN_WORKLOAD_SPEC_H

#include "protocols/txn/tpcc-workload.h"
#include "protocols/txn/ycsbt-workload.h"
#include "sim/schema/schema.h"

namespace incsim::txn
{

// Scenario fields of the shared workloads, for a protocol to embed in its /workload spec
// (documented in docs/txn.md; the protocol's section of docs/scenario.md lists them), and the
// readers that turn them into a Config, checking what the spec alone cannot (with the JSON
// path named). `partitions` is the protocol's number of shards.

/// YCSB-T: partitions_per_txn, ops, records, columns, theta, reads; their defaults from
/// `defaults` (a protocol's paper may set its own).
Spec& AddYcsbtFields(Spec& workload, const YcsbtWorkload::Config& defaults = {});
YcsbtWorkload::Config ReadYcsbtConfig(const ParamView& workload, uint32_t partitions);

/// TPC-C: warehouses_per_server, districts, customers, items, new_order, payment,
/// remote_items, remote_customers, min_lines, max_lines; their defaults from `defaults`.
Spec& AddTpccFields(Spec& workload, const TpccWorkload::Config& defaults = {});
TpccWorkload::Config ReadTpccConfig(const ParamView& workload, uint32_t partitions);

} // namespace incsim::txn

#endif
