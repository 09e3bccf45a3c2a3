#include "p4/runtime/stf.h"

#include "p4/runtime/control-plane.h"
#include "p4/runtime/error.h"
#include "p4/runtime/value-parse.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace incsim::p4rt
{
namespace
{

// ---------------------------------------------------------------------------- parsing

/// A problem with one line; collected, then thrown together.
struct LineError
{
    std::string message;
};

std::string_view
Trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    {
        s.remove_suffix(1);
    }
    return s;
}

std::vector<std::string_view>
Words(std::string_view s)
{
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < s.size())
    {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
        {
            ++i;
        }
        const size_t start = i;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])))
        {
            ++i;
        }
        if (i > start)
        {
            words.push_back(s.substr(start, i - start));
        }
    }
    return words;
}

std::string
Lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool
AllDigits(std::string_view s)
{
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

uint64_t
ParseUnsigned(std::string_view s, const char* what)
{
    const auto value = ParseValue(s);
    if (!value || !value->FitsIn(64))
    {
        throw LineError{fmt::format("expected {} (a number), got '{}'", what, s)};
    }
    return value->Low64();
}

/// Group ids, replication ids and sessions are 32-bit: a larger number is an error, not the
/// number's low bits.
uint32_t
ParseUint32(std::string_view s, const char* what)
{
    const auto value = ParseValue(s);
    if (!value || !value->FitsIn(32))
    {
        throw LineError{fmt::format("expected {} (a number up to {}), got '{}'", what, UINT32_MAX,
                                    s)};
    }
    return static_cast<uint32_t>(value->Low64());
}

uint32_t
ParsePort(std::string_view s)
{
    if (!AllDigits(s) || s.size() > 9)
    {
        throw LineError{fmt::format("expected a port number, got '{}'", s)};
    }
    return static_cast<uint32_t>(std::stoul(std::string(s)));
}

/// STF numbers: decimal, 0x hex or 0b binary, the latter two with optional '*' digits.
StfNumber
ParseNumber(std::string_view text)
{
    StfNumber n;
    n.text = std::string(text);
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const bool bin = text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B');
    if ((hex || bin) && text.find('*') != std::string_view::npos)
    {
        const unsigned bitsPerDigit = hex ? 4 : 1;
        const std::string_view digits = text.substr(2);
        std::string value = std::string(text.substr(0, 2));
        std::string care = value;
        for (const char c : digits)
        {
            value.push_back(c == '*' ? '0' : c);
            care.push_back(c == '*' ? '0' : (hex ? 'f' : '1'));
        }
        const auto v = ParseValue(value);
        const auto m = ParseValue(care);
        if (!v || !m)
        {
            throw LineError{fmt::format("cannot parse '{}' as a number", text)};
        }
        n.value = *v;
        n.careMask = *m;
        n.hasStars = true;
        n.digitBits = static_cast<unsigned>(digits.size()) * bitsPerDigit;
        size_t trailing = 0;
        while (trailing < digits.size() && digits[digits.size() - 1 - trailing] == '*')
        {
            ++trailing;
        }
        n.trailingStarBits = static_cast<unsigned>(trailing) * bitsPerDigit;
        n.starBits =
            static_cast<unsigned>(std::count(digits.begin(), digits.end(), '*')) * bitsPerDigit;
        return n;
    }
    const auto v = ParseValue(text);
    if (!v)
    {
        throw LineError{fmt::format("cannot parse '{}' as a number", text)};
    }
    n.value = *v;
    if (hex || bin)
    {
        n.digitBits = static_cast<unsigned>(text.size() - 2) * (hex ? 4 : 1);
    }
    return n;
}

/// p4c writes header-stack elements as name$N; the control plane calls them name[N].
std::string
StackIndexToBrackets(std::string_view name)
{
    std::string out;
    for (size_t i = 0; i < name.size(); ++i)
    {
        if (name[i] == '$' && i + 1 < name.size() &&
            std::isdigit(static_cast<unsigned char>(name[i + 1])))
        {
            size_t j = i + 1;
            while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j])))
            {
                ++j;
            }
            out += "[";
            out += name.substr(i + 1, j - i - 1);
            out += "]";
            i = j - 1;
            continue;
        }
        out.push_back(name[i]);
    }
    return out;
}

