#ifndef INCSIM_TXN_KV_WORKLOAD_H
#define INCSIM_TXN_KV_WORKLOAD_H

#include "protocols/txn/key-distribution.h"
#include "protocols/txn/txn-workload.h"

#include <variant>

namespace incsim::txn
{

/// Single-key key-value transactions (Gotthard's microbenchmarks, Sec. 5.3): a share `writes`
/// of them read-modify-write one key (kind "write": read the value seen, write it plus one),
/// the others fetch it (kind "read"). Keys 0 .. keys-1, drawn uniformly, by Zipf(theta) or
/// from a hot set. With `locality`, clients are in two groups (sites): each group owns half
/// of the keys, and in each group the first (1 - localFraction) of its clients use the other
/// group's half instead. Keys are spread over `partitions` by key modulo partitions.
class KvWorkload : public Workload
{
  public:
    enum class Distribution
    {
        Uniform,  ///< Zipf with theta 0 (one uniform draw per key)
        Zipf,
        HotSet
    };

    struct Config
    {
        double writes = 0.2;
        uint64_t keys = 1;
        Distribution distribution = Distribution::Uniform;
        double theta = 0;          ///< Zipf exponent
        double hotFraction = 0.2;  ///< hot set: share of the keys that are hot
        double hotAccess = 0.8;    ///< hot set: share of the accesses that go to them
        bool locality = false;     ///< split the keys between two client groups
        double localFraction = 1;  ///< locality: share of each group's clients on own keys
        uint32_t partitions = 1;
    };

    /// `groupOf[c]` is client c's group, 0 or 1 (used with locality only).
    KvWorkload(const Config& config, std::vector<uint32_t> groupOf);
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
    uint64_t m_setSize;  ///< keys a client draws from (half of them with locality)
    std::variant<ZipfKeys, HotSetKeys> m_keys;
    std::vector<uint64_t> m_keyBase;  ///< per client: the first key of the set it uses
};

} // namespace incsim::txn

#endif
