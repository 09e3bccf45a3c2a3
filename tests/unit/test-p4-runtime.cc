// The P4 runtime that generated pipelines link against: bit helpers, tables, externs, the
// control plane by name, the entries file, and the STF parser and runner.

#include "p4/runtime/bits.h"
#include "p4/runtime/control-plane.h"
#include "p4/runtime/entries-file.h"
#include "p4/runtime/error.h"
#include "p4/runtime/externs.h"
#include "p4/runtime/stf.h"
#include "p4/runtime/table.h"
#include "p4/runtime/value-parse.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace incsim::p4rt;

namespace
{

// ------------------------------------------------------------------ references and helpers

bool
RefBit(const uint8_t* buf, size_t bit)
{
    return (buf[bit / 8] >> (7 - bit % 8)) & 1;
}

uint64_t
RefExtract(const uint8_t* buf, size_t offset, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i)
    {
        v = (v << 1) | (RefBit(buf, offset + i) ? 1 : 0);
    }
    return v;
}

void
RefInsert(uint8_t* buf, size_t offset, unsigned width, uint64_t value)
{
    for (unsigned i = 0; i < width; ++i)
    {
        const size_t bit = offset + i;
        const bool on = (value >> (width - 1 - i)) & 1;
        const uint8_t m = static_cast<uint8_t>(0x80 >> (bit % 8));
        buf[bit / 8] = on ? (buf[bit / 8] | m) : (buf[bit / 8] & ~m);
    }
}

std::vector<uint8_t>
Bytes(std::initializer_list<int> values)
{
    std::vector<uint8_t> out;
    for (const int v : values)
    {
        out.push_back(static_cast<uint8_t>(v));
    }
    return out;
}

std::vector<uint8_t>
Ascii(const char* text)
{
    return std::vector<uint8_t>(text, text + std::strlen(text));
}

/// Throws and the message contains every one of `parts`.
template <typename F>
void
CheckThrowsWith(F&& f, std::initializer_list<const char*> parts)
{
    try
    {
        f();
    }
    catch (const Error& e)
    {
        const std::string what = e.what();
        INFO(what);
        for (const char* part : parts)
        {
            CHECK(what.find(part) != std::string::npos);
        }
        return;
    }
    FAIL("expected an Error");
}

ActionSpec
Action(ActionId id, std::string name, std::vector<ActionParamSpec> params = {},
       ActionScope scope = ActionScope::TableAndDefault)
{
    ActionSpec a;
    a.id = id;
    a.name = std::move(name);
    a.params = std::move(params);
    a.scope = scope;
    return a;
}

TableSchema
Schema(std::string name, std::vector<KeyFieldSpec> keys, size_t size = 1 << 16)
{
    TableSchema s;
    s.name = std::move(name);
    s.keys = std::move(keys);
    s.actions = {Action(1, "MyIngress.hit", {{"value", 32}}), Action(2, "NoAction")};
    s.defaultAction = 2;
    s.size = size;
    return s;
}

void
Pack32(uint8_t* out, uint32_t v)
{
    StoreBigEndian(out, v, 4);
}

} // namespace

// ------------------------------------------------------------------------------- bits

TEST_CASE("width masks, truncation and sign extension", "[p4][runtime]")
{
    CHECK(WidthMask(0) == 0);
    CHECK(WidthMask(1) == 1);
    CHECK(WidthMask(9) == 0x1FF);
    CHECK(WidthMask(64) == ~uint64_t{0});
    CHECK(Truncate(0x1FF, 8) == 0xFF);
    CHECK(SignExtend(0xFF, 8) == -1);
    CHECK(SignExtend(0x7F, 8) == 127);
    CHECK(SignExtend(0x10, 5) == -16);
    CHECK(SignExtend(~uint64_t{0}, 64) == -1);
    CHECK(FromSigned(-1, 12) == 0xFFF);
    CHECK(FromSigned(-3, 4) == 0xD);
}

TEST_CASE("bit extract and insert at odd offsets match a bit-by-bit reference", "[p4][runtime]")
{
    std::mt19937_64 rng(7);
    uint8_t buf[24];
    for (int trial = 0; trial < 20000; ++trial)
    {
        for (uint8_t& b : buf)
        {
            b = static_cast<uint8_t>(rng());
        }
        const unsigned width = 1 + static_cast<unsigned>(rng() % 64);
        const size_t offset = rng() % (sizeof(buf) * 8 - width + 1);
        INFO("offset " << offset << " width " << width);
        REQUIRE(ExtractBits(buf, offset, width) == RefExtract(buf, offset, width));

        const uint64_t value = rng();
        uint8_t mine[24];
        uint8_t ref[24];
        std::memcpy(mine, buf, sizeof(buf));
        std::memcpy(ref, buf, sizeof(buf));
        InsertBits(mine, offset, width, value);
        RefInsert(ref, offset, width, value & WidthMask(width));
        REQUIRE(std::memcmp(mine, ref, sizeof(buf)) == 0);
    }
}

TEST_CASE("bit helpers read only the bytes that hold the field", "[p4][runtime]")
{
    // A 3-byte buffer: a 9-bit field at bit 15 ends in the last byte and must not read past it.
    const uint8_t buf[3] = {0x00, 0x01, 0xFF};
    CHECK(ExtractBits(buf, 15, 9) == 0x1FF);
    CHECK(ExtractBitsAt<15, 9>(buf) == 0x1FF);
    uint8_t out[3] = {0xAA, 0xAA, 0xAA};
    InsertBitsAt<4, 12>(out, 0x123);
    CHECK(out[0] == 0xA1);
    CHECK(out[1] == 0x23);
    CHECK(out[2] == 0xAA);
    // A 64-bit field straddling nine bytes.
    uint8_t nine[9] = {};
    InsertBits(nine, 3, 64, 0xFEDCBA9876543210ull);
    CHECK(ExtractBits(nine, 3, 64) == 0xFEDCBA9876543210ull);
    CHECK(nine[0] == 0x1F);
}

TEST_CASE("WideBits: hex, extract and insert at odd offsets", "[p4][runtime]")
{
    const auto v = WideBits<128>::FromHex("0x20010db8000000000000000000000001");
    REQUIRE(v.has_value());
    CHECK(v->ToHex() == "0x20010db8000000000000000000000001");
    CHECK(v->Low64() == 1);
    CHECK_FALSE(WideBits<100>::FromHex("0x10000000000000000000000000").has_value()); // 101 bits
    CHECK(WideBits<100>::FromHex("0xfffffffffffffffffffffffff").has_value());
    CHECK_FALSE(WideBits<72>::FromHex("0xg1").has_value());

    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 200; ++trial)
    {
        uint8_t buf[40];
        for (uint8_t& b : buf)
        {
            b = static_cast<uint8_t>(rng());
        }
        const size_t offset = rng() % 100;
        const auto w = WideBits<123>::Extract(buf, offset);
        for (unsigned i = 0; i < 123; ++i)
        {
            const size_t fromLsb = 122 - i;
            const bool bit =
                (w.Bytes()[WideBits<123>::kBytes - 1 - fromLsb / 8] >> (fromLsb % 8)) & 1;
            REQUIRE(bit == RefBit(buf, offset + i));
        }
        uint8_t copy[40];
        std::memcpy(copy, buf, sizeof(buf));
        const auto other = WideBits<123>::FromUint64(rng()) ^ ~WideBits<123>();
        other.Insert(copy, offset);
        REQUIRE(WideBits<123>::Extract(copy, offset) == other);
        for (size_t bit = 0; bit < sizeof(buf) * 8; ++bit)
        {
            if (bit < offset || bit >= offset + 123)
            {
                REQUIRE(RefBit(copy, bit) == RefBit(buf, bit));
            }
        }
    }
    const uint64_t words[2] = {0x2001, 0x5};
    CHECK(WideBits<128>::FromWords(words).ToHex() == "0x00000000000020010000000000000005");
}