StfKeyMatch
ParseKeyMatch(std::string_view word)
{
    const size_t colon = word.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == word.size())
    {
        throw LineError{fmt::format("expected <field>:<value>, got '{}'", word)};
    }
    StfKeyMatch key;
    key.field = StackIndexToBrackets(word.substr(0, colon));
    std::string_view value = word.substr(colon + 1);
    const size_t amp = value.find("&&&");
    const size_t slash = value.find('/');
    if (amp != std::string_view::npos)
    {
        key.mask = ParseNumber(value.substr(amp + 3));
        value = value.substr(0, amp);
    }
    else if (slash != std::string_view::npos)
    {
        const std::string_view len = value.substr(slash + 1);
        if (!AllDigits(len) || len.size() > 5)
        {
            throw LineError{fmt::format("bad prefix length in '{}'", word)};
        }
        key.prefixLen = static_cast<unsigned>(std::stoul(std::string(len)));
        value = value.substr(0, slash);
    }
    key.value = ParseNumber(value);
    return key;
}

/// "<action>(<name>:<value>, ...)" with nothing but an optional "= handle" after it.
void
ParseActionCall(std::string_view text, StfCommand& cmd)
{
    const size_t open = text.find('(');
    const size_t close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    {
        throw LineError{"expected <action>(<param>:<value>, ...)"};
    }
    const std::string_view name = Trim(text.substr(0, open));
    if (name.empty() || Words(name).size() != 1)
    {
        throw LineError{fmt::format("bad action name '{}'", name)};
    }
    cmd.action = std::string(name);
    std::string_view args = Trim(text.substr(open + 1, close - open - 1));
    while (!args.empty())
    {
        const size_t comma = args.find(',');
        const std::string_view arg = Trim(args.substr(0, comma));
        const size_t colon = arg.find(':');
        if (colon == std::string_view::npos)
        {
            throw LineError{fmt::format("expected <param>:<value>, got '{}'", arg)};
        }
        cmd.args.emplace_back(std::string(Trim(arg.substr(0, colon))),
                              ParseNumber(Trim(arg.substr(colon + 1))));
        args = comma == std::string_view::npos ? std::string_view() : Trim(args.substr(comma + 1));
    }
    const std::string_view after = Trim(text.substr(close + 1));
    if (!after.empty() && (after[0] != '=' || Words(after.substr(1)).size() != 1))
    {
        throw LineError{fmt::format("unexpected '{}' after the action", after)};
    }
}

void
ParseAdd(std::string_view rest, StfCommand& cmd)
{
    const size_t open = rest.find('(');
    if (open == std::string_view::npos)
    {
        throw LineError{"expected add <table> [<priority>] <field>:<value> ... <action>(...)"};
    }
    const std::vector<std::string_view> words = Words(rest.substr(0, open));
    if (words.size() < 2)
    {
        throw LineError{"expected add <table> [<priority>] <field>:<value> ... <action>(...)"};
    }
    cmd.table = std::string(words[0]);
    size_t i = 1;
    if (AllDigits(words[1]) && words.size() > 2)
    {
        if (words[1].size() > 9)
        {
            throw LineError{fmt::format("priority {} is too large", words[1])};
        }
        cmd.priority = static_cast<int32_t>(std::stol(std::string(words[1])));
        i = 2;
    }
    for (; i + 1 < words.size(); ++i)
    {
        cmd.keys.push_back(ParseKeyMatch(words[i]));
    }
    // The last word before '(' is the action name; re-join it with its argument list.
    const size_t actionStart = static_cast<size_t>(words.back().data() - rest.data());
    ParseActionCall(rest.substr(actionStart), cmd);
}

