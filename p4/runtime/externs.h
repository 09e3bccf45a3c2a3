#ifndef INCSIM_P4RT_EXTERNS_H
#define INCSIM_P4RT_EXTERNS_H

// v1model externs for generated pipelines: registers, counters and hash.
//
// Out-of-range indices follow BMv2's simple_switch (primitives register_read, register_write,
// count): a read leaves the destination unchanged, a write or count is ignored. BMv2 logs an
// error in each case; here the `OutOfRange()` tally counts them so tests can assert none
// happened.

#include "p4/runtime/bit-string.h"
#include "p4/runtime/bits.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace incsim::p4rt
{

/// The control plane's view of any register array, whatever its cell type.
class RegisterBase
{
  public:
    RegisterBase(std::string name, size_t size, unsigned width);
    virtual ~RegisterBase() = default;

    const std::string& Name() const { return m_name; }
    size_t Size() const { return m_size; }
    unsigned Width() const { return m_width; }
    /// Data-path accesses that were out of range and therefore dropped.
    uint64_t OutOfRange() const { return m_outOfRange; }

    /// Control-plane access; throws Error for a bad index or a value wider than the cells.
    virtual BitString ReadValue(size_t index) const = 0;
    virtual void WriteValue(size_t index, const BitString& value) = 0;
    /// All cells back to zero (a switch reboot).
    virtual void Reset() = 0;

  protected:
    void CheckIndex(size_t index) const;
    void CheckValue(const BitString& value) const;

    std::string m_name;
    size_t m_size;
    unsigned m_width;
    mutable uint64_t m_outOfRange = 0;
};

/// register<bit<W>>(size) or register<int<W>>(size) with W <= 64: each cell holds the low W
/// bits (int<W> cells hold the two's complement pattern; sign-extend with SignExtend()).
class RegisterArray : public RegisterBase
{
  public:
    RegisterArray(std::string name, size_t size, unsigned width);

    /// reg.read(out, index): BMv2 leaves `out` unchanged when the index is out of range.
    void Read(uint64_t index, uint64_t& out) const
    {
        if (index < m_cells.size())
        {
            out = m_cells[index];
            return;
        }
        ++m_outOfRange;
    }

    /// The cell's value, or 0 out of range (for callers with no destination to preserve).
    uint64_t Read(uint64_t index) const
    {
        uint64_t out = 0;
        Read(index, out);
        return out;
    }

    /// reg.write(index, value): truncated to the cell width; ignored out of range.
    void Write(uint64_t index, uint64_t value)
    {
        if (index < m_cells.size())
        {
            m_cells[index] = value & m_mask;
            return;
        }
        ++m_outOfRange;
    }

    BitString ReadValue(size_t index) const override;
    void WriteValue(size_t index, const BitString& value) override;
    void Reset() override;

  private:
    uint64_t m_mask;
    std::vector<uint64_t> m_cells;
};

/// register<bit<N>> with N > 64.
template <unsigned N>
class WideRegisterArray : public RegisterBase
{
  public:
    WideRegisterArray(std::string name, size_t size)
        : RegisterBase(std::move(name), size, N),
          m_cells(size)
    {
    }

    void Read(uint64_t index, WideBits<N>& out) const
    {
        if (index < m_cells.size())
        {
            out = m_cells[index];
            return;
        }
        ++m_outOfRange;
    }

    void Write(uint64_t index, const WideBits<N>& value)
    {
        if (index < m_cells.size())
        {
            m_cells[index] = value;
            return;
        }
        ++m_outOfRange;
    }

    BitString ReadValue(size_t index) const override
    {
        CheckIndex(index);
        return BitString::FromWide(m_cells[index]);
    }

    void WriteValue(size_t index, const BitString& value) override
    {
        CheckIndex(index);
        CheckValue(value);
        const std::vector<uint8_t> bytes = value.ToBytes(WideBits<N>::kBytes);
        m_cells[index] = WideBits<N>::FromBytes(bytes.data(), bytes.size());
    }

    void Reset() override { std::fill(m_cells.begin(), m_cells.end(), WideBits<N>()); }

  private:
    std::vector<WideBits<N>> m_cells;
};

/// v1model CounterType.
enum class CounterType : uint8_t
{
    Packets,
    Bytes,
    PacketsAndBytes,
};

/// counter(size, type). Both tallies are always kept; the type says which the program meant
/// (and which check_counter compares by default).
class CounterArray
{
  public:
    CounterArray(std::string name, size_t size, CounterType type);

    /// c.count(index) for a packet of `bytes` bytes; ignored out of range, as in BMv2.
    void Count(uint64_t index, uint64_t bytes)
    {
        if (index < m_cells.size())
        {
            m_cells[index].packets += 1;
            m_cells[index].bytes += bytes;
            return;
        }
        ++m_outOfRange;
    }

    const std::string& Name() const { return m_name; }
    size_t Size() const { return m_cells.size(); }
    CounterType Type() const { return m_type; }
    uint64_t OutOfRange() const { return m_outOfRange; }

    /// Control-plane reads and writes; throw Error for a bad index.
    uint64_t Packets(size_t index) const;
    uint64_t Bytes(size_t index) const;
    void Set(size_t index, uint64_t packets, uint64_t bytes);
    void Reset();

  private:
    struct Cell
    {
        uint64_t packets = 0;
        uint64_t bytes = 0;
    };

    void CheckIndex(size_t index) const;

    std::string m_name;
    CounterType m_type;
    std::vector<Cell> m_cells;
    uint64_t m_outOfRange = 0;
};

/// v1model HashAlgorithm, with BMv2's definitions (src/bm_sim/calculations.cpp):
///   crc16   CRC-16/ARC: poly 0x8005 reflected, init 0, xorout 0 ("123456789" -> 0xBB3D)
///   crc32   CRC-32: poly 0x04C11DB7 reflected, init and xorout 0xFFFFFFFF (-> 0xCBF43926)
///   crc16_custom, crc32_custom: BMv2's defaults, which equal crc16 and crc32 (BMv2 lets a
///           controller change their polynomial at run time; incsim does not)
///   identity  the first min(len, 8) bytes as a big-endian integer
///   csum16  the Internet checksum: ~(ones' complement sum of big-endian 16-bit words), an odd
///           last byte padded with a zero byte after it
///   xor16   XOR of big-endian 16-bit words, an odd last byte padded the same way
/// `random` is not supported: BMv2 registers no "random" hash, and a random hash would break
/// incsim's determinism.
enum class HashAlgorithm : uint8_t
{
    Crc16,
    Crc32,
    Crc16Custom,
    Crc32Custom,
    Identity,
    Csum16,
    Xor16,
};

uint16_t Crc16(const uint8_t* data, size_t len);
uint32_t Crc32(const uint8_t* data, size_t len);
uint16_t Csum16(const uint8_t* data, size_t len);
uint16_t Xor16(const uint8_t* data, size_t len);
uint64_t IdentityHash(const uint8_t* data, size_t len);

/// The unreduced hash of `len` bytes.
uint64_t ComputeHash(HashAlgorithm algo, const uint8_t* data, size_t len);

/// v1model hash(out result, algo, base, data, max) given H = ComputeHash(algo, data):
/// base + (H mod max), computed in 64 bits as BMv2's modify_field_with_hash_based_offset does;
/// the caller truncates to the width of `result`. max == 0 is a division by zero in BMv2; here
/// it means "no reduction" (base + H). The data is the fields' bits concatenated MSB-first,
/// the last byte zero-filled at its low end (BMv2's BufBuilder pads at the END, so a bit<7>
/// field alone hashes as one byte holding value << 1); generated code packs it.
inline uint64_t ReduceHash(uint64_t hash, uint64_t base, uint64_t max)
{
    if (max == 0)
    {
        return base + hash;
    }
    // A 32-bit division is several times cheaper than a 64-bit one, and nearly every hash
    // result and modulus fits.
    if (((hash | max) >> 32) == 0)
    {
        return base + static_cast<uint32_t>(hash) % static_cast<uint32_t>(max);
    }
    return base + hash % max;
}

} // namespace incsim::p4rt

#endif