TEST_CASE("values parse from decimal, hex, binary, IPv4, MAC and IPv6", "[p4][runtime]")
{
    CHECK(ParseValue("42")->Low64() == 42);
    CHECK(ParseValue("0x1F")->Low64() == 0x1F);
    CHECK(ParseValue("0b101")->Low64() == 5);
    CHECK(ParseValue("10.0.0.1")->Low64() == 0x0A000001);
    CHECK(ParseValue("aa:bb:cc:dd:ee:ff")->Low64() == 0xAABBCCDDEEFFull);
    CHECK(ParseValue("340282366920938463463374607431768211455")->BitLength() == 128);
    CHECK(ParseValue("2001:db8::1")->ToHex() == "0x20010db8000000000000000000000001");
    CHECK(ParseValue("::")->IsZero());
    for (const char* bad : {"", "0x", "10.0.0", "256.0.0.1", "1::2::3", "12ab", "0b102", "-1"})
    {
        INFO(bad);
        CHECK_FALSE(ParseValue(bad).has_value());
    }
    CHECK(ParseMatchValue("10.0.0.0/8") == MatchValue::Lpm(0x0A000000, 8));
    CHECK(ParseMatchValue("0x800&&&0xf00") == MatchValue::Ternary(0x800, 0xF00));
    CHECK(ParseMatchValue("*") == MatchValue::Wildcard());
    CHECK(ParseMatchValue("7") == MatchValue::Exact(7));
}

// ------------------------------------------------------------------------------ externs

TEST_CASE("hash functions reproduce BMv2's algorithms", "[p4][runtime]")
{
    const auto check = Ascii("123456789");
    CHECK(Crc32(check.data(), check.size()) == 0xCBF43926u);
    CHECK(Crc16(check.data(), check.size()) == 0xBB3D);
    CHECK(Xor16(check.data(), check.size()) == 0x3908);
    CHECK(IdentityHash(check.data(), 3) == 0x313233);
    CHECK(IdentityHash(check.data(), check.size()) == 0x3132333435363738ull);
    const auto ipv4 = Bytes({0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                             0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7});
    CHECK(Csum16(ipv4.data(), ipv4.size()) == 0xB861);
    const auto odd = Bytes({1, 2, 3, 4, 5});
    CHECK(Csum16(odd.data(), odd.size()) == 0xF6F9);
    CHECK(ComputeHash(HashAlgorithm::Crc32Custom, check.data(), check.size()) == 0xCBF43926u);
    CHECK(ReduceHash(ComputeHash(HashAlgorithm::Crc16, check.data(), check.size()), 100, 10) ==
          100 + 0xBB3D % 10);
    CHECK(ReduceHash(ComputeHash(HashAlgorithm::Identity, check.data(), 2), 1, 0) == 1 + 0x3132);
    // Reduction in 64 bits when the operands need it.
    CHECK(ReduceHash(0x1'0000'0005ull, 0, 0x1'0000'0000ull) == 5);
    CHECK(ReduceHash(0xFFFF'FFFFull, 0, 0xFFFF'FFFFull) == 0);
}

TEST_CASE("registers and counters ignore out-of-range indices like BMv2", "[p4][runtime]")
{
    RegisterArray reg("MyIngress.r", 4, 12);
    reg.Write(1, 0xFFFF);
    CHECK(reg.Read(1) == 0xFFF);
    uint64_t out = 77;
    reg.Read(9, out);
    CHECK(out == 77); // unchanged
    reg.Write(9, 1);
    CHECK(reg.OutOfRange() == 2);
    CHECK(reg.ReadValue(1) == BitString(0xFFF));
    CHECK_THROWS_AS(reg.WriteValue(0, 0x1000), Error);
    CHECK_THROWS_AS(reg.ReadValue(4), Error);
    reg.Reset();
    CHECK(reg.Read(1) == 0);

    WideRegisterArray<128> wide("MyIngress.w", 2);
    wide.WriteValue(1, *ParseValue("2001:db8::1"));
    CHECK(wide.ReadValue(1).ToHex() == "0x20010db8000000000000000000000001");

    CounterArray counter("MyIngress.c", 2, CounterType::PacketsAndBytes);
    counter.Count(0, 100);
    counter.Count(0, 50);
    counter.Count(5, 1);
    CHECK(counter.Packets(0) == 2);
    CHECK(counter.Bytes(0) == 150);
    CHECK(counter.OutOfRange() == 1);
}

// ------------------------------------------------------------------------------- tables

TEST_CASE("exact tables match a reference map through adds, deletes and modifies", "[p4][runtime]")
{
    Table table(Schema("MyIngress.exact", {{"hdr.ipv4.dstAddr", 32, MatchKind::Exact},
                                           {"hdr.udp.dstPort", 16, MatchKind::Exact}}));
    REQUIRE(table.KeyBytes() == 6);
    std::mt19937_64 rng(11);
    std::map<std::pair<uint32_t, uint16_t>, uint32_t> ref;
    while (ref.size() < 10000)
    {
        const uint32_t addr = static_cast<uint32_t>(rng() % 50000);
        const uint16_t port = static_cast<uint16_t>(rng() % 4);
        if (ref.emplace(std::make_pair(addr, port), static_cast<uint32_t>(rng())).second)
        {
            table.Add({MatchValue::Exact(addr), MatchValue::Exact(port)}, 1, {ref[{addr, port}]});
        }
    }
    CHECK(table.Size() == 10000);

    const auto verify = [&] {
        for (int i = 0; i < 10000; ++i)
        {
            const uint32_t addr = static_cast<uint32_t>(rng() % 50000);
            const uint16_t port = static_cast<uint16_t>(rng() % 4);
            uint8_t key[6];
            Pack32(key, addr);
            StoreBigEndian(key + 4, port, 2);
            const TableEntry* e = table.Lookup(key);
            const auto it = ref.find({addr, port});
            REQUIRE(e != nullptr);
            REQUIRE(e->hit == (it != ref.end()));
            if (it != ref.end())
            {
                REQUIRE(e->action == 1);
                REQUIRE(e->args[0] == it->second);
            }
            else
            {
                REQUIRE(e->action == 2);
            }
        }
    };
    verify();

    // Delete every other entry and modify a few, then check again.
    int n = 0;
    for (auto it = ref.begin(); it != ref.end();)
    {
        const std::vector<MatchValue> key = {MatchValue::Exact(it->first.first),
                                             MatchValue::Exact(it->first.second)};
        if (n++ % 2 == 0)
        {
            table.Delete(key);
            it = ref.erase(it);
        }
        else
        {
            if (n % 7 == 0)
            {
                it->second = 12345;
                table.Modify(key, 1, {12345});
            }
            ++it;
        }
    }
    CHECK(table.Size() == ref.size());
    verify();
    table.Clear();
    CHECK(table.Size() == 0);
    uint8_t key[6] = {};
    CHECK_FALSE(table.Lookup(key)->hit);
}