std::vector<uint8_t>
ParseHexBytes(std::string_view text)
{
    std::string digits;
    for (const char c : text)
    {
        if (std::isspace(static_cast<unsigned char>(c)))
        {
            continue;
        }
        if (!std::isxdigit(static_cast<unsigned char>(c)))
        {
            throw LineError{fmt::format("invalid packet data character '{}'", c)};
        }
        digits.push_back(c);
    }
    if (digits.size() % 2 != 0)
    {
        throw LineError{"packet data has an odd number of hex digits"};
    }
    std::vector<uint8_t> bytes;
    for (size_t i = 0; i < digits.size(); i += 2)
    {
        bytes.push_back(static_cast<uint8_t>(std::stoul(digits.substr(i, 2), nullptr, 16)));
    }
    return bytes;
}

void
ParseExpectData(std::string_view text, StfCommand& cmd)
{
    for (size_t i = 0; i < text.size(); ++i)
    {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c)))
        {
            continue;
        }
        if (c == '$')
        {
            if (!Trim(text.substr(i + 1)).empty())
            {
                throw LineError{"'$' must end the expected packet"};
            }
            cmd.exactLength = true;
            break;
        }
        if (c != '*' && !std::isxdigit(static_cast<unsigned char>(c)))
        {
            throw LineError{fmt::format("invalid expected-packet character '{}'", c)};
        }
        cmd.pattern.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    }
    if (cmd.exactLength && cmd.pattern.empty())
    {
        throw LineError{"'$' without packet data"};
    }
}

void
ExpectArgs(const std::vector<std::string_view>& words, size_t min, size_t max, const char* usage)
{
    if (words.size() - 1 < min || words.size() - 1 > max)
    {
        throw LineError{fmt::format("usage: {}", usage)};
    }
}

