#include "p4/runtime/value-parse.h"

#include "p4/runtime/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace incsim::p4rt
{
namespace
{

int
DigitValue(char c)
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

// Digits in base `base` (2, 10 or 16) of any length, to big-endian bytes.
std::optional<BitString>
ParseRadix(std::string_view digits, int base)
{
    if (digits.empty())
    {
        return std::nullopt;
    }
    std::vector<uint8_t> little;  // little-endian bytes of the running value
    for (const char c : digits)
    {
        const int d = DigitValue(c);
        if (d < 0 || d >= base)
        {
            return std::nullopt;
        }
        unsigned carry = static_cast<unsigned>(d);
        for (uint8_t& byte : little)
        {
            const unsigned v = byte * static_cast<unsigned>(base) + carry;
            byte = static_cast<uint8_t>(v);
            carry = v >> 8;
        }
        while (carry != 0)
        {
            little.push_back(static_cast<uint8_t>(carry));
            carry >>= 8;
        }
    }
    std::reverse(little.begin(), little.end());
    return BitString::FromBytes(little);
}

std::vector<std::string_view>
Split(std::string_view text, char sep)
{
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (;;)
    {
        const size_t pos = text.find(sep, start);
        parts.push_back(text.substr(start, pos == std::string_view::npos ? pos : pos - start));
        if (pos == std::string_view::npos)
        {
            return parts;
        }
        start = pos + 1;
    }
}

std::optional<unsigned>
ParseSmallDecimal(std::string_view text, unsigned max)
{
    if (text.empty() || text.size() > 10)
    {
        return std::nullopt;
    }
    uint64_t value = 0;
    for (const char c : text)
    {
        if (c < '0' || c > '9')
        {
            return std::nullopt;
        }
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value > max)
    {
        return std::nullopt;
    }
    return static_cast<unsigned>(value);
}

std::optional<BitString>
ParseIpv4(std::string_view text)
{
    const auto parts = Split(text, '.');
    if (parts.size() != 4)
    {
        return std::nullopt;
    }
    uint8_t bytes[4];
    for (size_t i = 0; i < 4; ++i)
    {
        const auto octet = ParseSmallDecimal(parts[i], 255);
        if (!octet || parts[i].size() > 3)
        {
            return std::nullopt;
        }
        bytes[i] = static_cast<uint8_t>(*octet);
    }
    return BitString::FromBytes(bytes, 4);
}

std::optional<BitString>
ParseMac(std::string_view text)
{
    const char sep = text.find('-') != std::string_view::npos ? '-' : ':';
    const auto parts = Split(text, sep);
    if (parts.size() != 6)
    {
        return std::nullopt;
    }
    uint8_t bytes[6];
    for (size_t i = 0; i < 6; ++i)
    {
        if (parts[i].empty() || parts[i].size() > 2)
        {
            return std::nullopt;
        }
        unsigned v = 0;
        for (const char c : parts[i])
        {
            const int d = DigitValue(c);
            if (d < 0)
            {
                return std::nullopt;
            }
            v = v * 16 + static_cast<unsigned>(d);
        }
        bytes[i] = static_cast<uint8_t>(v);
    }
    return BitString::FromBytes(bytes, 6);
}

std::optional<BitString>
ParseIpv6(std::string_view text)
{
    // Split at "::" (at most once), parse the groups on each side, zero-fill the gap.
    std::vector<uint16_t> head;
    std::vector<uint16_t> tail;
    const size_t gap = text.find("::");
    if (gap != std::string_view::npos && text.find("::", gap + 1) != std::string_view::npos)
    {
        return std::nullopt;
    }
    const auto parseGroups = [](std::string_view part, std::vector<uint16_t>& out) {
        if (part.empty())
        {
            return true;
        }
        for (const std::string_view group : Split(part, ':'))
        {
            if (group.empty() || group.size() > 4)
            {
                return false;
            }
            unsigned v = 0;
            for (const char c : group)
            {
                const int d = DigitValue(c);
                if (d < 0)
                {
                    return false;
                }
                v = v * 16 + static_cast<unsigned>(d);
            }
            out.push_back(static_cast<uint16_t>(v));
        }
        return true;
    };
    if (gap == std::string_view::npos)
    {
        if (!parseGroups(text, head) || head.size() != 8)
        {
            return std::nullopt;
        }
    }
    else if (!parseGroups(text.substr(0, gap), head) || !parseGroups(text.substr(gap + 2), tail) ||
             head.size() + tail.size() > 7)
    {
        return std::nullopt;
    }
    uint8_t bytes[16] = {};
    for (size_t i = 0; i < head.size(); ++i)
    {
        StoreBigEndian(bytes + 2 * i, head[i], 2);
    }
    for (size_t i = 0; i < tail.size(); ++i)
    {
        StoreBigEndian(bytes + 16 - 2 * (tail.size() - i), tail[i], 2);
    }
    return BitString::FromBytes(bytes, 16);
}

} // namespace

std::optional<BitString>
ParseValue(std::string_view text)
{
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    {
        return ParseRadix(text.substr(2), 16);
    }
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B'))
    {
        return ParseRadix(text.substr(2), 2);
    }
    if (text.find('.') != std::string_view::npos)
    {
        return ParseIpv4(text);
    }
    if (text.find(':') != std::string_view::npos || text.find('-') != std::string_view::npos)
    {
        // Six groups of at most two digits is a MAC; anything else with ':' is IPv6.
        if (auto mac = ParseMac(text))
        {
            return mac;
        }
        return ParseIpv6(text);
    }
    return ParseRadix(text, 10);
}

BitString
ParseValueOrThrow(std::string_view text)
{
    if (auto value = ParseValue(text))
    {
        return *value;
    }
    throw Error(fmt::format("cannot parse '{}' as a value (decimal, 0x hex, 0b binary, IPv4, MAC "
                            "or IPv6 address)",
                            text));
}

MatchValue
ParseMatchValue(std::string_view text)
{
    if (text == "*")
    {
        return MatchValue::Wildcard();
    }
    const size_t amp = text.find("&&&");
    if (amp != std::string_view::npos)
    {
        return MatchValue::Ternary(ParseValueOrThrow(text.substr(0, amp)),
                                   ParseValueOrThrow(text.substr(amp + 3)));
    }
    const size_t slash = text.find('/');
    if (slash != std::string_view::npos)
    {
        const auto len = ParseSmallDecimal(text.substr(slash + 1), 1u << 16);
        if (!len)
        {
            throw Error(fmt::format("bad prefix length in '{}'", text));
        }
        return MatchValue::Lpm(ParseValueOrThrow(text.substr(0, slash)), *len);
    }
    return MatchValue::Exact(ParseValueOrThrow(text));
}

} // namespace incsim::p4rt