namespace
{

struct RefEntry
{
    std::vector<uint8_t> value;
    std::vector<uint8_t> mask;
    int32_t priority;
    unsigned prefix;
    uint64_t order;
    uint32_t arg;
    bool live = true;
};

/// The brute-force answer: every matching entry, best by (priority, prefix, age).
const RefEntry*
RefLookup(const std::vector<RefEntry>& entries, const uint8_t* key)
{
    const RefEntry* best = nullptr;
    for (const RefEntry& e : entries)
    {
        if (!e.live)
        {
            continue;
        }
        bool match = true;
        for (size_t i = 0; i < e.value.size() && match; ++i)
        {
            match = (key[i] & e.mask[i]) == e.value[i];
        }
        if (!match)
        {
            continue;
        }
        if (best == nullptr || e.priority > best->priority ||
            (e.priority == best->priority &&
             (e.prefix > best->prefix || (e.prefix == best->prefix && e.order < best->order))))
        {
            best = &e;
        }
    }
    return best;
}

std::vector<uint8_t>
PrefixMask32(unsigned len)
{
    const uint32_t m = len == 0 ? 0 : ~uint32_t{0} << (32 - len);
    return Bytes({int(m >> 24), int((m >> 16) & 0xFF), int((m >> 8) & 0xFF), int(m & 0xFF)});
}

/// A key near some entry (so that lookups hit often), or random.
std::vector<uint8_t>
ProbeKey(std::mt19937_64& rng, const std::vector<RefEntry>& entries, size_t keyBytes)
{
    std::vector<uint8_t> key(keyBytes);
    for (uint8_t& b : key)
    {
        b = static_cast<uint8_t>(rng());
    }
    if (!entries.empty() && rng() % 4 != 0)
    {
        const RefEntry& e = entries[rng() % entries.size()];
        for (size_t i = 0; i < keyBytes; ++i)
        {
            key[i] = static_cast<uint8_t>((key[i] & ~e.mask[i]) | e.value[i]);
        }
    }
    return key;
}

void
CheckAgainstReference(const Table& table, const std::vector<RefEntry>& entries,
                      std::mt19937_64& rng, int lookups)
{
    for (int i = 0; i < lookups; ++i)
    {
        const std::vector<uint8_t> key = ProbeKey(rng, entries, table.KeyBytes());
        const TableEntry* got = table.Lookup(key.data());
        const RefEntry* want = RefLookup(entries, key.data());
        REQUIRE(got->hit == (want != nullptr));
        if (want != nullptr)
        {
            REQUIRE(got->args[0] == want->arg);
        }
    }
}

} // namespace

TEST_CASE("lpm tables match brute force on random prefixes", "[p4][runtime]")
{
    Table table(Schema("MyIngress.routes", {{"meta.vrf", 8, MatchKind::Exact},
                                            {"hdr.ipv4.dstAddr", 32, MatchKind::Lpm}}));
    std::mt19937_64 rng(5);
    std::vector<RefEntry> ref;
    std::map<std::pair<std::vector<uint8_t>, std::vector<uint8_t>>, bool> seen;
    while (ref.size() < 2000)
    {
        const unsigned len = static_cast<unsigned>(rng() % 33);
        const uint8_t vrf = static_cast<uint8_t>(rng() % 3);
        const uint32_t addr = static_cast<uint32_t>(rng()) & (len ? ~uint32_t{0} << (32 - len) : 0);
        RefEntry e;
        e.mask = PrefixMask32(len);
        e.mask.insert(e.mask.begin(), 0xFF);
        e.value = Bytes({vrf, int(addr >> 24), int((addr >> 16) & 0xFF), int((addr >> 8) & 0xFF),
                         int(addr & 0xFF)});
        if (!seen.emplace(std::make_pair(e.value, e.mask), true).second)
        {
            continue;
        }
        e.priority = 0;
        e.prefix = len;
        e.order = ref.size();
        e.arg = static_cast<uint32_t>(ref.size());
        table.Add({MatchValue::Exact(vrf), MatchValue::Lpm(addr, len)}, 1, {e.arg});
        ref.push_back(e);
    }
    CheckAgainstReference(table, ref, rng, 10000);

    for (size_t i = 0; i < ref.size(); i += 3)
    {
        const uint32_t addr = static_cast<uint32_t>(LoadBigEndian(&ref[i].value[1], 4));
        table.Delete({MatchValue::Exact(ref[i].value[0]), MatchValue::Lpm(addr, ref[i].prefix)});
        ref[i].live = false;
    }
    CheckAgainstReference(table, ref, rng, 10000);
}

TEST_CASE("ternary tables match brute force, with lpm and priorities mixed in", "[p4][runtime]")
{
    Table table(Schema("MyIngress.acl", {{"hdr.ipv4.srcAddr", 32, MatchKind::Ternary},
                                         {"hdr.ipv4.dstAddr", 32, MatchKind::Lpm},
                                         {"hdr.ipv4.protocol", 8, MatchKind::Optional}}));
    std::mt19937_64 rng(9);
    // Masks come from a small pool so that groups hold many entries; priorities repeat so
    // that ties fall through to the prefix length and then to the order of insertion.
    std::vector<uint32_t> maskPool;
    for (int i = 0; i < 24; ++i)
    {
        maskPool.push_back(static_cast<uint32_t>(rng()) & static_cast<uint32_t>(rng()));
    }
    maskPool.push_back(0);
    maskPool.push_back(~uint32_t{0});

    std::vector<RefEntry> ref;
    std::map<std::tuple<std::vector<uint8_t>, std::vector<uint8_t>, int32_t>, bool> seen;
    while (ref.size() < 2000)
    {
        const uint32_t mask = maskPool[rng() % maskPool.size()];
        const uint32_t src = static_cast<uint32_t>(rng() % 8) * 0x01010101u & mask;
        const unsigned len = static_cast<unsigned>(rng() % 4) * 8;
        const uint32_t dst =
            (static_cast<uint32_t>(rng() % 4) << 24) & (len ? ~uint32_t{0} << (32 - len) : 0);
        const bool anyProto = rng() % 2 == 0;
        const uint8_t proto = anyProto ? 0 : static_cast<uint8_t>(6 + 11 * (rng() % 2));
        const int32_t priority = static_cast<int32_t>(rng() % 20);

        RefEntry e;
        e.value = Bytes({int(src >> 24), int((src >> 16) & 0xFF), int((src >> 8) & 0xFF),
                         int(src & 0xFF), int(dst >> 24), int((dst >> 16) & 0xFF),
                         int((dst >> 8) & 0xFF), int(dst & 0xFF), proto});
        e.mask = Bytes(
            {int(mask >> 24), int((mask >> 16) & 0xFF), int((mask >> 8) & 0xFF), int(mask & 0xFF)});
        const auto pm = PrefixMask32(len);
        e.mask.insert(e.mask.end(), pm.begin(), pm.end());
        e.mask.push_back(anyProto ? 0 : 0xFF);
        if (!seen.emplace(std::make_tuple(e.value, e.mask, priority), true).second)
        {
            continue;
        }
        e.priority = priority;
        e.prefix = len;
        e.order = ref.size();
        e.arg = static_cast<uint32_t>(ref.size());
        table.Add({MatchValue::Ternary(src, mask), MatchValue::Lpm(dst, len),
                   anyProto ? MatchValue::Wildcard() : MatchValue::Exact(proto)},
                  1, {e.arg}, priority);
        ref.push_back(e);
    }
    CheckAgainstReference(table, ref, rng, 10000);

    std::vector<size_t> order(ref.size());
    for (size_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t k = 0; k < order.size() / 2; ++k)
    {
        RefEntry& e = ref[order[k]];
        const uint32_t src = static_cast<uint32_t>(LoadBigEndian(&e.value[0], 4));
        const uint32_t mask = static_cast<uint32_t>(LoadBigEndian(&e.mask[0], 4));
        const uint32_t dst = static_cast<uint32_t>(LoadBigEndian(&e.value[4], 4));
        table.Delete({MatchValue::Ternary(src, mask), MatchValue::Lpm(dst, e.prefix),
                      e.mask[8] ? MatchValue::Exact(e.value[8]) : MatchValue::Wildcard()},
                     e.priority);
        e.live = false;
    }
    CHECK(table.Size() == ref.size() - order.size() / 2);
    CheckAgainstReference(table, ref, rng, 10000);
}

