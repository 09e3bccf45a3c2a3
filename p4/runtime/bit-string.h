#ifndef INCSIM_P4RT_BIT_STRING_H
#define INCSIM_P4RT_BIT_STRING_H

#include "p4/runtime/bits.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace incsim::p4rt
{

/// An unsigned value of any width, for the control-plane path only (match values, masks,
/// action arguments, register contents). The data path never sees one: tables convert it to
/// packed bytes when an entry is installed.
class BitString
{
  public:
    BitString() = default;
    /// Implicit, so that arguments read naturally: {{"port", 3}}.
    BitString(uint64_t value);

    /// `n` big-endian bytes.
    static BitString FromBytes(const uint8_t* bytes, size_t n);
    static BitString FromBytes(const std::vector<uint8_t>& bytes);
    template <unsigned N>
    static BitString FromWide(const WideBits<N>& value)
    {
        return FromBytes(value.Bytes(), WideBits<N>::kBytes);
    }
    /// The low `width` bits set.
    static BitString AllOnes(unsigned width);

    /// Bits needed to write the value: 0 for zero, 9 for 0x100.
    unsigned BitLength() const;
    bool IsZero() const { return m_bytes.empty(); }
    bool FitsIn(unsigned width) const { return BitLength() <= width; }

    /// Writes the value big-endian into exactly `nbytes` bytes, zero-padded on the left.
    /// Bytes beyond `nbytes` are dropped; check FitsIn first.
    void Store(uint8_t* out, size_t nbytes) const;
    std::vector<uint8_t> ToBytes(size_t nbytes) const;
    /// The low 64 bits.
    uint64_t Low64() const;

    /// Minimal lowercase hex: "0x0", "0x1ff".
    std::string ToHex() const;

    bool operator==(const BitString& other) const { return m_bytes == other.m_bytes; }
    bool operator!=(const BitString& other) const { return m_bytes != other.m_bytes; }

  private:
    void Normalize();

    std::vector<uint8_t> m_bytes;  // big-endian, no leading zero bytes
};

} // namespace incsim::p4rt

#endif
