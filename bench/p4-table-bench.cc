// incsim_p4bench: the P4 runtime's match tables with 10k entries, one benchmark per match
// kind, measuring Lookup on a 32-bit key (IPv4 destination) plus a 16-bit port where the kind
// needs a second field. Keys are drawn so that about 90% of lookups hit.

#include "p4/runtime/table.h"

#include "sim/core/rng.h"

#include <benchmark/benchmark.h>

#include <vector>

namespace
{

using incsim::Rng;
using namespace incsim::p4rt;

constexpr size_t kEntries = 10000;
constexpr size_t kProbeKeys = 4096; // power of two

TableSchema
Schema(std::vector<KeyFieldSpec> keys)
{
    TableSchema schema;
    schema.name = "Bench.table";
    schema.keys = std::move(keys);
    schema.actions = {ActionSpec{0, "miss", {}, {}}, ActionSpec{1, "forward", {{"port", 9}}, {}}};
    schema.defaultAction = 0;
    schema.size = kEntries * 2;
    return schema;
}

void
StoreKey(uint8_t* key, uint32_t address, uint16_t port)
{
    key[0] = static_cast<uint8_t>(address >> 24);
    key[1] = static_cast<uint8_t>(address >> 16);
    key[2] = static_cast<uint8_t>(address >> 8);
    key[3] = static_cast<uint8_t>(address);
    key[4] = static_cast<uint8_t>(port >> 8);
    key[5] = static_cast<uint8_t>(port);
}

/// Runs Lookup over a ring of pre-packed keys.
void
RunLookups(benchmark::State& state, const Table& table, const std::vector<uint8_t>& keys,
           size_t keyBytes)
{
    size_t i = 0;
    uint64_t hits = 0;
    for (auto _ : state)
    {
        const TableEntry* entry = table.Lookup(keys.data() + (i & (kProbeKeys - 1)) * keyBytes);
        hits += entry->hit;
        ++i;
        benchmark::DoNotOptimize(entry);
    }
    state.counters["hit_ratio"] = static_cast<double>(hits) / static_cast<double>(i);
}

// Exact on (dstAddr, dstPort).
void
BM_TableExact10k(benchmark::State& state)
{
    Table table(Schema({{"dstAddr", 32, MatchKind::Exact}, {"dstPort", 16, MatchKind::Exact}}));
    Rng rng(1);
    std::vector<std::pair<uint32_t, uint16_t>> installed;
    while (installed.size() < kEntries)
    {
        uint32_t address = static_cast<uint32_t>(rng.NextU64());
        uint16_t port = static_cast<uint16_t>(rng.NextU64());
        table.Add({MatchValue::Exact(address), MatchValue::Exact(port)}, 1, {3});
        installed.emplace_back(address, port);
    }
    std::vector<uint8_t> keys(kProbeKeys * 6);
    for (size_t k = 0; k < kProbeKeys; ++k)
    {
        auto [address, port] = installed[rng.UniformInt(installed.size())];
        StoreKey(keys.data() + k * 6, rng.Bernoulli(0.9) ? address : address ^ 0x5a5a5a5a, port);
    }
    RunLookups(state, table, keys, 6);
}
BENCHMARK(BM_TableExact10k);

// Longest prefix match on dstAddr, prefixes of 8 to 32 bits (25 distinct lengths).
void
BM_TableLpm10k(benchmark::State& state)
{
    Table table(Schema({{"dstAddr", 32, MatchKind::Lpm}}));
    Rng rng(2);
    std::vector<uint32_t> prefixes;
    while (prefixes.size() < kEntries)
    {
        unsigned length = 8 + static_cast<unsigned>(rng.UniformInt(25));
        uint32_t address = static_cast<uint32_t>(rng.NextU64()) &
                           (length == 32 ? ~0u : ~((1u << (32 - length)) - 1));
        try
        {
            table.Add({MatchValue::Lpm(address, length)}, 1, {3});
            prefixes.push_back(address);
        }
        catch (const std::exception&)
        {
            // a duplicate prefix: draw another
        }
    }
    std::vector<uint8_t> keys(kProbeKeys * 6);
    for (size_t k = 0; k < kProbeKeys; ++k)
    {
        uint32_t address = prefixes[rng.UniformInt(prefixes.size())] |
                           static_cast<uint32_t>(rng.UniformInt(256));
        StoreKey(keys.data() + k * 6, rng.Bernoulli(0.9) ? address : ~address, 0);
    }
    RunLookups(state, table, keys, 4);
}
BENCHMARK(BM_TableLpm10k);

// Ternary on (dstAddr, dstPort) with 16 distinct masks, as ACL-like rules.
void
BM_TableTernary10k(benchmark::State& state)
{
    Table table(Schema({{"dstAddr", 32, MatchKind::Ternary}, {"dstPort", 16, MatchKind::Ternary}}));
    Rng rng(3);
    std::vector<std::pair<uint32_t, uint16_t>> rules;
    int32_t priority = 1;
    while (rules.size() < kEntries)
    {
        unsigned shape = static_cast<unsigned>(rng.UniformInt(16));
        uint32_t addressMask = ~0u << (shape % 8) * 4;
        uint16_t portMask = shape < 8 ? 0xffff : 0;
        uint32_t address = static_cast<uint32_t>(rng.NextU64()) & addressMask;
        uint16_t port = static_cast<uint16_t>(rng.NextU64()) & portMask;
        table.Add({MatchValue::Ternary(address, addressMask), MatchValue::Ternary(port, portMask)},
                  1, {3}, priority++);
        rules.emplace_back(address, port);
    }
    std::vector<uint8_t> keys(kProbeKeys * 6);
    for (size_t k = 0; k < kProbeKeys; ++k)
    {
        auto [address, port] = rules[rng.UniformInt(rules.size())];
        StoreKey(keys.data() + k * 6, rng.Bernoulli(0.9) ? address : ~address, port);
    }
    RunLookups(state, table, keys, 6);
}
BENCHMARK(BM_TableTernary10k);

} // namespace

BENCHMARK_MAIN();