TEST_CASE("ternary priority: higher wins, then longer prefix, then first added", "[p4][runtime]")
{
    Table table(Schema("MyIngress.acl", {{"hdr.ipv4.dstAddr", 32, MatchKind::Lpm},
                                         {"hdr.ipv4.protocol", 8, MatchKind::Ternary}}));
    uint8_t key[5];
    Pack32(key, 0x0A010203);
    key[4] = 6;

    table.Add({MatchValue::Lpm(0x0A000000, 8), MatchValue::Wildcard()}, 1, {1}, 10);
    CHECK(table.Lookup(key)->args[0] == 1);
    // Lower priority loses even with a longer prefix and an exact protocol.
    table.Add({MatchValue::Lpm(0x0A010200, 24), MatchValue::Exact(6)}, 1, {2}, 5);
    CHECK(table.Lookup(key)->args[0] == 1);
    // Equal priority: the longer prefix wins.
    table.Add({MatchValue::Lpm(0x0A010000, 16), MatchValue::Wildcard()}, 1, {3}, 10);
    CHECK(table.Lookup(key)->args[0] == 3);
    // Same key, higher priority: a distinct entry, and it wins.
    table.Add({MatchValue::Lpm(0x0A000000, 8), MatchValue::Wildcard()}, 1, {4}, 11);
    CHECK(table.Lookup(key)->args[0] == 4);
    // Equal priority and prefix: the one added first wins.
    table.Add({MatchValue::Lpm(0x0A000000, 8), MatchValue::Ternary(6, 0xFF)}, 1, {5}, 11);
    CHECK(table.Lookup(key)->args[0] == 4);
    table.Delete({MatchValue::Lpm(0x0A000000, 8), MatchValue::Wildcard()}, 11);
    CHECK(table.Lookup(key)->args[0] == 5);
    key[4] = 17;
    CHECK(table.Lookup(key)->args[0] == 3);
}

TEST_CASE("exact and lpm tables ignore priorities", "[p4][runtime]")
{
    Table table(Schema("t", {{"f", 8, MatchKind::Lpm}}));
    table.Add({MatchValue::Lpm(0x80, 1)}, 1, {1}, 100);
    table.Add({MatchValue::Lpm(0xC0, 2)}, 1, {2}, 1);
    const uint8_t key = 0xC1;
    CHECK(table.Lookup(&key)->args[0] == 2);
    CHECK_THROWS_AS(table.Add({MatchValue::Lpm(0x80, 1)}, 1, {9}, 5), Error); // duplicate
    CHECK(table.Entries().front().priority == 0);
}

TEST_CASE("table entry errors name the table, field, action or parameter", "[p4][runtime]")
{
    TableSchema schema =
        Schema("MyIngress.fib",
               {{"hdr.ipv4.dstAddr", 32, MatchKind::Lpm}, {"meta.port", 9, MatchKind::Exact}}, 2);
    schema.actions.push_back(Action(3, "MyIngress.only_default", {}, ActionScope::DefaultOnly));
    Table table(schema);
    const auto key = [](uint64_t addr, unsigned len, uint64_t port) {
        return std::vector<MatchValue>{MatchValue::Lpm(addr, len), MatchValue::Exact(port)};
    };

    table.Add(key(0x0A000000, 8, 1), 1, {7});
    CheckThrowsWith([&] { table.Add(key(0x0A000000, 8, 1), 1, {8}); },
                    {"table MyIngress.fib", "duplicate entry"});
    CheckThrowsWith([&] { table.Add({MatchValue::Lpm(0x0A000000, 8)}, 1, {8}); },
                    {"expected 2 key field(s)", "hdr.ipv4.dstAddr, meta.port"});
    CheckThrowsWith([&] { table.Add(key(0x0A000000, 8, 512), 1, {8}); },
                    {"field meta.port", "0x200 is wider than the field"});
    CheckThrowsWith([&] { table.Add(key(0x0A000000, 33, 1), 1, {8}); },
                    {"hdr.ipv4.dstAddr", "prefix length 33 exceeds"});
    CheckThrowsWith([&] { table.Add(key(0x0A000001, 8, 2), 1, {8}); },
                    {"hdr.ipv4.dstAddr", "outside the /8 prefix"});
    CheckThrowsWith(
        [&] {
            table.Add({MatchValue::Ternary(0, 0), MatchValue::Exact(1)}, 1, {8});
        },
        {"hdr.ipv4.dstAddr", "a ternary match is not allowed"});
    CheckThrowsWith(
        [&] {
            table.Add({MatchValue::Lpm(0, 0), MatchValue::Wildcard()}, 1, {8});
        },
        {"meta.port", "a wildcard match is not allowed"});
    CheckThrowsWith([&] { table.Add(key(0x0B000000, 8, 1), 3, {}); },
                    {"MyIngress.only_default", "@defaultonly"});
    CheckThrowsWith([&] { table.Add(key(0x0B000000, 8, 1), 1, {}); },
                    {"action MyIngress.hit takes 1 parameter(s) (value), got 0"});
    CheckThrowsWith([&] { table.Add(key(0x0B000000, 8, 1), 1, {uint64_t{1} << 32}); },
                    {"parameter value", "wider than 32 bits"});
    CheckThrowsWith([&] { table.Add(key(0x0B000000, 8, 1), 9, {}); }, {"action id 9"});
    table.Add(key(0x0B000000, 8, 1), 1, {8});
    CheckThrowsWith([&] { table.Add(key(0x0C000000, 8, 1), 1, {9}); }, {"table full (2 entries)"});
    CheckThrowsWith([&] { table.Delete(key(0x0D000000, 8, 1)); }, {"no entry"});
    CHECK(table.Size() == 2);

    try
    {
        table.Add(key(0x0A000000, 8, 600), 1, {1});
    }
    catch (const Error& e)
    {
        CHECK(e.Where() == "match/meta.port");
    }

    TableSchema bad = Schema("MyIngress.bad", {{"a", 8, MatchKind::Lpm}, {"b", 8, MatchKind::Lpm}});
    CheckThrowsWith([&] { Table t(bad); }, {"MyIngress.bad", "more than one lpm"});
}