StfCommand
ParseLine(std::string_view line, int lineNo)
{
    StfCommand cmd;
    cmd.line = lineNo;
    const std::vector<std::string_view> words = Words(line);
    const std::string keyword = Lower(words[0]);
    const std::string_view rest = Trim(line.substr(words[0].size()));
    using Kind = StfCommand::Kind;

    if (keyword == "add")
    {
        cmd.kind = Kind::Add;
        ParseAdd(rest, cmd);
    }
    else if (keyword == "setdefault")
    {
        cmd.kind = Kind::SetDefault;
        if (words.size() < 2)
        {
            throw LineError{"usage: setdefault <table> <action>(<param>:<value>, ...)"};
        }
        cmd.table = std::string(words[1]);
        ParseActionCall(Trim(rest.substr(words[1].size())), cmd);
        if (!cmd.keys.empty())
        {
            throw LineError{"setdefault takes no key"};
        }
    }
    else if (keyword == "packet" || keyword == "expect")
    {
        cmd.kind = keyword == "packet" ? Kind::Packet : Kind::Expect;
        if (words.size() < 2)
        {
            throw LineError{fmt::format("usage: {} <port> <hex data>", keyword)};
        }
        cmd.port = ParsePort(words[1]);
        const std::string_view data = Trim(rest.substr(words[1].size()));
        if (cmd.kind == Kind::Packet)
        {
            cmd.data = ParseHexBytes(data);
            if (cmd.data.empty())
            {
                throw LineError{"packet without data"};
            }
        }
        else
        {
            ParseExpectData(data, cmd);
        }
    }
    else if (keyword == "wait")
    {
        cmd.kind = Kind::Wait;
        ExpectArgs(words, 0, 0, "wait");
    }
    else if (keyword == "mc_mgrp_create")
    {
        cmd.kind = Kind::McGroupCreate;
        ExpectArgs(words, 1, 1, "mc_mgrp_create <group>");
        cmd.numbers.push_back(ParseUint32(words[1], "a group id"));
    }
    else if (keyword == "mc_node_create")
    {
        cmd.kind = Kind::McNodeCreate;
        ExpectArgs(words, 1, SIZE_MAX, "mc_node_create <rid> <port> ...");
        for (size_t i = 1; i < words.size(); ++i)
        {
            if (words[i] == "|")
            {
                throw LineError{"LAG members in mc_node_create are not supported"};
            }
            cmd.numbers.push_back(i == 1 ? ParseUint32(words[i], "a replication id")
                                         : ParsePort(words[i]));
        }
    }
    else if (keyword == "mc_node_associate")
    {
        cmd.kind = Kind::McNodeAssociate;
        ExpectArgs(words, 2, 2, "mc_node_associate <group> <node handle>");
        cmd.numbers = {ParseUint32(words[1], "a group id"),
                       ParseUnsigned(words[2], "a node handle")};
    }
    else if (keyword == "mirroring_add")
    {
        cmd.kind = Kind::MirroringAdd;
        ExpectArgs(words, 2, 2, "mirroring_add <session> <port>");
        cmd.numbers = {ParseUint32(words[1], "a session id"), ParsePort(words[2])};
    }
    else if (keyword == "register_write" || keyword == "check_register")
    {
        cmd.kind = keyword == "register_write" ? Kind::RegisterWrite : Kind::CheckRegister;
        ExpectArgs(words, 3, 3, fmt::format("{} <register> <index> <value>", keyword).c_str());
        cmd.object = std::string(words[1]);
        cmd.numbers.push_back(ParseUnsigned(words[2], "an index"));
        cmd.value = ParseNumber(words[3]).value;
    }
    else if (keyword == "register_reset")
    {
        cmd.kind = Kind::RegisterReset;
        ExpectArgs(words, 1, 1, "register_reset <register>");
        cmd.object = std::string(words[1]);
    }
    else if (keyword == "check_counter")
    {
        cmd.kind = Kind::CheckCounter;
        // check_counter <name>(<index>) [packets|bytes] [<op> <value>]
        const size_t open = rest.find('(');
        const size_t close = rest.find(')');
        if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        {
            throw LineError{
                "usage: check_counter <counter>(<index>) [packets|bytes] [<op> <value>]"};
        }
        cmd.object = std::string(Trim(rest.substr(0, open)));
        const std::string_view index = Trim(rest.substr(open + 1, close - open - 1));
        cmd.numbers.push_back(ParseUnsigned(index, "an index"));
        std::vector<std::string_view> tail = Words(rest.substr(close + 1));
        size_t i = 0;
        if (i < tail.size() && (Lower(tail[i]) == "packets" || Lower(tail[i]) == "bytes"))
        {
            cmd.counterField = Lower(tail[i++]);
        }
        cmd.op = "==";
        if (i < tail.size())
        {
            static const std::set<std::string> kOps = {"==", "!=", "<", "<=", ">", ">="};
            if (i + 2 != tail.size() || kOps.count(std::string(tail[i])) == 0)
            {
                throw LineError{"expected <op> <value> with op one of == != < <= > >="};
            }
            cmd.op = std::string(tail[i]);
            cmd.value = ParseNumber(tail[i + 1]).value;
        }
    }
    else
    {
        throw LineError{fmt::format("unknown command '{}'", words[0])};
    }
    return cmd;
}

// ---------------------------------------------------------------------------- running

std::string
ToHexNibbles(const std::vector<uint8_t>& data)
{
    static const char kDigits[] = "0123456789ABCDEF";
    std::string out;
    for (const uint8_t b : data)
    {
        out.push_back(kDigits[b >> 4]);
        out.push_back(kDigits[b & 0xF]);
    }
    return out;
}

/// Nibble strings grouped into bytes, so that packets read like the STF file.
std::string
Spaced(const std::string& nibbles)
{
    std::string out;
    for (size_t i = 0; i < nibbles.size(); ++i)
    {
        if (i > 0 && i % 2 == 0)
        {
            out.push_back(' ');
        }
        out.push_back(nibbles[i]);
    }
    return out;
}

