#include "p4/compiler/big-uint.h"

#include <algorithm>

namespace incsim::p4
{

BigUint::BigUint(uint64_t value)
{
    if (value != 0)
    {
        m_limbs.push_back(static_cast<uint32_t>(value));
        m_limbs.push_back(static_cast<uint32_t>(value >> 32));
        Trim();
    }
}

void
BigUint::MultiplyAdd(uint32_t factor, uint32_t addend)
{
    uint64_t carry = addend;
    for (uint32_t& limb : m_limbs)
    {
        uint64_t product = static_cast<uint64_t>(limb) * factor + carry;
        limb = static_cast<uint32_t>(product);
        carry = product >> 32;
    }
    if (carry != 0)
    {
        m_limbs.push_back(static_cast<uint32_t>(carry));
    }
    Trim();
}

uint32_t
BigUint::BitWidth() const
{
    if (m_limbs.empty())
    {
        return 0;
    }
    uint32_t top = m_limbs.back();
    uint32_t bits = 0;
    while (top != 0)
    {
        ++bits;
        top >>= 1;
    }
    return static_cast<uint32_t>((m_limbs.size() - 1) * 32) + bits;
}

uint64_t
BigUint::Low64() const
{
    uint64_t value = 0;
    if (!m_limbs.empty())
    {
        value = m_limbs[0];
    }
    if (m_limbs.size() > 1)
    {
        value |= static_cast<uint64_t>(m_limbs[1]) << 32;
    }
    return value;
}

std::string
BigUint::ToString(unsigned base) const
{
    if (m_limbs.empty())
    {
        return "0";
    }
    static constexpr char kDigits[] = "0123456789abcdef";
    std::vector<uint32_t> limbs = m_limbs;
    std::string digits;
    while (!limbs.empty())
    {
        // Divide the whole number by `base`, keeping the remainder as the next digit.
        uint64_t remainder = 0;
        for (size_t i = limbs.size(); i-- > 0;)
        {
            uint64_t current = (remainder << 32) | limbs[i];
            limbs[i] = static_cast<uint32_t>(current / base);
            remainder = current % base;
        }
        digits.push_back(kDigits[remainder]);
        while (!limbs.empty() && limbs.back() == 0)
        {
            limbs.pop_back();
        }
    }
    std::reverse(digits.begin(), digits.end());
    return digits;
}

void
BigUint::Trim()
{
    while (!m_limbs.empty() && m_limbs.back() == 0)
    {
        m_limbs.pop_back();
    }
}

} // namespace incsim::p4
