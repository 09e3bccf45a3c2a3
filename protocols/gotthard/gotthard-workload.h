#ifndef INCSIM_GOTTHARD_GOTTHARD_WORKLOAD_H
#define INCSIM_GOTTHARD_GOTTHARD_WORKLOAD_H

#include "protocols/gotthard/gotthard-wire.h"
#include "sim/core/rng.h"

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace incsim::gotthard
{

/// One logical transaction, drawn once and executed again on every retry: its kind (an index
/// into the workload's KindNames) and the arguments the workload gives it.
struct Transaction
{
    uint32_t kind = 0;
    std::array<uint32_t, 3> args{};
};

/// A client's copy of the values it has learned (keys it has not: 0, the initial value).
class ValueCache
{
  public:
    uint64_t Get(uint32_t key) const
    {
        const auto it = m_values.find(key);
        return it == m_values.end() ? 0 : it->second;
    }
    void Set(uint32_t key, uint64_t value) { m_values[key] = value; }

  private:
    std::unordered_map<uint32_t, uint64_t> m_values;
};

/// What clients run: draws transactions and executes them against a client's cache into the
/// operations of one attempt (compares carry the values the client holds, writes the values
/// it computes from them).
class Workload
{
  public:
    virtual ~Workload() = default;
    virtual const std::vector<std::string>& KindNames() const = 0;
    virtual Transaction Next(uint32_t client, Rng& rng) const = 0;
    virtual void Execute(const Transaction& txn, const ValueCache& cache,
                         std::vector<Op>& ops) const = 0;
};

/// Keys 0 .. n-1 with Zipf popularity: P(k) proportional to 1 / (k + 1)^exponent (exponent 0:
/// uniform).
class ZipfKeys
{
  public:
    ZipfKeys(uint32_t n, double exponent);
    uint32_t Draw(Rng& rng) const;

  private:
    std::vector<double> m_cdf;
};

/// The microbenchmarks of the paper's Sec. 5.3. Every transaction touches one key; a
/// fraction `writes` of them assert-and-increment it (kind "write": compare with the cached
/// value, write it plus one), the others read it (kind "read"). Clients are split into two groups (by site) for
/// the locality workload: each group owns half of the keys, and in each group the first
/// (1 - locality) of its clients use the other group's keys instead.
class MicroWorkload : public Workload
{
  public:
    struct Config
    {
        double writes = 0.2;
        uint32_t keys = 1;        ///< 1: the single counter
        double zipf = 0;          ///< popularity within the key set used
        bool locality = false;    ///< split the keys by client group
        double localFraction = 1; ///< locality: share of each group's clients on own keys
    };

    /// `groupOf[c]` is client c's group (0 or 1; used by the locality workload only).
    MicroWorkload(const Config& config, std::vector<uint32_t> groupOf);
    const std::vector<std::string>& KindNames() const override;
    Transaction Next(uint32_t client, Rng& rng) const override;
    void Execute(const Transaction& txn, const ValueCache& cache,
                 std::vector<Op>& ops) const override;

  private:
    Config m_config;
    ZipfKeys m_keys;
    uint32_t m_setSize;
    std::vector<uint32_t> m_keyBase;  ///< per client: first key of the set it uses
};

} // namespace incsim::gotthard

#endif
