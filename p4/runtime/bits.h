#ifndef INCSIM_P4RT_BITS_H
#define INCSIM_P4RT_BITS_H

// P4 bit<N> / int<N> values for generated code. Values up to 64 bits live in a uint64_t; wider
// ones (IPv6 addresses, opaque 128-bit ids) in WideBits<N>. Packet fields are big-endian bit
// strings: bit offset 0 is the most significant bit of byte 0, as on the wire.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace incsim::p4rt
{

/// All-ones in the low `width` bits; width is 0..64.
constexpr uint64_t WidthMask(unsigned width)
{
    // One shift and a select: no undefined 64-bit shift for width 0 or 64.
    return width == 0 ? 0 : ~uint64_t{0} >> (64 - width);
}

/// bit<width> arithmetic wraps: keep the low `width` bits.
constexpr uint64_t Truncate(uint64_t value, unsigned width)
{
    return value & WidthMask(width);
}

/// The int<width> held in the low `width` bits of `bits` (1..64), as a signed value.
constexpr int64_t SignExtend(uint64_t bits, unsigned width)
{
    const unsigned unused = 64 - width;
    return static_cast<int64_t>(bits << unused) >> unused;
}

/// The two's complement bit pattern of `value` as an int<width>, in the low `width` bits.
constexpr uint64_t FromSigned(int64_t value, unsigned width)
{
    return static_cast<uint64_t>(value) & WidthMask(width);
}

/// Bytes needed to hold `widthBits` bits, as each key field and action parameter is packed.
constexpr size_t BytesForBits(size_t widthBits)
{
    return (widthBits + 7) / 8;
}

/// Reads `n` (0..8) bytes big-endian. With a constant `n` of 2, 4 or 8 this is one load and a
/// byte swap.
inline uint64_t LoadBigEndian(const uint8_t* p, size_t n)
{
    if (n == 8)
    {
        uint64_t v;
        std::memcpy(&v, p, 8);
        return __builtin_bswap64(v);
    }
    if (n == 4)
    {
        uint32_t v;
        std::memcpy(&v, p, 4);
        return __builtin_bswap32(v);
    }
    if (n == 2)
    {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return __builtin_bswap16(v);
    }
    uint64_t value = 0;
    for (size_t i = 0; i < n; ++i)
    {
        value = (value << 8) | p[i];
    }
    return value;
}

/// Writes the low `n` (0..8) bytes of `value` big-endian.
inline void StoreBigEndian(uint8_t* p, uint64_t value, size_t n)
{
    if (n == 8)
    {
        const uint64_t v = __builtin_bswap64(value);
        std::memcpy(p, &v, 8);
        return;
    }
    if (n == 4)
    {
        const uint32_t v = __builtin_bswap32(static_cast<uint32_t>(value));
        std::memcpy(p, &v, 4);
        return;
    }
    if (n == 2)
    {
        const uint16_t v = __builtin_bswap16(static_cast<uint16_t>(value));
        std::memcpy(p, &v, 2);
        return;
    }
    for (size_t i = n; i-- > 0;)
    {
        p[i] = static_cast<uint8_t>(value);
        value >>= 8;
    }
}

/// Extracts the `width`-bit (1..64) big-endian field that starts `bitOffset` bits into `buf`.
/// Reads only the bytes that hold the field, so it is safe at the end of a buffer. With
/// constant arguments (as generated parsers pass them) it inlines to a few loads and shifts.
inline uint64_t ExtractBits(const uint8_t* buf, size_t bitOffset, unsigned width)
{
    const uint8_t* p = buf + (bitOffset >> 3);
    const unsigned shift = bitOffset & 7;
    const unsigned span = shift + width;  // bits from the MSB of p[0] to the field's end
    const unsigned nbytes = (span + 7) >> 3;  // 1..9
    if (nbytes <= 8)
    {
        const uint64_t acc = LoadBigEndian(p, nbytes);
        return (acc >> (nbytes * 8 - span)) & WidthMask(width);
    }
    // A 58..64-bit field that straddles nine bytes: drop the leading bits, pull in the tail.
    const uint64_t acc = LoadBigEndian(p, 8);
    const uint64_t joined = (acc << shift) | (p[8] >> (8 - shift));
    return joined >> (64 - width);
}

/// Writes the low `width` (1..64) bits of `value` as a big-endian field at `bitOffset`,
/// leaving every other bit of `buf` as it was.
inline void InsertBits(uint8_t* buf, size_t bitOffset, unsigned width, uint64_t value)
{
    uint8_t* p = buf + (bitOffset >> 3);
    const unsigned shift = bitOffset & 7;
    const unsigned span = shift + width;
    const unsigned nbytes = (span + 7) >> 3;
    value &= WidthMask(width);
    if (nbytes <= 8)
    {
        const unsigned tail = nbytes * 8 - span;  // unused low bits of the last byte
        const uint64_t fieldMask = WidthMask(width) << tail;
        const uint64_t acc = LoadBigEndian(p, nbytes);
        StoreBigEndian(p, (acc & ~fieldMask) | (value << tail), nbytes);
        return;
    }
    const unsigned lowBits = span - 64;  // 1..7 bits land in p[8]
    const uint64_t headMask = WidthMask(64 - shift);
    const uint64_t acc = LoadBigEndian(p, 8);
    StoreBigEndian(p, (acc & ~headMask) | (value >> lowBits), 8);
    const uint8_t tailMask = static_cast<uint8_t>(0xFF << (8 - lowBits));
    p[8] = static_cast<uint8_t>((p[8] & ~tailMask) | ((value << (8 - lowBits)) & tailMask));
}

/// Compile-time-placed forms for generated parsers and deparsers.
template <size_t BitOffset, unsigned Width>
inline uint64_t ExtractBitsAt(const uint8_t* buf)
{
    static_assert(Width >= 1 && Width <= 64, "use WideBits for fields wider than 64 bits");
    return ExtractBits(buf, BitOffset, Width);
}

template <size_t BitOffset, unsigned Width>
inline void InsertBitsAt(uint8_t* buf, uint64_t value)
{
    static_assert(Width >= 1 && Width <= 64, "use WideBits for fields wider than 64 bits");
    InsertBits(buf, BitOffset, Width, value);
}

/// A bit<N> value with N > 64, stored as ceil(N/8) big-endian bytes, right-aligned: the unused
/// high bits of byte 0 are always zero. This is also its packed table-key form.
template <unsigned N>
class WideBits
{
  public:
    static constexpr unsigned kWidth = N;
    static constexpr size_t kBytes = (N + 7) / 8;

    WideBits() = default;

    static WideBits FromUint64(uint64_t value)
    {
        WideBits bits;
        StoreBigEndian(bits.m_bytes.data() + kBytes - 8, value, 8);
        bits.ClearPadding();
        return bits;
    }

    /// `n` big-endian bytes, right-aligned; bytes and bits beyond N are dropped.
    static WideBits FromBytes(const uint8_t* bytes, size_t n)
    {
        WideBits bits;
        const size_t take = n < kBytes ? n : kBytes;
        std::memcpy(bits.m_bytes.data() + kBytes - take, bytes + n - take, take);
        bits.ClearPadding();
        return bits;
    }

    /// Action arguments wider than 64 bits arrive as ceil(N/64) words, most significant first.
    static WideBits FromWords(const uint64_t* words)
    {
        constexpr size_t kWords = (N + 63) / 64;
        std::array<uint8_t, kWords * 8> raw{};
        for (size_t i = 0; i < kWords; ++i)
        {
            StoreBigEndian(raw.data() + i * 8, words[i], 8);
        }
        return FromBytes(raw.data(), raw.size());
    }

    /// "0x..." or bare hex digits; nullopt if malformed or wider than N bits.
    static std::optional<WideBits> FromHex(std::string_view text)
    {
        if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        {
            text.remove_prefix(2);
        }
        if (text.empty())
        {
            return std::nullopt;
        }
        WideBits bits;
        size_t nibble = 0;  // counted from the least significant end
        for (size_t i = text.size(); i-- > 0; ++nibble)
        {
            const int digit = HexDigit(text[i]);
            if (digit < 0)
            {
                return std::nullopt;
            }
            if (digit == 0)
            {
                continue;
            }
            if (nibble >= kBytes * 2)
            {
                return std::nullopt;
            }
            uint8_t& byte = bits.m_bytes[kBytes - 1 - nibble / 2];
            byte |= static_cast<uint8_t>(digit << ((nibble & 1) * 4));
        }
        if (bits.m_bytes[0] & ~PaddingMask())
        {
            return std::nullopt;
        }
        return bits;
    }

    /// "0x" and exactly ceil(N/4) lowercase digits.
    std::string ToHex() const
    {
        static const char kDigits[] = "0123456789abcdef";
        std::string out = "0x";
        const size_t digits = (N + 3) / 4;
        for (size_t d = digits; d-- > 0;)
        {
            const uint8_t byte = m_bytes[kBytes - 1 - d / 2];
            out.push_back(kDigits[(d & 1) ? (byte >> 4) : (byte & 0xF)]);
        }
        return out;
    }

    /// Parses an N-bit field at `bitOffset` of a packet buffer.
    static WideBits Extract(const uint8_t* buf, size_t bitOffset)
    {
        WideBits bits;
        if ((bitOffset & 7) == 0 && N % 8 == 0)
        {
            std::memcpy(bits.m_bytes.data(), buf + bitOffset / 8, kBytes);
            return bits;
        }
        constexpr unsigned kHeadBits = N - 8 * (kBytes - 1);  // 1..8 bits in byte 0
        bits.m_bytes[0] = static_cast<uint8_t>(ExtractBits(buf, bitOffset, kHeadBits));
        for (size_t i = 1; i < kBytes; ++i)
        {
            bits.m_bytes[i] =
                static_cast<uint8_t>(ExtractBits(buf, bitOffset + kHeadBits + 8 * (i - 1), 8));
        }
        return bits;
    }

    /// Deparses this value as an N-bit field at `bitOffset`, keeping the bits around it.
    void Insert(uint8_t* buf, size_t bitOffset) const
    {
        if ((bitOffset & 7) == 0 && N % 8 == 0)
        {
            std::memcpy(buf + bitOffset / 8, m_bytes.data(), kBytes);
            return;
        }
        constexpr unsigned kHeadBits = N - 8 * (kBytes - 1);
        InsertBits(buf, bitOffset, kHeadBits, m_bytes[0]);
        for (size_t i = 1; i < kBytes; ++i)
        {
            InsertBits(buf, bitOffset + kHeadBits + 8 * (i - 1), 8, m_bytes[i]);
        }
    }

    /// The low 64 bits, e.g. for a cast to a narrower bit<M>.
    uint64_t Low64() const { return LoadBigEndian(m_bytes.data() + kBytes - 8, 8); }

    const uint8_t* Bytes() const { return m_bytes.data(); }
    uint8_t* Bytes() { return m_bytes.data(); }

    WideBits operator&(const WideBits& o) const
    {
        return Combine(o, [](uint8_t a, uint8_t b) { return a & b; });
    }

    WideBits operator|(const WideBits& o) const
    {
        return Combine(o, [](uint8_t a, uint8_t b) { return a | b; });
    }

    WideBits operator^(const WideBits& o) const
    {
        return Combine(o, [](uint8_t a, uint8_t b) { return a ^ b; });
    }

    WideBits operator~() const
    {
        WideBits r;
        for (size_t i = 0; i < kBytes; ++i)
        {
            r.m_bytes[i] = static_cast<uint8_t>(~m_bytes[i]);
        }
        r.ClearPadding();
        return r;
    }

    bool operator==(const WideBits& o) const { return m_bytes == o.m_bytes; }
    bool operator!=(const WideBits& o) const { return m_bytes != o.m_bytes; }
    /// Unsigned numeric order (big-endian bytes compare lexicographically).
    bool operator<(const WideBits& o) const { return m_bytes < o.m_bytes; }

  private:
    static_assert(N > 64, "values up to 64 bits are held in uint64_t");

    static constexpr uint8_t PaddingMask()
    {
        return static_cast<uint8_t>(0xFF >> (kBytes * 8 - N));
    }

    void ClearPadding() { m_bytes[0] &= PaddingMask(); }

    template <typename Op>
    WideBits Combine(const WideBits& o, Op op) const
    {
        WideBits r;
        for (size_t i = 0; i < kBytes; ++i)
        {
            r.m_bytes[i] = static_cast<uint8_t>(op(m_bytes[i], o.m_bytes[i]));
        }
        return r;
    }

    static int HexDigit(char c)
    {
        if (c >= '0' && c <= '9')
        {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f')
        {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F')
        {
            return c - 'A' + 10;
        }
        return -1;
    }

    std::array<uint8_t, kBytes> m_bytes{};
};

/// A varbit<N> value: storage for its maximum width and the length it has now. The parser fills
/// it from a whole number of bytes (extract(h, bits) rejects any other length), so `bits` is a
/// multiple of 8 and the value is the first bits / 8 of `bytes`, as on the wire; the rest of
/// `bytes` is zero. Two varbits are equal when they have the same length and the same bits.
template <unsigned N>
struct Varbit
{
    static constexpr size_t kBytes = (N + 7) / 8;

    uint32_t bits;
    uint8_t bytes[kBytes];

    /// Reads `length` bits (a multiple of 8, at most N) from `p`.
    void Load(const uint8_t* p, uint32_t length)
    {
        bits = length;
        std::memcpy(bytes, p, length / 8);
        std::memset(bytes + length / 8, 0, kBytes - length / 8);
    }

    /// Writes the value's bits / 8 bytes to `p`; returns them.
    uint32_t Store(uint8_t* p) const
    {
        std::memcpy(p, bytes, bits / 8);
        return bits / 8;
    }

    bool operator==(const Varbit& o) const
    {
        return bits == o.bits && std::memcmp(bytes, o.bytes, bits / 8) == 0;
    }
    bool operator!=(const Varbit& o) const { return !(*this == o); }
};

} // namespace incsim::p4rt

#endif