TEST_CASE("default actions, const defaults and const entries", "[p4][runtime]")
{
    TableSchema schema = Schema("MyIngress.t", {{"f", 8, MatchKind::Ternary}});
    schema.defaultAction = 1;
    schema.defaultArgs = {99};
    Table table(schema);
    const uint8_t key = 3;
    CHECK_FALSE(table.Lookup(&key)->hit);
    CHECK(table.Lookup(&key)->args[0] == 99);
    table.SetDefault(2, {});
    CHECK(table.Lookup(&key)->action == 2);
    table.ResetDefault();
    CHECK(table.Lookup(&key)->action == 1);

    schema.defaultIsConst = true;
    schema.entriesAreConst = true;
    // Unprioritized const entries rank by their order: the first listed wins.
    schema.entries = {{{MatchValue::Ternary(0, 0)}, 1, {1}, std::nullopt},
                      {{MatchValue::Exact(3)}, 1, {2}, std::nullopt}};
    Table constant(schema);
    CHECK(constant.Lookup(&key)->args[0] == 1);
    CheckThrowsWith([&] { constant.SetDefault(2, {}); }, {"default action is const"});
    CheckThrowsWith([&] { constant.Add({MatchValue::Exact(4)}, 1, {1}); }, {"const"});
    CheckThrowsWith([&] { constant.Clear(); }, {"const"});
    const auto entries = constant.Entries();
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].key[0] == MatchValue::Ternary(0, 0));
    CHECK(entries[1].key[0] == MatchValue::Ternary(3, 0xFF));
    CHECK(entries[0].priority == 2);
}

TEST_CASE("wide key fields and wide action parameters", "[p4][runtime]")
{
    TableSchema schema;
    schema.name = "MyIngress.v6";
    schema.keys = {{"hdr.ipv6.dstAddr", 128, MatchKind::Lpm}};
    schema.actions = {Action(1, "set", {{"port", 9}, {"nexthop", 128}}), Action(2, "drop")};
    schema.defaultAction = 2;
    Table table(schema);
    table.Add({MatchValue::Lpm(*ParseValue("2001:db8::"), 32)}, 1, {3, *ParseValue("fe80::1")});
    const auto addr = WideBits<128>::FromHex("0x20010db8000000000000000000000042");
    const TableEntry* e = table.Lookup(addr->Bytes());
    REQUIRE(e->hit);
    CHECK(e->args[table.ParamWordOffset(1, 0)] == 3);
    CHECK(table.ParamWordOffset(1, 1) == 1);
    CHECK(WideBits<128>::FromWords(&e->args[1]).ToHex() == "0xfe800000000000000000000000000001");
    CHECK(table.Entries()[0].args[1] == *ParseValue("fe80::1"));
}

// ------------------------------------------------------------------------ control plane

namespace
{

/// A small program instance: the tables and externs a generated pipeline would own.
struct TestProgram
{
    TestProgram()
        : fib(FibSchema()),
          acl(AclSchema()),
          egressAcl(EgressAclSchema()),
          lastLen("MyIngress.last_len", 512, 32),
          seen("MyIngress.seen", 512, CounterType::PacketsAndBytes)
    {
        control.RegisterTable(fib);
        control.RegisterTable(acl);
        control.RegisterTable(egressAcl);
        control.RegisterRegister(lastLen);
        control.RegisterCounter(seen);
    }

    static TableSchema FibSchema()
    {
        TableSchema s;
        s.name = "MyIngress.ipv4_lpm";
        s.keys = {{"hdr.ipv4.dstAddr", 32, MatchKind::Lpm}};
        s.actions = {Action(1, "MyIngress.set_nhop", {{"port", 9}, {"dmac", 48}}),
                     Action(2, "MyIngress.drop")};
        s.defaultAction = 2;
        return s;
    }

    static TableSchema AclSchema()
    {
        TableSchema s;
        s.name = "MyIngress.acl";
        s.keys = {{"hdr.ipv4.srcAddr", 32, MatchKind::Ternary},
                  {"hdr.ipv4.protocol", 8, MatchKind::Exact}};
        s.actions = {Action(1, "MyIngress.deny"), Action(2, "NoAction")};
        s.defaultAction = 2;
        return s;
    }

    static TableSchema EgressAclSchema()
    {
        TableSchema s = AclSchema();
        s.name = "MyEgress.acl";
        return s;
    }

    Table fib;
    Table acl;
    Table egressAcl;
    RegisterArray lastLen;
    CounterArray seen;
    ControlPlane control;
};

} // namespace

TEST_CASE("control plane installs entries by P4 name", "[p4][runtime]")
{
    TestProgram p;
    p.control.AddEntry("MyIngress.ipv4_lpm", {{"hdr.ipv4.dstAddr", MatchValue::Lpm(0x0A000000, 8)}},
                       "MyIngress.set_nhop", {{"port", 3}, {"dmac", 0x0000000000AAull}});
    p.control.AddEntry("ipv4_lpm", {{"dstAddr", ParseMatchValue("10.1.0.0/16")}}, "set_nhop",
                       {{"dmac", 1}, {"port", 4}});
    uint8_t key[4];
    Pack32(key, 0x0A010101);
    const TableEntry* e = p.fib.Lookup(key);
    REQUIRE(e->hit);
    CHECK(e->args[0] == 4);
    CHECK(e->args[1] == 1);

    // Omitted ternary fields are wildcards; priorities order overlapping entries.
    p.control.AddEntry("MyIngress.acl", {{"protocol", MatchValue::Exact(6)}}, "deny", {}, 5);
    CHECK(p.acl.Size() == 1);
    p.control.SetDefaultAction("ipv4_lpm", "MyIngress.drop");
    p.control.ModifyEntry("ipv4_lpm", {{"dstAddr", ParseMatchValue("10.1.0.0/16")}}, "set_nhop",
                          {{"dmac", 2}, {"port", 5}});
    CHECK(p.fib.Lookup(key)->args[0] == 5);
    p.control.DeleteEntry("ipv4_lpm", {{"dstAddr", ParseMatchValue("10.1.0.0/16")}});
    CHECK(p.fib.Lookup(key)->args[0] == 3);

    p.control.WriteRegister("last_len", 7, 1500);
    CHECK(p.lastLen.Read(7) == 1500);
    CHECK(p.control.ReadRegister("MyIngress.last_len", 7) == BitString(1500));

    p.control.SetMulticastGroup(1, {{1, 0}, {2, 0}, {3, 1}});
    REQUIRE(p.control.MulticastGroup(1) != nullptr);
    CHECK(p.control.MulticastGroup(1)->size() == 3);
    CHECK(p.control.MulticastGroup(2) == nullptr);
    p.control.SetCloneSession(5, 255);
    CHECK(p.control.CloneSessionPort(5) == 255u);
    CHECK_FALSE(p.control.CloneSessionPort(6).has_value());
}

