#include "protocols/txn/key-distribution.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace incsim::txn
{

ZipfKeys::ZipfKeys(uint64_t n, double theta)
{
    if (n == 0)
    {
        throw std::logic_error("ZipfKeys: no keys");
    }
    m_cdf.reserve(n);
    double sum = 0;
    for (uint64_t k = 0; k < n; ++k)
    {
        sum += 1.0 / std::pow(static_cast<double>(k) + 1.0, theta);
        m_cdf.push_back(sum);
    }
    for (double& c : m_cdf)
    {
        c /= sum;
    }
}

uint64_t
ZipfKeys::Draw(Rng& rng) const
{
    const double u = rng.Uniform();
    const auto it = std::upper_bound(m_cdf.begin(), m_cdf.end(), u);
    return static_cast<uint64_t>(std::min<size_t>(it - m_cdf.begin(), m_cdf.size() - 1));
}

HotSetKeys::HotSetKeys(uint64_t n, double hotFraction, double hotAccess)
    : m_n(n),
      m_hot(std::clamp<uint64_t>(std::llround(hotFraction * static_cast<double>(n)), 1, n)),
      m_hotAccess(hotAccess)
{
    if (n == 0)
    {
        throw std::logic_error("HotSetKeys: no keys");
    }
}

uint64_t
HotSetKeys::Draw(Rng& rng) const
{
    if (m_hot == m_n || rng.Bernoulli(m_hotAccess))
    {
        return rng.UniformInt(m_hot);
    }
    return m_hot + rng.UniformInt(m_n - m_hot);
}

} // namespace incsim::txn
