#ifndef INCSIM_TXN_KEY_DISTRIBUTION_H
#define INCSIM_TXN_KEY_DISTRIBUTION_H

#include "sim/core/rng.h"

#include <cstdint>
#include <vector>

namespace incsim::txn
{

/// Ranks 0 .. n-1 with Zipf popularity: P(k) proportional to 1 / (k + 1)^theta (theta 0:
/// uniform). One uniform draw per key, by binary search of the CDF (n doubles of memory).
class ZipfKeys
{
  public:
    ZipfKeys(uint64_t n, double theta);
    uint64_t Draw(Rng& rng) const;
    uint64_t Size() const { return m_cdf.size(); }

  private:
    std::vector<double> m_cdf;
};

/// Ranks 0 .. n-1 where the first max(1, round(hotFraction * n)) keys (the hot set) get a
/// share `hotAccess` of the accesses, uniformly, and the others the rest, uniformly (YCSB's
/// hotspot distribution). Two uniform draws per key.
class HotSetKeys
{
  public:
    HotSetKeys(uint64_t n, double hotFraction, double hotAccess);
    uint64_t Draw(Rng& rng) const;
    uint64_t HotKeys() const { return m_hot; }

  private:
    uint64_t m_n;
    uint64_t m_hot;
    double m_hotAccess;
};

} // namespace incsim::txn

#endif