/// Empty if the packet matches; else a description with a marker line under the differences.
std::string
ComparePacket(const std::string& pattern, bool exactLength, const std::vector<uint8_t>& data)
{
    const std::string got = ToHexNibbles(data);
    const size_t n = std::max(pattern.size(), exactLength ? got.size() : pattern.size());
    std::string marks;
    bool differs = false;
    for (size_t i = 0; i < n; ++i)
    {
        bool bad;
        if (i >= pattern.size() || i >= got.size())
        {
            bad = true;  // too long (with '$') or too short
        }
        else
        {
            bad = pattern[i] != '*' && pattern[i] != got[i];
        }
        differs |= bad;
        if (i > 0 && i % 2 == 0)
        {
            marks.push_back(' ');
        }
        marks.push_back(bad ? '^' : ' ');
    }
    if (!differs)
    {
        return {};
    }
    while (!marks.empty() && marks.back() == ' ')
    {
        marks.pop_back();
    }
    std::string why;
    if (got.size() < pattern.size())
    {
        why = fmt::format(" (received {} bytes, too short)", data.size());
    }
    else if (exactLength && got.size() > pattern.size())
    {
        why = fmt::format(" (received {} bytes, expected exactly {})", data.size(),
                          (pattern.size() + 1) / 2);
    }
    return fmt::format("{}\n    expected: {}{}\n    received: {}\n              {}", why,
                       Spaced(pattern), exactLength ? " $" : "", Spaced(got), marks);
}

bool
Compare(uint64_t got, const std::string& op, uint64_t want)
{
    if (op == "==")
    {
        return got == want;
    }
    if (op == "!=")
    {
        return got != want;
    }
    if (op == "<")
    {
        return got < want;
    }
    if (op == "<=")
    {
        return got <= want;
    }
    if (op == ">")
    {
        return got > want;
    }
    return got >= want;
}

/// The match for one key field, by the field's kind, with p4c's reading of '*' digits.
MatchValue
KeyMatchFor(const StfKeyMatch& key, const KeyFieldSpec& field)
{
    const StfNumber& v = key.value;
    if (key.mask)
    {
        return MatchValue::Ternary(v.value, key.mask->value);
    }
    if (key.prefixLen)
    {
        return MatchValue::Lpm(v.value, *key.prefixLen);
    }
    switch (field.kind)
    {
    case MatchKind::Exact:
    case MatchKind::Optional:
        if (v.hasStars)
        {
            throw Error(fmt::format("field {} is {}; '*' digits are not allowed", field.name,
                                    MatchKindName(field.kind)));
        }
        return MatchValue::Exact(v.value);
    case MatchKind::Lpm:
    {
        if (!v.hasStars)
        {
            return MatchValue::Exact(v.value);
        }
        if (v.starBits != v.trailingStarBits)
        {
            throw Error(fmt::format("field {} is lpm; '*' digits must all be at the end of '{}'",
                                    field.name, v.text));
        }
        const unsigned prefix =
            field.width > v.trailingStarBits ? field.width - v.trailingStarBits : 0;
        return MatchValue::Lpm(v.value, prefix);
    }
    case MatchKind::Ternary:
        if (v.hasStars)
        {
            return MatchValue::Ternary(v.value, v.careMask);
        }
        if (v.digitBits == 0)
        {
            return MatchValue::Exact(v.value);
        }
        // As p4c: one mask bit per written bit, so 0x0a on a 32-bit field masks the low byte.
        return MatchValue::Ternary(v.value, BitString::AllOnes(std::min(v.digitBits, field.width)));
    }
    return MatchValue::Exact(v.value);
}

BitString
ArgValue(const std::string& name, const StfNumber& value)
{
    if (value.hasStars)
    {
        throw Error(fmt::format("parameter {}: '*' digits are not allowed in '{}'", name,
                                value.text));
    }
    return value.value;
}

struct Expectation
{
    int line;
    std::string pattern;
    bool exactLength;
};