TEST_CASE("control plane errors name what is wrong", "[p4][runtime]")
{
    TestProgram p;
    CheckThrowsWith([&] { p.control.GetTable("acl"); },
                    {"table name acl is ambiguous", "MyEgress.acl, MyIngress.acl"});
    CheckThrowsWith([&] { p.control.GetTable("nope"); },
                    {"no table named nope", "MyIngress.ipv4_lpm"});
    CheckThrowsWith(
        [&] {
            p.control.AddEntry("ipv4_lpm", {{"hdr.ipv4.srcAddr", MatchValue::Exact(1)}}, "drop");
        },
        {"table MyIngress.ipv4_lpm", "no key field hdr.ipv4.srcAddr", "hdr.ipv4.dstAddr"});
    CheckThrowsWith([&] { p.control.AddEntry("ipv4_lpm", {}, "forward"); },
                    {"table MyIngress.ipv4_lpm", "no action forward", "MyIngress.set_nhop"});
    CheckThrowsWith(
        [&] {
            p.control.AddEntry("ipv4_lpm", {{"dstAddr", MatchValue::Lpm(0, 0)}}, "set_nhop",
                               {{"port", 1}});
        },
        {"action MyIngress.set_nhop: parameter dmac is missing"});
    CheckThrowsWith(
        [&] {
            p.control.AddEntry("ipv4_lpm", {{"dstAddr", MatchValue::Lpm(0, 0)}}, "set_nhop",
                               {{"port", 1}, {"dmac", 1}, {"vlan", 2}});
        },
        {"has no parameter vlan", "port, dmac"});
    CheckThrowsWith([&] { p.control.AddEntry("MyIngress.acl", {}, "deny"); },
                    {"exact key field hdr.ipv4.protocol is missing"});
    CheckThrowsWith([&] { p.control.WriteRegister("last_len", 512, 1); },
                    {"index 512 is out of range"});
    CheckThrowsWith([&] { p.control.SetMulticastGroup(0, {}); }, {"multicast group id 0"});
    CheckThrowsWith([&] { p.control.RegisterTable(p.fib); }, {"already registered"});
}

TEST_CASE("entries file loads tables, groups, sessions and registers", "[p4][runtime]")
{
    TestProgram p;
    const auto doc = nlohmann::json::parse(R"({
        "tables": [
            {"table": "MyIngress.ipv4_lpm", "match": {"hdr.ipv4.dstAddr": "10.0.0.0/8"},
             "action": "set_nhop", "params": {"port": 1, "dmac": "00:00:00:00:00:01"}},
            {"table": "ipv4_lpm", "match": {"dstAddr": "10.1.2.3"},
             "action": "set_nhop", "params": {"port": "0x2", "dmac": 2}},
            {"table": "MyIngress.acl", "match": {"srcAddr": "10.0.0.0&&&255.0.0.0", "protocol": 17},
             "action": "deny", "priority": 10},
            {"table": "ipv4_lpm", "default_action": true, "action": "drop"}
        ],
        "multicast_groups": [{"id": 1, "ports": [1, 2, 3]},
                             {"id": 2, "replicas": [{"port": 4, "rid": 7}]}],
        "clone_sessions": [{"id": 5, "port": 255}],
        "registers": [{"register": "last_len", "index": 3, "value": 64},
                      {"register": "MyIngress.last_len", "values": [1, 2]}]
    })");
    LoadEntriesJson(p.control, doc, "entries.json");
    CHECK(p.fib.Size() == 2);
    CHECK(p.acl.Size() == 1);
    uint8_t key[4];
    Pack32(key, 0x0A010203);
    CHECK(p.fib.Lookup(key)->args[0] == 2);
    CHECK(*p.control.MulticastGroup(2) == std::vector<Replica>{{4, 7}});
    CHECK(p.control.MulticastGroup(1)->size() == 3);
    CHECK(p.control.CloneSessionPort(5) == 255u);
    CHECK(p.lastLen.Read(3) == 64);
    CHECK(p.lastLen.Read(1) == 2);
}

TEST_CASE("entries file errors name the file and the JSON path", "[p4][runtime]")
{
    const auto load = [](const char* text) {
        TestProgram p;
        LoadEntriesJson(p.control, nlohmann::json::parse(text), "entries.json");
    };
    CheckThrowsWith(
        [&] {
            load(R"({"tables": [
                {"table": "ipv4_lpm", "match": {"dstAddr": "10.0.0.0/8"}, "action": "drop"},
                {"table": "ipv4_lpm", "match": {"dstAddr": "300.0.0.0/8"}, "action": "drop"}]})");
        },
        {"entries.json: /tables/1/match/dstAddr: cannot parse '300.0.0.0'"});
    CheckThrowsWith(
        [&] {
            load(R"({"tables": [{"table": "ipv4_lpm", "match": {"dstAddr": "10.0.0.1/8"},
                                 "action": "drop"}]})");
        },
        {"entries.json: /tables/0/match/dstAddr: table MyIngress.ipv4_lpm: field hdr.ipv4.dstAddr",
         "outside the /8 prefix"});
    CheckThrowsWith(
        [&] {
            load(R"({"tables": [{"table": "ipv4_lpm", "match": {"dstAddr": "0.0.0.0/0"},
                                 "action": "set_nhop", "params": {"port": 512, "dmac": 0}}]})");
        },
        {"entries.json: /tables/0/params/port: ", "wider than 9 bits"});
    CheckThrowsWith([&] { load(R"({"tables": [{"table": "acl", "action": "deny"}]})"); },
                    {"entries.json: /tables/0/table: table name acl is ambiguous"});
    CheckThrowsWith([&] { load(R"({"tables": [{"table": "ipv4_lpm", "action": "fwd"}]})"); },
                    {"entries.json: /tables/0/action: table MyIngress.ipv4_lpm: no action fwd"});
    CheckThrowsWith(
        [&] { load(R"({"tables": [{"table": "ipv4_lpm", "action": "drop", "prio": 1}]})"); },
        {"entries.json: /tables/0/prio: unknown key"});
    CheckThrowsWith([&] { load(R"({"table": []})"); }, {"entries.json: /table: unknown key"});
    CheckThrowsWith([&] { load(R"({"multicast_groups": [{"id": 1, "ports": [1, -2]}]})"); },
                    {"entries.json: /multicast_groups/0/ports/1: expected a non-negative integer"});
    CheckThrowsWith(
        [&] { load(R"({"registers": [{"register": "last_len", "values": [1, "x"]}]})"); },
        {"entries.json: /registers/0/values/1: cannot read \"x\" as a value"});
    CheckThrowsWith(
        [&] {
            load(R"({"registers": [{"register": "last_len", "index": 511, "values": [1, 2]}]})");
        },
        {"entries.json: /registers/0/values/1: register MyIngress.last_len: index 512"});
    CheckThrowsWith([&] { load(R"({"clone_sessions": [{"id": 1}]})"); },
                    {"entries.json: /clone_sessions/0: missing \"port\""});
}

// --------------------------------------------------------------------------------- STF

