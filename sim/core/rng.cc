#include "sim/core/rng.h"

#include <cmath>

namespace incsim
{

uint64_t
Mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t
Fnv1a(std::string_view text)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text)
    {
        h = (h ^ c) * 0x100000001b3ULL;
    }
    return h;
}

uint64_t
StableHash(std::string_view text)
{
    return Mix64(Fnv1a(text));
}

Rng::Rng(uint64_t seed, std::string_view component, uint64_t index)
    : Rng(Mix64(Mix64(seed) ^ StableHash(component)) ^ Mix64(index + 0x632be59bd9b4e019ULL))
{
}

Rng::Rng(uint64_t rawSeed)
{
    uint64_t x = rawSeed;
    for (auto& word : m_s)
    {
        x += 0x9e3779b97f4a7c15ULL;
        word = Mix64(x);
    }
}

static inline uint64_t
Rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t
Rng::NextU64()
{
    uint64_t result = Rotl(m_s[0] + m_s[3], 23) + m_s[0];
    uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = Rotl(m_s[3], 45);
    return result;
}

double
Rng::Uniform()
{
    return static_cast<double>(NextU64() >> 11) * 0x1.0p-53;
}

uint64_t
Rng::UniformInt(uint64_t n)
{
    // Lemire's nearly-divisionless method.
    unsigned __int128 m = static_cast<unsigned __int128>(NextU64()) * n;
    auto low = static_cast<uint64_t>(m);
    if (low < n)
    {
        uint64_t threshold = -n % n;
        while (low < threshold)
        {
            m = static_cast<unsigned __int128>(NextU64()) * n;
            low = static_cast<uint64_t>(m);
        }
    }
    return static_cast<uint64_t>(m >> 64);
}

bool
Rng::Bernoulli(double p)
{
    return p > 0 && Uniform() < p;
}

double
Rng::Exponential(double mean)
{
    return -mean * std::log1p(-Uniform());
}

double
Rng::Normal(double mean, double stddev)
{
    // Box-Muller; one draw per call keeps the stream position easy to reason about.
    double u1 = 1.0 - Uniform();
    double u2 = Uniform();
    return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

} // namespace incsim
