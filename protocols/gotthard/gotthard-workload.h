#ifndef INCSIM_GOTTHARD_GOTTHARD_WORKLOAD_H
#define INCSIM_GOTTHARD_GOTTHARD_WORKLOAD_H

#include "sim/core/rng.h"

#include <cstdint>
#include <vector>

namespace incsim::gotthard
{

/// What a client's next transaction does: read its keys, or assert-and-increment each of them
/// (compare with the value in the client's cache, write that value plus one).
struct Transaction
{
    bool write = false;
    std::vector<uint32_t> keys;
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
/// fraction `writes` of them are increments. Clients are split into two groups (by site) for
/// the locality workload: each group owns half of the keys, and in each group the first
/// (1 - locality) of its clients use the other group's keys instead.
class MicroWorkload
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
    Transaction Next(uint32_t client, Rng& rng) const;

  private:
    Config m_config;
    ZipfKeys m_keys;
    uint32_t m_setSize;
    std::vector<uint32_t> m_keyBase;  ///< per client: first key of the set it uses
};

} // namespace incsim::gotthard

#endif