TEST_CASE("STF parser reads p4c's syntax", "[p4][runtime]")
{
    const std::string text = R"(# comment line
add test1 0 data.f1:0x****0101 ingress.setb1(val:0x7f, port:2)
ADD ex1 110 extra$0.h:0x2525 act2(val:0x27) = A
add t2 hdr.ipv4.dstAddr:0x0a000000/8 meta.x:0x5&&&0xf act()
setdefault ethertype_match l2_packet()
expect 2 00000101 ******** **** 7f 66   # trailing comment
packet 0 00000101 00000202 0303 55 66 7777 88 00
expect 3 0102 $
expect 5
mc_mgrp_create 1
mc_node_create 0 1 2
mc_node_associate 1 0
mirroring_add 5 4
register_write r 3 0x10
check_register MyIngress.r 3 16
check_counter cntDum(10) packets == 2
check_counter cnt(1)
wait
)";
    const StfScript s = ParseStf(text, "t.stf");
    REQUIRE(s.commands.size() == 17);
    using Kind = StfCommand::Kind;

    const StfCommand& add = s.commands[0];
    CHECK(add.kind == Kind::Add);
    CHECK(add.line == 2);
    CHECK(add.table == "test1");
    CHECK(add.priority == 0);
    REQUIRE(add.keys.size() == 1);
    CHECK(add.keys[0].field == "data.f1");
    CHECK(add.keys[0].value.hasStars);
    CHECK(add.keys[0].value.value == BitString(0x0101));
    CHECK(add.keys[0].value.careMask == BitString(0xFFFF));
    CHECK(add.action == "ingress.setb1");
    REQUIRE(add.args.size() == 2);
    CHECK(add.args[1].first == "port");
    CHECK(add.args[1].second.value == BitString(2));

    CHECK(s.commands[1].priority == 110);
    CHECK(s.commands[1].keys[0].field == "extra[0].h");
    CHECK(s.commands[2].keys[0].prefixLen == 8u);
    REQUIRE(s.commands[2].keys[1].mask.has_value());
    CHECK(s.commands[2].keys[1].mask->value == BitString(0xF));
    CHECK(s.commands[2].args.empty());
    CHECK(s.commands[3].kind == Kind::SetDefault);
    CHECK(s.commands[3].action == "l2_packet");

    CHECK(s.commands[4].pattern == "00000101************7F66");
    CHECK(s.commands[5].data.size() == 16);
    CHECK(s.commands[6].exactLength);
    CHECK(s.commands[7].pattern.empty());
    CHECK(s.commands[9].numbers == std::vector<uint64_t>{0, 1, 2});
    CHECK(s.commands[12].value == BitString(0x10));
    CHECK(s.commands[14].object == "cntDum");
    CHECK(s.commands[14].counterField == "packets");
    CHECK(s.commands[15].op == "==");
    CHECK(s.commands[16].kind == Kind::Wait);
}

TEST_CASE("STF parse errors give file and line", "[p4][runtime]")
{
    CheckThrowsWith([] { ParseStf("wait\nfrobnicate 1\npacket 1 0g\nexpect x 00\n", "bad.stf"); },
                    {"bad.stf:2: unknown command 'frobnicate'",
                     "bad.stf:3: invalid packet data character 'g'",
                     "bad.stf:4: expected a port number, got 'x'"});
    CheckThrowsWith([] { ParseStf("add t f:1 act(x 1)\n", "a.stf"); },
                    {"a.stf:1: expected <param>:<value>"});
    CheckThrowsWith([] { ParseStf("expect 1 00 $ 11\n", "a.stf"); }, {"a.stf:1: '$' must end"});
    CheckThrowsWith([] { ParseStf("packet 1 012\n", "a.stf"); },
                    {"a.stf:1: packet data has an odd"});
    // 32-bit ids: 2^32 + 1 used to be read as 1.
    CheckThrowsWith(
        [] {
            ParseStf("mc_mgrp_create 4294967297\nmc_node_create 4294967296 1\n"
                     "mc_node_associate 4294967297 0\nmirroring_add 4294967301 2\n",
                     "ids.stf");
        },
        {"ids.stf:1: expected a group id (a number up to 4294967295), got '4294967297'",
         "ids.stf:2: expected a replication id (a number up to 4294967295), got '4294967296'",
         "ids.stf:3: expected a group id (a number up to 4294967295), got '4294967297'",
         "ids.stf:4: expected a session id (a number up to 4294967295), got '4294967301'"});
}

namespace
{

/// A hand-written stand-in for a generated pipeline:
///   ingress: acl on the first byte (deny drops; set_class(5) mirrors to the clone session 9);
///            fwd on the ingress port (forward(port), multicast(grp), drop);
///   state:   last_len[port] = packet length, seen counts packets per ingress port.
class PortForwardTarget : public StfTarget
{
  public:
    PortForwardTarget()
        : m_fwd(FwdSchema()),
          m_acl(AclSchema()),
          m_lastLen("MyIngress.last_len", 512, 32),
          m_seen("MyIngress.seen", 512, CounterType::PacketsAndBytes)
    {
        m_control.RegisterTable(m_fwd);
        m_control.RegisterTable(m_acl);
        m_control.RegisterRegister(m_lastLen);
        m_control.RegisterCounter(m_seen);
    }

    ControlPlane& Control() override { return m_control; }

    void InjectPacket(uint32_t port, const std::vector<uint8_t>& data) override
    {
        m_lastLen.Write(port, data.size());
        m_seen.Count(port, data.size());
        const TableEntry* acl = m_acl.Lookup(data.data());
        if (acl->action == kDeny)
        {
            return;
        }
        if (acl->action == kSetClass && acl->args[0] == 5)
        {
            if (const auto mirror = m_control.CloneSessionPort(9))
            {
                m_out.push_back({*mirror, data});
            }
        }
        uint8_t key[2];
        StoreBigEndian(key, port, 2);
        const TableEntry* fwd = m_fwd.Lookup(key);
        if (fwd->action == kForward)
        {
            m_out.push_back({static_cast<uint32_t>(fwd->args[0]), data});
        }
        else if (fwd->action == kMulticast)
        {
            if (const auto* replicas =
                    m_control.MulticastGroup(static_cast<uint32_t>(fwd->args[0])))
            {
                for (const Replica& r : *replicas)
                {
                    m_out.push_back({r.port, data});
                }
            }
        }
    }

    std::vector<StfOutputPacket> Drain() override
    {
        std::vector<StfOutputPacket> out;
        out.swap(m_out);
        return out;
    }

  private:
    static constexpr ActionId kForward = 1;
    static constexpr ActionId kMulticast = 2;
    static constexpr ActionId kDrop = 3;
    static constexpr ActionId kDeny = 4;
    static constexpr ActionId kSetClass = 5;
    static constexpr ActionId kNoAction = 6;

    static TableSchema FwdSchema()
    {
        TableSchema s;
        s.name = "MyIngress.fwd";
        s.keys = {{"meta.port", 9, MatchKind::Exact}};
        s.actions = {Action(kForward, "MyIngress.forward", {{"port", 9}}),
                     Action(kMulticast, "MyIngress.multicast", {{"grp", 16}}),
                     Action(kDrop, "MyIngress.drop")};
        s.defaultAction = kForward;
        s.defaultArgs = {0};
        return s;
    }

    static TableSchema AclSchema()
    {
        TableSchema s;
        s.name = "MyIngress.acl";
        s.keys = {{"hdr.first.tag", 8, MatchKind::Ternary}};
        s.actions = {Action(kDeny, "MyIngress.deny"),
                     Action(kSetClass, "MyIngress.set_class", {{"cls", 8}}),
                     Action(kNoAction, "NoAction")};
        s.defaultAction = kNoAction;
        return s;
    }