struct Received
{
    int packetLine;  // the packet command that produced it (0: none yet)
    std::vector<uint8_t> data;
};

class Runner
{
  public:
    explicit Runner(StfTarget& target)
        : m_target(target),
          m_control(target.Control())
    {
    }

    StfResult Run(const StfScript& script)
    {
        for (const StfCommand& cmd : script.commands)
        {
            try
            {
                Execute(cmd);
            }
            catch (const Error& e)
            {
                Fail(cmd.line, e.what());
            }
        }
        Collect();
        CheckOutputs();
        std::stable_sort(m_result.failures.begin(), m_result.failures.end(),
                         [](const StfFailure& a, const StfFailure& b) { return a.line < b.line; });
        return std::move(m_result);
    }

  private:
    void Fail(int line, std::string message)
    {
        m_result.failures.push_back(StfFailure{line, std::move(message)});
    }

    void Collect()
    {
        for (StfOutputPacket& out : m_target.Drain())
        {
            m_received[out.port].push_back(Received{m_lastPacketLine, std::move(out.data)});
        }
    }

    void Execute(const StfCommand& cmd)
    {
        using Kind = StfCommand::Kind;
        switch (cmd.kind)
        {
        case Kind::Add:
        case Kind::SetDefault:
            ExecuteTableCommand(cmd);
            break;
        case Kind::Packet:
            m_namedPorts.insert(cmd.port);
            m_lastPacketLine = cmd.line;
            m_target.InjectPacket(cmd.port, cmd.data);
            Collect();
            break;
        case Kind::Expect:
            m_namedPorts.insert(cmd.port);
            if (cmd.pattern.empty())
            {
                m_anyPorts.emplace(cmd.port, cmd.line);
            }
            else
            {
                m_expected[cmd.port].push_back(Expectation{cmd.line, cmd.pattern, cmd.exactLength});
            }
            break;
        case Kind::Wait:
            Collect();
            break;
        case Kind::McGroupCreate:
        {
            const uint32_t group = static_cast<uint32_t>(cmd.numbers[0]);
            if (m_mcGroups.count(group))
            {
                throw Error(fmt::format("multicast group {} already exists", group));
            }
            m_control.SetMulticastGroup(group, {});
            m_mcGroups[group];
            break;
        }
        case Kind::McNodeCreate:
            m_mcNodes.push_back(McNode{static_cast<uint32_t>(cmd.numbers[0]),
                                       {cmd.numbers.begin() + 1, cmd.numbers.end()}});
            // BMv2 keeps a node's ports in a bitmap, so replicas go out in port order.
            std::sort(m_mcNodes.back().ports.begin(), m_mcNodes.back().ports.end());
            break;
        case Kind::McNodeAssociate:
        {
            const uint32_t group = static_cast<uint32_t>(cmd.numbers[0]);
            const uint64_t node = cmd.numbers[1];
            const auto it = m_mcGroups.find(group);
            if (it == m_mcGroups.end())
            {
                throw Error(fmt::format("no multicast group {} (mc_mgrp_create it first)", group));
            }
            if (node >= m_mcNodes.size())
            {
                throw Error(fmt::format("no multicast node with handle {} ({} created)", node,
                                        m_mcNodes.size()));
            }
            it->second.push_back(static_cast<size_t>(node));
            std::vector<Replica> replicas;
            for (const size_t handle : it->second)
            {
                for (const uint64_t port : m_mcNodes[handle].ports)
                {
                    replicas.push_back(Replica{static_cast<uint32_t>(port), m_mcNodes[handle].rid});
                }
            }
            m_control.SetMulticastGroup(group, std::move(replicas));
            break;
        }
        case Kind::MirroringAdd:
            m_control.SetCloneSession(static_cast<uint32_t>(cmd.numbers[0]),
                                      static_cast<uint32_t>(cmd.numbers[1]));
            break;
        case Kind::RegisterWrite:
            m_control.WriteRegister(cmd.object, cmd.numbers[0], cmd.value);
            break;
        case Kind::RegisterReset:
            m_control.GetRegister(cmd.object).Reset();
            break;
        case Kind::CheckRegister:
        {
            const BitString got = m_control.ReadRegister(cmd.object, cmd.numbers[0]);
            if (got != cmd.value)
            {
                Fail(cmd.line, fmt::format("register {}[{}] is {}, expected {}", cmd.object,
                                           cmd.numbers[0], got.ToHex(), cmd.value.ToHex()));
            }
            break;
        }
        case Kind::CheckCounter:
        {
            const CounterArray& counter = m_control.GetCounter(cmd.object);
            const bool bytes = cmd.counterField.empty() ? counter.Type() == CounterType::Bytes
                                                        : cmd.counterField == "bytes";
            const uint64_t got =
                bytes ? counter.Bytes(cmd.numbers[0]) : counter.Packets(cmd.numbers[0]);
            const uint64_t want = cmd.value.Low64();
            if (!Compare(got, cmd.op, want))
            {
                Fail(cmd.line, fmt::format("counter {}({}) {} is {}, expected {} {}", cmd.object,
                                           cmd.numbers[0], bytes ? "bytes" : "packets", got,
                                           cmd.op, want));
            }
            break;
        }
        }
    }

