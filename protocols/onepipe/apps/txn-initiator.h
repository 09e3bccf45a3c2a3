#ifndef INCSIM_ONEPIPE_APPS_TXN_INITIATOR_H
#define INCSIM_ONEPIPE_APPS_TXN_INITIATOR_H

#include "protocols/txn/txn-workload.h"
#include "sim/core/rng.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace incsim::onepipe::apps
{

/// What the transactional applications' initiators (onepipe_kvs, onepipe_tpcc) count, by
/// transaction kind (the workload's KindNames): commits and aborts in the measured window,
/// and the committed transactions' latencies (first attempt to commit).
struct TxnResults
{
    explicit TxnResults(size_t kinds = 0) : commits(kinds), aborts(kinds), latencyPs(kinds) {}
    std::vector<uint64_t> commits;
    std::vector<uint64_t> aborts;
    std::vector<std::vector<int64_t>> latencyPs;
};

/// commits, aborts, abort_rate, throughput_txns_per_s (over `measuredPs`), the latency
/// percentiles, and the same per kind under "kinds".
nlohmann::json TxnMetrics(const TxnResults& results, const std::vector<std::string>& kindNames,
                          int64_t measuredPs);

/// Values nobody has written read as 0 (every key's initial value): an initiator executes a
/// transaction on it to learn which keys it names.
class NoValues : public txn::ValueView
{
  public:
    uint64_t Value(uint64_t /*key*/) const override { return 0; }
};

/// The wait before an aborted attempt's retry number `retries` (from 1): uniform up to
/// `basePs`, doubling with each retry up to 64 times it.
int64_t RetryBackoffPs(int64_t basePs, uint32_t retries, Rng& rng);

} // namespace incsim::onepipe::apps

#endif
