#ifndef INCSIM_P4_COMPILER_BIG_UINT_H
#define INCSIM_P4_COMPILER_BIG_UINT_H

// An unsigned integer of any size, for literals wider than 64 bits (128w0x..., opaque keys).
// Just what the front end needs: build from digits, measure, print. Values of 64 bits or less
// (nearly all of them) are read with Low64().

#include <cstdint>
#include <string>
#include <vector>

namespace incsim::p4
{

class BigUint
{
  public:
    BigUint() = default;
    explicit BigUint(uint64_t value);

    /// *this = *this * factor + addend (how the lexer accumulates digits).
    void MultiplyAdd(uint32_t factor, uint32_t addend);

    bool IsZero() const { return m_limbs.empty(); }
    /// Bits needed to represent the value: 0 for zero, 8 for 255, 9 for 256.
    uint32_t BitWidth() const;
    bool FitsIn64() const { return m_limbs.size() <= 2; }
    /// The low 64 bits.
    uint64_t Low64() const;
    /// Little-endian 32-bit limbs, without leading zero limbs.
    const std::vector<uint32_t>& Limbs() const { return m_limbs; }

    /// Digits in base 2, 8, 10 or 16 (lowercase), without a prefix.
    std::string ToString(unsigned base = 10) const;

    bool operator==(const BigUint& other) const { return m_limbs == other.m_limbs; }
    bool operator!=(const BigUint& other) const { return m_limbs != other.m_limbs; }

  private:
    void Trim();

    std::vector<uint32_t> m_limbs;
};

} // namespace incsim::p4

#endif