    void ExecuteTableCommand(const StfCommand& cmd)
    {
        const Table& table = m_control.GetTable(cmd.table);
        ActionArgs args;
        for (const auto& [name, value] : cmd.args)
        {
            args.emplace_back(name, ArgValue(name, value));
        }
        if (cmd.kind == StfCommand::Kind::SetDefault)
        {
            m_control.SetDefaultAction(cmd.table, cmd.action, args);
            return;
        }
        FieldMatches match;
        for (const StfKeyMatch& key : cmd.keys)
        {
            const KeyFieldSpec& field = table.Schema().keys[table.KeyFieldByName(key.field)];
            match.emplace_back(key.field, KeyMatchFor(key, field));
        }
        m_control.AddEntry(cmd.table, match, cmd.action, args, cmd.priority.value_or(0));
    }

    void CheckOutputs()
    {
        struct Missing
        {
            uint32_t port;
            size_t index;
            const Expectation* want;
        };
        struct Extra
        {
            uint32_t port;
            size_t index;
            const Received* got;
        };
        std::vector<Missing> missing;
        std::vector<Extra> extra;
        std::set<uint32_t> ports;
        for (const auto& [port, list] : m_expected)
        {
            ports.insert(port);
        }
        // As p4c's runner, which opens an interface only for the ports the script names: what
        // leaves by any other port is not seen.
        for (const auto& [port, list] : m_received)
        {
            if (m_namedPorts.count(port))
            {
                ports.insert(port);
            }
        }
        for (const uint32_t port : ports)
        {
            const auto any = m_anyPorts.find(port);
            const std::vector<Expectation>& want = m_expected[port];
            const std::vector<Received>& got = m_received[port];
            if (any != m_anyPorts.end())
            {
                if (!want.empty())
                {
                    Fail(any->second, fmt::format("port {} has both 'expect {}' with no data "
                                                  "(any packets) and expected packets",
                                                  port, port));
                }
                continue;
            }
            const size_t common = std::min(want.size(), got.size());
            for (size_t i = 0; i < common; ++i)
            {
                const std::string diff = ComparePacket(want[i].pattern, want[i].exactLength,
                                                       got[i].data);
                if (!diff.empty())
                {
                    Fail(want[i].line,
                         fmt::format("port {}: packet {} of {} ({}) does not match{}", port, i + 1,
                                     got.size(), Origin(got[i]), diff));
                }
            }
            for (size_t i = common; i < want.size(); ++i)
            {
                missing.push_back({port, i, &want[i]});
            }
            for (size_t i = common; i < got.size(); ++i)
            {
                extra.push_back({port, i, &got[i]});
            }
        }
        for (const Missing& m : missing)
        {
            // A packet that went to the wrong port shows up as one missing and one extra;
            // say so, since that is the likely bug.
            std::string hint;
            for (const auto& [port, got] : m_received)
            {
                const bool unexpected = !m_namedPorts.count(port) ||
                                        got.size() > m_expected[port].size();
                for (size_t i = 0; unexpected && port != m.port && i < got.size() && hint.empty();
                     ++i)
                {
                    if (ComparePacket(m.want->pattern, m.want->exactLength, got[i].data).empty())
                    {
                        hint = fmt::format(" (a matching packet came out on port {} instead)",
                                           port);
                    }
                }
            }
            Fail(m.want->line,
                 fmt::format("port {}: expected packet {} was not received{} (port {} emitted {} "
                             "packet(s))\n    expected: {}",
                             m.port, m.index + 1, hint, m.port, m_received[m.port].size(),
                             Spaced(m.want->pattern)));
        }
        for (const Extra& x : extra)
        {
            Fail(x.got->packetLine,
                 fmt::format("port {}: unexpected packet {} ({}); {} expected on this port\n"
                             "    received: {}",
                             x.port, x.index + 1, Origin(*x.got), m_expected[x.port].size(),
                             Spaced(ToHexNibbles(x.got->data))));
        }
    }

