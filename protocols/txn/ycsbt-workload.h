#ifndef INCSIM_TXN_YCSBT_WORKLOAD_H
#define INCSIM_TXN_YCSBT_WORKLOAD_H

#include "protocols/txn/key-distribution.h"
#include "protocols/txn/txn-workload.h"

namespace incsim::txn
{

/// YCSB-T as SwitchTx runs it (Sec. 5.1, after Dey et al.): each partition (server) holds a
/// table of `records` records of `columns` columns, and each column is one key-value pair,
/// the unit of access. A transaction has `ops` operations on distinct keys, spread round-robin
/// over `partitionsPerTxn` distinct partitions drawn uniformly (SwitchTx: 8 operations over 8
/// distinct servers); each operation's record is Zipf(theta) and its column uniform. Each
/// operation is a read with probability `reads`, otherwise a read-modify-write (read the value
/// seen, write it plus one). One kind, "ycsbt".
///
/// Keys: partition << 40 | record << 8 | column (records < 2^32, columns <= 256,
/// partitions < 2^24).
class YcsbtWorkload : public Workload
{
  public:
    struct Config
    {
        uint32_t partitions = 8;
        uint32_t partitionsPerTxn = 8;
        uint32_t ops = 8;
        uint64_t records = 1'000'000;
        uint32_t columns = 24;
        double theta = 0.99;
        double reads = 0.5;
    };

    explicit YcsbtWorkload(const Config& config);
    const std::vector<std::string>& KindNames() const override;
    void Next(uint32_t client, Rng& rng, Transaction& txn) const override;
    void Execute(const Transaction& txn, const ValueView& values,
                 std::vector<Access>& accesses) const override;
    uint32_t Partitions() const override { return m_config.partitions; }
    uint32_t PartitionOf(uint64_t key) const override
    {
        return static_cast<uint32_t>(key >> kPartitionShift);
    }

    static constexpr uint32_t kPartitionShift = 40;
    static constexpr uint64_t Key(uint32_t partition, uint64_t record, uint32_t column)
    {
        return uint64_t{partition} << kPartitionShift | record << 8 | column;
    }

  private:
    Config m_config;
    ZipfKeys m_records;
};

} // namespace incsim::txn

#endif
