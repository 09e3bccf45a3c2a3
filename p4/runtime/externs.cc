#include "p4/runtime/externs.h"

#include "p4/runtime/error.h"

#include <fmt/format.h>

#include <algorithm>

namespace incsim::p4rt
{

RegisterBase::RegisterBase(std::string name, size_t size, unsigned width)
    : m_name(std::move(name)),
      m_size(size),
      m_width(width)
{
}

void
RegisterBase::CheckIndex(size_t index) const
{
    if (index >= m_size)
    {
        throw Error(fmt::format("register {}: index {} is out of range (size {})", m_name, index,
                                m_size),
                    "index");
    }
}

void
RegisterBase::CheckValue(const BitString& value) const
{
    if (!value.FitsIn(m_width))
    {
        throw Error(fmt::format("register {}: value {} is wider than {} bits", m_name,
                                value.ToHex(), m_width),
                    "value");
    }
}

RegisterArray::RegisterArray(std::string name, size_t size, unsigned width)
    : RegisterBase(std::move(name), size, width),
      m_mask(WidthMask(width)),
      m_cells(size, 0)
{
    if (width == 0 || width > 64)
    {
        throw Error(fmt::format("register {}: width {} is not in 1..64 (use WideRegisterArray)",
                                m_name, width));
    }
}

BitString
RegisterArray::ReadValue(size_t index) const
{
    CheckIndex(index);
    return BitString(m_cells[index]);
}

void
RegisterArray::WriteValue(size_t index, const BitString& value)
{
    CheckIndex(index);
    CheckValue(value);
    m_cells[index] = value.Low64();
}

void
RegisterArray::Reset()
{
    std::fill(m_cells.begin(), m_cells.end(), 0);
}

CounterArray::CounterArray(std::string name, size_t size, CounterType type)
    : m_name(std::move(name)),
      m_type(type),
      m_cells(size)
{
}

void
CounterArray::CheckIndex(size_t index) const
{
    if (index >= m_cells.size())
    {
        throw Error(fmt::format("counter {}: index {} is out of range (size {})", m_name, index,
                                m_cells.size()),
                    "index");
    }
}

uint64_t
CounterArray::Packets(size_t index) const
{
    CheckIndex(index);
    return m_cells[index].packets;
}

uint64_t
CounterArray::Bytes(size_t index) const
{
    CheckIndex(index);
    return m_cells[index].bytes;
}

void
CounterArray::Set(size_t index, uint64_t packets, uint64_t bytes)
{
    CheckIndex(index);
    m_cells[index] = Cell{packets, bytes};
}

void
CounterArray::Reset()
{
    std::fill(m_cells.begin(), m_cells.end(), Cell{});
}

namespace
{

// Reflected (LSB-first) CRC tables. Processing reflected data with the reflected polynomial is
// the same as BMv2's reflect-each-byte-then-reflect-the-remainder formulation, one table
// lookup per byte.
template <typename T>
constexpr std::array<T, 256>
ReflectedCrcTable(T reflectedPoly)
{
    std::array<T, 256> table{};
    for (unsigned i = 0; i < 256; ++i)
    {
        T crc = static_cast<T>(i);
        for (int bit = 0; bit < 8; ++bit)
        {
            crc = (crc & 1) ? static_cast<T>((crc >> 1) ^ reflectedPoly) : static_cast<T>(crc >> 1);
        }
        table[i] = crc;
    }
    return table;
}

constexpr auto kCrc16Table = ReflectedCrcTable<uint16_t>(0xA001);  // 0x8005 reflected
constexpr auto kCrc32Table = ReflectedCrcTable<uint32_t>(0xEDB88320u);  // 0x04C11DB7 reflected

// Slicing-by-8: table k advances a byte through k further zero bytes, so eight bytes cost
// eight independent lookups instead of a chain of eight.
constexpr std::array<std::array<uint32_t, 256>, 8>
SlicedCrc32Tables()
{
    std::array<std::array<uint32_t, 256>, 8> tables{};
    tables[0] = kCrc32Table;
    for (size_t k = 1; k < 8; ++k)
    {
        for (unsigned i = 0; i < 256; ++i)
        {
            const uint32_t previous = tables[k - 1][i];
            tables[k][i] = (previous >> 8) ^ kCrc32Table[previous & 0xFF];
        }
    }
    return tables;
}

constexpr auto kCrc32Sliced = SlicedCrc32Tables();

} // namespace

uint16_t
Crc16(const uint8_t* data, size_t len)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < len; ++i)
    {
        crc = static_cast<uint16_t>((crc >> 8) ^ kCrc16Table[(crc ^ data[i]) & 0xFF]);
    }
    return crc;
}

uint32_t
Crc32(const uint8_t* data, size_t len)
{
    uint32_t crc = 0xFFFFFFFFu;
    size_t i = 0;
    for (; i + 8 <= len; i += 8)
    {
        const uint8_t* p = data + i;
        const uint32_t low = crc ^ (uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
                                    uint32_t{p[3]} << 24);
        crc = kCrc32Sliced[7][low & 0xFF] ^ kCrc32Sliced[6][(low >> 8) & 0xFF] ^
              kCrc32Sliced[5][(low >> 16) & 0xFF] ^ kCrc32Sliced[4][low >> 24] ^
              kCrc32Sliced[3][p[4]] ^ kCrc32Sliced[2][p[5]] ^ kCrc32Sliced[1][p[6]] ^
              kCrc32Sliced[0][p[7]];
    }
    for (; i < len; ++i)
    {
        crc = (crc >> 8) ^ kCrc32Table[(crc ^ data[i]) & 0xFF];
    }
    return crc ^ 0xFFFFFFFFu;
}

uint16_t
Csum16(const uint8_t* data, size_t len)
{
    uint64_t sum = 0;
    size_t i = 0;
    for (; i + 1 < len; i += 2)
    {
        sum += (uint32_t{data[i]} << 8) | data[i + 1];
    }
    if (i < len)
    {
        sum += uint32_t{data[i]} << 8;
    }
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

uint16_t
Xor16(const uint8_t* data, size_t len)
{
    uint16_t x = 0;
    size_t i = 0;
    for (; i + 1 < len; i += 2)
    {
        x ^= static_cast<uint16_t>((data[i] << 8) | data[i + 1]);
    }
    if (i < len)
    {
        x ^= static_cast<uint16_t>(data[i] << 8);
    }
    return x;
}

uint64_t
IdentityHash(const uint8_t* data, size_t len)
{
    return LoadBigEndian(data, std::min<size_t>(len, 8));
}

uint64_t
ComputeHash(HashAlgorithm algo, const uint8_t* data, size_t len)
{
    switch (algo)
    {
    case HashAlgorithm::Crc16:
    case HashAlgorithm::Crc16Custom:
        return Crc16(data, len);
    case HashAlgorithm::Crc32:
    case HashAlgorithm::Crc32Custom:
        return Crc32(data, len);
    case HashAlgorithm::Identity:
        return IdentityHash(data, len);
    case HashAlgorithm::Csum16:
        return Csum16(data, len);
    case HashAlgorithm::Xor16:
        return Xor16(data, len);
    }
    return 0;
}

} // namespace incsim::p4rt
