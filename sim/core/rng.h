#ifndef INCSIM_CORE_RNG_H
#define INCSIM_CORE_RNG_H

#include <cstdint>
#include <string_view>

namespace incsim
{

/// A small, fast random stream (xoshiro256++). Each stream is derived from
/// (scenario seed, component name, index), so adding a component never reshuffles the others.
class Rng
{
  public:
    Rng(uint64_t seed, std::string_view component, uint64_t index = 0);
    explicit Rng(uint64_t rawSeed);

    uint64_t NextU64();
    /// Uniform in [0, 1).
    double Uniform();
    /// Uniform integer in [0, n), n > 0, without modulo bias.
    uint64_t UniformInt(uint64_t n);
    bool Bernoulli(double p);
    double Exponential(double mean);
    double Normal(double mean, double stddev);

  private:
    uint64_t m_s[4];
};

/// 64-bit FNV-1a of a string: stable across runs and builds.
uint64_t Fnv1a(std::string_view text);
/// A stable, well-mixed 64-bit hash of a string (FNV-1a followed by a SplitMix64 finaliser).
uint64_t StableHash(std::string_view text);
/// SplitMix64 finaliser: a well-mixed 64-bit function of x.
uint64_t Mix64(uint64_t x);

} // namespace incsim

#endif