    ControlPlane m_control;
    Table m_fwd;
    Table m_acl;
    RegisterArray m_lastLen;
    CounterArray m_seen;
    std::vector<StfOutputPacket> m_out;
};

StfResult
RunText(const std::string& text)
{
    PortForwardTarget target;
    return RunStf(ParseStf(text, "t.stf"), target);
}

/// The failure report, for INFO and substring checks.
std::string
Report(const StfResult& r)
{
    return r.Report("t.stf");
}

const char* kSetup = R"(add fwd port:1 forward(port:2)
add fwd port:3 multicast(grp:7)
mc_mgrp_create 7
mc_node_create 0 4 5
mc_node_associate 7 0
)";

} // namespace

TEST_CASE("STF runner passes the sample script", "[p4][runtime]")
{
    const std::string path =
        std::string(INCSIM_SOURCE_DIR) + "/tests/p4/stf-samples/port-forward.stf";
    const StfScript script = ParseStfFile(path);
    PortForwardTarget target;
    const StfResult result = RunStf(script, target);
    INFO(result.Report(path));
    CHECK(result.Passed());
}

TEST_CASE("STF runner matches each port in order, with wildcards and end markers", "[p4][runtime]")
{
    const StfResult ok = RunText(std::string(kSetup) + R"(
expect 2 01 ** 03
expect 2 0A0B0C$
packet 1 01 02 03 04
packet 1 0A 0B 0C
packet 3 FF
expect 5 FF
expect 4 F*
)");
    INFO(Report(ok));
    CHECK(ok.Passed());

    // Port 2's expectations are in the other order: both packets mismatch, with a diff.
    const StfResult swapped = RunText(std::string(kSetup) + R"(
expect 2 0A0B0C$
expect 2 01 ** 03
packet 1 01 02 03 04
packet 1 0A 0B 0C
)");
    const std::string report = Report(swapped);
    INFO(report);
    REQUIRE(swapped.failures.size() == 2);
    CHECK(swapped.failures[0].line == 7);
    CHECK(
        report.find("t.stf:7: port 2: packet 1 of 2 (from the packet at line 9) does not match") !=
        std::string::npos);
    CHECK(report.find("expected: 0A 0B 0C $") != std::string::npos);
    CHECK(report.find("received: 01 02 03 04") != std::string::npos);
    CHECK(report.find("t.stf:8: port 2: packet 2 of 2 (from the packet at line 10)") !=
          std::string::npos);
}

TEST_CASE("STF runner sees only the ports the script names, as p4c's", "[p4][runtime]")
{
    // kSetup forwards to port 2, which this script never names: p4c's runner opens no
    // interface there, so the packet is not seen. Port 9, named, still gets checked.
    const StfResult unnamed = RunText(std::string(kSetup) + "packet 1 010203\nexpect 9\n");
    INFO(Report(unnamed));
    CHECK(unnamed.Passed());
    // The wrong-port hint still looks at unnamed ports.
    const StfResult missing = RunText(std::string(kSetup) + "expect 9 010203\npacket 1 010203\n");
    REQUIRE(missing.failures.size() == 1);
    CHECK(missing.failures[0].message.find("a matching packet came out on port 2 instead") !=
          std::string::npos);
}

TEST_CASE("STF runner reports wrong ports, missing, extra and over-long packets", "[p4][runtime]")
{
    // Expected on port 9, sent to port 2 (which the script names): one missing, one
    // unexpected.
    const StfResult wrongPort = RunText(std::string(kSetup) + R"(
expect 9 010203
packet 1 010203
expect 2
packet 2 05
)");
    INFO(Report(wrongPort));
    REQUIRE(wrongPort.failures.size() == 1);
    CHECK(wrongPort.failures[0].line == 7);
    CHECK(wrongPort.failures[0].message.find("port 9: expected packet 1 was not received") !=
          std::string::npos);
    CHECK(wrongPort.failures[0].message.find("a matching packet came out on port 2 instead") !=
          std::string::npos);
    const StfResult extra = RunText(std::string(kSetup) + R"(
expect 2 0A
packet 1 0A
packet 1 010203
)");
    INFO(Report(extra));
    REQUIRE(extra.failures.size() == 1);
    CHECK(extra.failures[0].line == 9);
    CHECK(extra.failures[0].message.find(
              "port 2: unexpected packet 2 (from the packet at line 9)") != std::string::npos);

    const StfResult tooLong = RunText(std::string(kSetup) + "expect 2 0102$\npacket 1 010203\n");
    REQUIRE(tooLong.failures.size() == 1);
    CHECK(tooLong.failures[0].message.find("expected exactly 2") != std::string::npos);

    const StfResult tooShort =
        RunText(std::string(kSetup) + "expect 2 01020304\npacket 1 010203\n");
    REQUIRE(tooShort.failures.size() == 1);
    CHECK(tooShort.failures[0].message.find("too short") != std::string::npos);

    // 'expect <port>' alone accepts any number of packets there.
    const StfResult any = RunText(std::string(kSetup) + "expect 2\npacket 1 01\npacket 1 02\n");
    CHECK(any.Passed());

    // Dropped by the default action: nothing comes out, and an expectation fails.
    const StfResult dropped = RunText("setdefault fwd drop()\nexpect 2 01\npacket 1 01\n");
    REQUIRE(dropped.failures.size() == 1);
    CHECK(dropped.failures[0].line == 2);
}

TEST_CASE("STF runner reports control-plane errors and failed checks by line", "[p4][runtime]")
{
    const StfResult r = RunText(R"(add nosuch port:1 forward(port:2)
add fwd port:1 forward(port:600)
add fwd port:1 forward(port:2)
packet 1 00
expect 2 00
check_register last_len 1 5
check_counter seen(1) packets == 2
mc_node_associate 3 0
register_write last_len 0 0x1ffffffff
)");
    const std::string report = Report(r);
    INFO(report);
    REQUIRE(r.failures.size() == 6);
    CHECK(report.find("t.stf:1: no table named nosuch") != std::string::npos);
    CHECK(report.find("t.stf:2: table MyIngress.fwd: action MyIngress.forward: parameter port") !=
          std::string::npos);
    CHECK(report.find("t.stf:6: register last_len[1] is 0x1, expected 0x5") != std::string::npos);
    CHECK(report.find("t.stf:7: counter seen(1) packets is 1, expected == 2") != std::string::npos);
    CHECK(report.find("t.stf:8: no multicast group 3") != std::string::npos);
    CHECK(report.find("t.stf:9: register MyIngress.last_len: value 0x1ffffffff is wider") !=
          std::string::npos);
}

TEST_CASE("STF key values follow p4c for star digits by field kind", "[p4][runtime]")
{
    // Ternary: 0xE* matches 0xE0..0xEF; lpm-style trailing stars work on lpm fields too.
    const StfResult r = RunText(R"(add fwd port:1 forward(port:2)
add acl 1 tag:0xE* deny()
packet 1 E5
packet 1 F5
expect 2 F5$
)");
    INFO(Report(r));
    CHECK(r.Passed());

    const StfResult exactStars = RunText("add fwd port:0x*1 forward(port:2)\n");
    REQUIRE(exactStars.failures.size() == 1);
    CHECK(exactStars.failures[0].message.find("'*' digits are not allowed") != std::string::npos);
}