    static std::string Origin(const Received& r)
    {
        return r.packetLine > 0 ? fmt::format("from the packet at line {}", r.packetLine)
                                : std::string("emitted before any packet");
    }

    struct McNode
    {
        uint32_t rid;
        std::vector<uint64_t> ports;
    };

    StfTarget& m_target;
    ControlPlane& m_control;
    StfResult m_result;
    int m_lastPacketLine = 0;
    std::map<uint32_t, std::vector<Expectation>> m_expected;
    std::map<uint32_t, int> m_anyPorts;
    /// The ports a `packet` or `expect` line names.
    std::set<uint32_t> m_namedPorts;
    std::map<uint32_t, std::vector<Received>> m_received;
    std::vector<McNode> m_mcNodes;
    std::map<uint32_t, std::vector<size_t>> m_mcGroups;
};

} // namespace

StfScript
ParseStf(const std::string& text, const std::string& fileName)
{
    StfScript script;
    script.fileName = fileName;
    std::vector<std::string> errors;
    std::istringstream in(text);
    std::string raw;
    int lineNo = 0;
    while (std::getline(in, raw))
    {
        ++lineNo;
        std::string_view line = raw;
        const size_t hash = line.find('#');
        if (hash != std::string_view::npos)
        {
            line = line.substr(0, hash);
        }
        line = Trim(line);
        if (line.empty())
        {
            continue;
        }
        try
        {
            script.commands.push_back(ParseLine(line, lineNo));
        }
        catch (const LineError& e)
        {
            errors.push_back(fmt::format("{}:{}: {}", fileName, lineNo, e.message));
        }
        catch (const Error& e)
        {
            errors.push_back(fmt::format("{}:{}: {}", fileName, lineNo, e.what()));
        }
    }
    if (!errors.empty())
    {
        std::string all;
        for (const std::string& e : errors)
        {
            all += (all.empty() ? "" : "\n") + e;
        }
        throw Error(all);
    }
    return script;
}

StfScript
ParseStfFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw Error(fmt::format("{}: cannot open", path));
    }
    std::stringstream text;
    text << in.rdbuf();
    return ParseStf(text.str(), path);
}

std::string
StfResult::Report(const std::string& fileName) const
{
    std::string out;
    for (const StfFailure& f : failures)
    {
        if (f.line > 0)
        {
            out += fmt::format("{}:{}: {}\n", fileName, f.line, f.message);
        }
        else
        {
            out += fmt::format("{}: {}\n", fileName, f.message);
        }
    }
    return out;
}

StfResult
RunStf(const StfScript& script, StfTarget& target)
{
    return Runner(target).Run(script);
}

} // namespace incsim::p4rt
