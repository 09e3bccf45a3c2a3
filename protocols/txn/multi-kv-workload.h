#ifndef INCSIM_TXN_MULTI_KV_WORKLOAD_H
#define INCSIM_TXN_MULTI_KV_WORKLOAD_H

#include "protocols/txn/key-distribution.h"
#include "protocols/txn/txn-workload.h"

namespace incsim::txn
{

/// Multi-key key-value transactions of independent operations (1Pipe's transactional
/// key-value store, Sec. 7.3.1): `keysPerTxn` distinct keys, each read (a fetch: the server
/// supplies the value) or, with probability `writes`, written (a value unique to the
/// transaction and the key, not computed from a read). The kind follows from the draws:
/// "ro" (every key read), "wo" (every key written) or "wr". Keys 0 .. keys-1 by Zipf(theta)
/// (theta 0: uniform), spread over `partitions` by key modulo partitions.
///
/// 1Pipe's "50% of TXNs read-only" with 2 keys is writes = 1 - sqrt(0.5) per key (the paper
/// also says read or write is chosen per operation; docs/onepipe-apps.md).
class MultiKvWorkload : public Workload
{
  public:
    struct Config
    {
        uint32_t keysPerTxn = 2;
        double writes = 0.5;
        uint64_t keys = 1'000'000;
        double theta = 0;
        uint32_t partitions = 1;
    };
    /// At most this many keys per transaction (a bit mask says which are written).
    static constexpr uint32_t kMaxKeysPerTxn = 64;

    enum Kind : uint32_t
    {
        kReadOnly,
        kWriteOnly,
        kReadWrite
    };

    explicit MultiKvWorkload(const Config& config);
    const std::vector<std::string>& KindNames() const override;
    void Next(uint32_t client, Rng& rng, Transaction& txn) const override;
    void Execute(const Transaction& txn, const ValueView& values,
                 std::vector<Access>& accesses) const override;
    uint32_t Partitions() const override { return m_config.partitions; }
    uint32_t PartitionOf(uint64_t key) const override
    {
        return static_cast<uint32_t>(key % m_config.partitions);
    }

  private:
    Config m_config;
    ZipfKeys m_keys;
};

} // namespace incsim::txn

#endif
