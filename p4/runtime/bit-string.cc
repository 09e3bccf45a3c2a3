#include "p4/runtime/bit-string.h"

#include <algorithm>

namespace incsim::p4rt
{

BitString::BitString(uint64_t value)
{
    m_bytes.resize(8);
    StoreBigEndian(m_bytes.data(), value, 8);
    Normalize();
}

BitString
BitString::FromBytes(const uint8_t* bytes, size_t n)
{
    BitString value;
    value.m_bytes.assign(bytes, bytes + n);
    value.Normalize();
    return value;
}

BitString
BitString::FromBytes(const std::vector<uint8_t>& bytes)
{
    return FromBytes(bytes.data(), bytes.size());
}

BitString
BitString::AllOnes(unsigned width)
{
    std::vector<uint8_t> bytes(BytesForBits(width), 0xFF);
    if (width % 8 != 0)
    {
        bytes[0] = static_cast<uint8_t>(0xFF >> (8 - width % 8));
    }
    return FromBytes(bytes);
}

void
BitString::Normalize()
{
    const auto firstNonZero =
        std::find_if(m_bytes.begin(), m_bytes.end(), [](uint8_t b) { return b != 0; });
    m_bytes.erase(m_bytes.begin(), firstNonZero);
}

unsigned
BitString::BitLength() const
{
    if (m_bytes.empty())
    {
        return 0;
    }
    unsigned topBits = 0;
    for (uint8_t b = m_bytes[0]; b != 0; b >>= 1)
    {
        ++topBits;
    }
    return static_cast<unsigned>((m_bytes.size() - 1) * 8) + topBits;
}

void
BitString::Store(uint8_t* out, size_t nbytes) const
{
    const size_t take = std::min(nbytes, m_bytes.size());
    std::fill(out, out + nbytes - take, 0);
    std::copy(m_bytes.end() - take, m_bytes.end(), out + nbytes - take);
}

std::vector<uint8_t>
BitString::ToBytes(size_t nbytes) const
{
    std::vector<uint8_t> out(nbytes);
    Store(out.data(), nbytes);
    return out;
}

uint64_t
BitString::Low64() const
{
    uint8_t low[8];
    Store(low, 8);
    return LoadBigEndian(low, 8);
}

std::string
BitString::ToHex() const
{
    static const char kDigits[] = "0123456789abcdef";
    std::string out = "0x";
    if (m_bytes.empty())
    {
        return "0x0";
    }
    for (size_t i = 0; i < m_bytes.size(); ++i)
    {
        const uint8_t b = m_bytes[i];
        if (i > 0 || (b >> 4) != 0)
        {
            out.push_back(kDigits[b >> 4]);
        }
        out.push_back(kDigits[b & 0xF]);
    }
    return out;
}

} // namespace incsim::p4rt
