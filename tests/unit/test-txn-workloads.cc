// The protocol-neutral workloads (protocols/txn): distributions and shares, with fixed seeds
// and bounds of at least six standard deviations, so they hold for any correct generator and
// cannot flake (the draws are deterministic).

#include "protocols/txn/key-distribution.h"
#include "protocols/txn/kv-workload.h"
#include "protocols/txn/multi-kv-workload.h"
#include "protocols/txn/tpcc-workload.h"
#include "protocols/txn/workload-spec.h"
#include "protocols/txn/ycsbt-workload.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <set>
#include <vector>

using namespace incsim;
using namespace incsim::txn;

namespace
{

/// |observed share - p| within six standard deviations of a binomial share over n draws.
bool
ShareNear(uint64_t hits, uint64_t n, double p)
{
    const double share = static_cast<double>(hits) / static_cast<double>(n);
    return std::abs(share - p) <= 6 * std::sqrt(p * (1 - p) / static_cast<double>(n)) + 1e-12;
}

/// Values as a client would see them: all keys at 0.
class Zeros : public ValueView
{
  public:
    uint64_t Value(uint64_t) const override { return 0; }
};

} // namespace

TEST_CASE("Zipf keys follow 1 / (k + 1)^theta", "[txn][workload]")
{
    const uint64_t n = 100;
    const uint64_t draws = 200'000;
    for (const double theta : {0.0, 0.8, 0.99, 2.0})
    {
        ZipfKeys keys(n, theta);
        Rng rng(7, "zipf-test");
        std::vector<uint64_t> count(n, 0);
        for (uint64_t i = 0; i < draws; ++i)
        {
            ++count.at(keys.Draw(rng));
        }
        double norm = 0;
        for (uint64_t k = 0; k < n; ++k)
        {
            norm += 1 / std::pow(k + 1.0, theta);
        }
        for (const uint64_t k : {0, 1, 9, 99})
        {
            INFO("theta " << theta << " rank " << k << ": " << count[k]);
            CHECK(ShareNear(count[k], draws, 1 / std::pow(k + 1.0, theta) / norm));
        }
    }
}

TEST_CASE("A hot set gets its share of the accesses, uniformly", "[txn][workload]")
{
    HotSetKeys keys(1000, 0.2, 0.8);
    CHECK(keys.HotKeys() == 200);
    Rng rng(11, "hotset-test");
    const uint64_t draws = 100'000;
    uint64_t hot = 0;
    uint64_t firstHalfOfHot = 0;
    uint64_t firstHalfOfCold = 0;
    for (uint64_t i = 0; i < draws; ++i)
    {
        const uint64_t k = keys.Draw(rng);
        REQUIRE(k < 1000);
        hot += k < 200 ? 1 : 0;
        firstHalfOfHot += k < 100 ? 1 : 0;
        firstHalfOfCold += k >= 200 && k < 600 ? 1 : 0;
    }
    CHECK(ShareNear(hot, draws, 0.8));
    CHECK(ShareNear(firstHalfOfHot, hot, 0.5));
    CHECK(ShareNear(firstHalfOfCold, draws - hot, 0.5));
}

TEST_CASE("Key-value transactions: write share and locality", "[txn][workload]")
{
    KvWorkload::Config config;
    config.writes = 0.3;
    config.keys = 10;
    config.locality = true;
    config.localFraction = 0.75;
    // Two groups of four clients: in each, the first one (1 - 0.75 of 4) uses the other half.
    const KvWorkload workload(config, {0, 0, 0, 0, 1, 1, 1, 1});
    Rng rng(3, "kv-test");
    Transaction txn;
    std::vector<Access> accesses;
    uint64_t writes = 0;
    const uint64_t draws = 20'000;
    for (uint64_t i = 0; i < draws; ++i)
    {
        const auto client = static_cast<uint32_t>(i % 8);
        workload.Next(client, rng, txn);
        const bool ownHalf = (client < 4) == (txn.args[0] < 5);
        CHECK(ownHalf == (client != 0 && client != 4));
        accesses.clear();
        workload.Execute(txn, Zeros(), accesses);
        writes += txn.kind == 1 ? 1 : 0;
        CHECK(accesses.size() == (txn.kind == 1 ? 2u : 1u));
    }
    CHECK(ShareNear(writes, draws, 0.3));
}

TEST_CASE("Multi-key transactions: distinct keys, write share per key, kind from the writes",
          "[txn][workload]")
{
    MultiKvWorkload::Config config;
    config.keysPerTxn = 2;
    config.writes = 1 - std::sqrt(0.5); // half of the transactions read-only
    config.keys = 50;
    config.theta = 0.99;
    config.partitions = 7;
    const MultiKvWorkload workload(config);
    Rng rng(5, "multi-kv-test");
    Transaction txn;
    std::vector<Access> accesses;
    uint64_t readOnly = 0;
    uint64_t writtenKeys = 0;
    std::set<uint64_t> values;
    const uint64_t draws = 20'000;
    for (uint64_t i = 0; i < draws; ++i)
    {
        workload.Next(static_cast<uint32_t>(i % 4), rng, txn);
        accesses.clear();
        workload.Execute(txn, Zeros(), accesses);
        REQUIRE(accesses.size() == 2);
        CHECK(accesses[0].key != accesses[1].key);
        uint32_t writes = 0;
        for (const Access& access : accesses)
        {
            CHECK(access.key < config.keys);
            CHECK(workload.PartitionOf(access.key) == access.key % 7);
            if (access.type == AccessType::Write)
            {
                ++writes;
                CHECK(values.insert(access.value).second); // unique written values
            }
            else
            {
                CHECK(access.type == AccessType::Fetch);
            }
        }
        writtenKeys += writes;
        const uint32_t kind = writes == 0   ? MultiKvWorkload::kReadOnly
                              : writes == 2 ? MultiKvWorkload::kWriteOnly
                                            : MultiKvWorkload::kReadWrite;
        CHECK(txn.kind == kind);
        readOnly += writes == 0 ? 1 : 0;
    }
    CHECK(ShareNear(readOnly, draws, 0.5));
    CHECK(ShareNear(writtenKeys, 2 * draws, config.writes));
    CHECK(workload.KindNames() == std::vector<std::string>{"ro", "wo", "wr"});
}

TEST_CASE("YCSB-T transactions touch distinct keys on the chosen number of partitions",
          "[txn][workload]")
{
    for (const uint32_t perTxn : {1u, 2u, 4u, 8u})
    {
        YcsbtWorkload::Config config;
        config.partitions = 8;
        config.partitionsPerTxn = perTxn;
        config.records = 1000;
        config.theta = 0.99;
        config.reads = 0.25;
        const YcsbtWorkload workload(config);
        Rng rng(5, "ycsbt-test");
        Transaction txn;
        std::vector<Access> accesses;
        std::vector<uint64_t> byPartition(8, 0);
        uint64_t ops = 0;
        uint64_t rmws = 0;
        const uint64_t draws = 5000;
        for (uint64_t i = 0; i < draws; ++i)
        {
            workload.Next(0, rng, txn);
            accesses.clear();
            workload.Execute(txn, Zeros(), accesses);
            std::set<uint64_t> keys;
            std::set<uint32_t> partitions;
            for (const Access& a : accesses)
            {
                CHECK((a.key & 0xff) < 24);
                partitions.insert(workload.PartitionOf(a.key));
                if (a.type == AccessType::Read)
                {
                    CHECK(keys.insert(a.key).second);
                    ++ops;
                }
                else
                {
                    CHECK(a.value == 1);  // read-modify-write: the value seen plus one
                    ++rmws;
                }
            }
            CHECK(keys.size() == 8);
            CHECK(partitions.size() == perTxn);
            for (uint32_t p : partitions)
            {
                ++byPartition.at(p);
            }
        }
        CHECK(ShareNear(ops - rmws, ops, 0.25));
        for (uint64_t count : byPartition)
        {
            CHECK(ShareNear(count, draws * perTxn, 1.0 / 8));
        }
    }
}

TEST_CASE("TPC-C: mix, remote items and remote customers", "[txn][workload]")
{
    TpccWorkload::Config config;
    config.partitions = 4;
    config.warehousesPerPartition = 4;
    config.newOrder = 0.5;
    config.payment = 0.4;
    config.remoteItems = 0.1;
    config.remoteCustomers = 0.15;
    const TpccWorkload workload(config);
    REQUIRE(workload.Warehouses() == 16);
    REQUIRE(workload.KindNames().size() == 3);
    Rng rng(9, "tpcc-test");
    Transaction txn;
    std::vector<Access> accesses;
    std::map<uint32_t, uint64_t> kinds;
    uint64_t lines = 0;
    uint64_t remoteLines = 0;
    uint64_t payments = 0;
    uint64_t remotePayments = 0;
    const uint64_t draws = 40'000;
    for (uint64_t i = 0; i < draws; ++i)
    {
        const auto client = static_cast<uint32_t>(i % 64);
        const uint64_t home = client % 16;
        workload.Next(client, rng, txn);
        ++kinds[txn.kind];
        accesses.clear();
        workload.Execute(txn, Zeros(), accesses);
        if (txn.kind == TpccWorkload::kNewOrder)
        {
            // The district's order id, then each line's stock: read and write.
            REQUIRE(accesses.size() >= 2 + 2 * 5);
            const uint64_t orderLines = (txn.args.size() - 3) / 3;
            CHECK(orderLines >= 5);
            CHECK(orderLines <= 15);
            for (uint64_t line = 0; line < orderLines; ++line)
            {
                const uint64_t stock = accesses[2 + 2 * line].key;
                ++lines;
                remoteLines += (stock >> 32) != home ? 1 : 0;
            }
            CHECK((accesses[0].key >> 32) == home);
        }
        else if (txn.kind == TpccWorkload::kPayment)
        {
            ++payments;
            // Warehouse and district at home; the customer and history maybe elsewhere.
            CHECK((accesses[0].key >> 32) == home);
            CHECK((accesses[2].key >> 32) == home);
            const bool remote = (accesses[4].key >> 32) != home;
            remotePayments += remote ? 1 : 0;
            CHECK(workload.PartitionOf(accesses[0].key) == home / 4);
        }
    }
    CHECK(ShareNear(kinds[TpccWorkload::kNewOrder], draws, 0.5));
    CHECK(ShareNear(kinds[TpccWorkload::kPayment], draws, 0.4));
    CHECK(ShareNear(remoteLines, lines, 0.1));
    CHECK(ShareNear(remotePayments, payments, 0.15));
}

TEST_CASE("TPC-C at Gotthard's scale has one warehouse, Payment and Order-Status",
          "[txn][workload]")
{
    const TpccWorkload workload(TpccWorkload::GotthardScale());
    CHECK(workload.KindNames() == std::vector<std::string>{"payment", "order_status"});
    Rng rng(1, "tpcc-gotthard-test");
    Transaction txn;
    std::vector<Access> accesses;
    for (int i = 0; i < 1000; ++i)
    {
        workload.Next(static_cast<uint32_t>(i), rng, txn);
        CHECK(txn.kind != TpccWorkload::kNewOrder);
        accesses.clear();
        workload.Execute(txn, Zeros(), accesses);
        for (const Access& a : accesses)
        {
            CHECK(a.key < (uint64_t{1} << 32));  // Gotthard's wire has 32-bit keys
        }
    }
}

TEST_CASE("The shared workload fields resolve to defaults and refuse bad values by path",
          "[txn][workload]")
{
    Spec spec = Spec::Object();
    AddYcsbtFields(spec);
    AddTpccFields(spec);
    const auto resolve = [&spec](const char* text) {
        return spec.Resolve(nlohmann::json::parse(text), "w.json", "/workload");
    };
    const nlohmann::json defaults = resolve("{}");
    const ParamView view(&defaults, "w.json", "/workload");
    const YcsbtWorkload::Config ycsbt = ReadYcsbtConfig(view, 8);
    CHECK(ycsbt.partitionsPerTxn == 8);
    CHECK(ycsbt.ops == 8);
    CHECK(ycsbt.columns == 24);
    const TpccWorkload::Config tpcc = ReadTpccConfig(view, 8);
    CHECK(tpcc.warehousesPerPartition == 1);
    CHECK(tpcc.newOrder + tpcc.payment == Approx(1.0));
    CHECK_NOTHROW(YcsbtWorkload(ycsbt));
    CHECK_NOTHROW(TpccWorkload(tpcc));

    CHECK_THROWS_WITH(resolve(R"({"theta": 11})"), Catch::Contains("/workload/theta"));
    const auto refused = [&](const char* text, auto read) {
        const nlohmann::json value = resolve(text);
        read(ParamView(&value, "w.json", "/workload"));
    };
    CHECK_THROWS_WITH(refused(R"({"partitions_per_txn": 9})",
                              [](const ParamView& v) { ReadYcsbtConfig(v, 8); }),
                      Catch::Contains("/workload/partitions_per_txn") &&
                          Catch::Contains("but there are 8"));
    CHECK_THROWS_WITH(refused(R"({"partitions_per_txn": 4, "ops": 3})",
                              [](const ParamView& v) { ReadYcsbtConfig(v, 8); }),
                      Catch::Contains("/workload/ops"));
    CHECK_THROWS_WITH(refused(R"({"records": 1, "columns": 1, "ops": 9})",
                              [](const ParamView& v) { ReadYcsbtConfig(v, 8); }),
                      Catch::Contains("/workload/ops") && Catch::Contains("hold 8 keys"));
    CHECK_THROWS_WITH(refused(R"({"new_order": 0.7, "payment": 0.5})",
                              [](const ParamView& v) { ReadTpccConfig(v, 8); }),
                      Catch::Contains("/workload/payment") &&
                          Catch::Contains("add up to more than 1"));
    CHECK_THROWS_WITH(refused(R"({"min_lines": 9, "max_lines": 8})",
                              [](const ParamView& v) { ReadTpccConfig(v, 8); }),
                      Catch::Contains("/workload/min_lines"));
}

namespace
{

/// Values set by the writes of earlier transactions, as if each committed.
class Written : public ValueView
{
  public:
    uint64_t Value(uint64_t key) const override
    {
        const auto it = m_values.find(key);
        return it == m_values.end() ? 0 : it->second;
    }
    void Set(uint64_t key, uint64_t value) { m_values[key] = value; }

  private:
    std::map<uint64_t, uint64_t> m_values;
};

/// FNV-1a over 2000 transactions of 8 clients (Gotthard's client streams, seed 1): kind, then
/// each operation's Gotthard type (1 read = fetch, 2 write, 3 compare = read), key and value.
uint64_t
GotthardDigest(const Workload& workload)
{
    std::vector<Rng> rngs;
    for (uint32_t c = 0; c < 8; ++c)
    {
        rngs.emplace_back(1, "gotthard-client", c);
    }
    Written values;
    Transaction txn;
    std::vector<Access> accesses;
    uint64_t hash = 14695981039346656037ull;
    const auto mix = [&hash](uint64_t word) {
        for (int byte = 0; byte < 8; ++byte)
        {
            hash = (hash ^ ((word >> (8 * byte)) & 0xff)) * 1099511628211ull;
        }
    };
    for (uint32_t i = 0; i < 2000; ++i)
    {
        workload.Next(i % 8, rngs[i % 8], txn);
        accesses.clear();
        workload.Execute(txn, values, accesses);
        mix(txn.kind);
        for (const Access& a : accesses)
        {
            mix(a.type == AccessType::Fetch ? 1 : a.type == AccessType::Write ? 2 : 3);
            mix(a.key);
            mix(a.value);
            if (a.type == AccessType::Write)
            {
                values.Set(a.key, a.value);
            }
        }
    }
    return hash;
}

} // namespace

TEST_CASE("Gotthard's workloads draw and execute exactly as before the shared layer",
          "[txn][workload]")
{
    // The digests of the same streams through Gotthard's own workload code of commit bed6e35
    // (MicroWorkload, TpccWorkload), which its figures were made with: a changed draw order,
    // key or value would change Gotthard's results.
    const std::vector<uint32_t> groups = {0, 0, 0, 0, 1, 1, 1, 1};
    const auto kv = [&groups](double writes, uint64_t keys, double theta, bool locality,
                              double localFraction) {
        KvWorkload::Config config;
        config.writes = writes;
        config.keys = keys;
        config.distribution = KvWorkload::Distribution::Zipf;
        config.theta = theta;
        config.locality = locality;
        config.localFraction = localFraction;
        return GotthardDigest(KvWorkload(config, groups));
    };
    CHECK(kv(0.2, 1, 0, false, 1) == 0x6492b24183644a00);
    CHECK(kv(0.5, 10, 1.0, false, 1) == 0xc3ca3a65a1be6edc);
    CHECK(kv(0.3, 10, 3, true, 0.5) == 0x9d3c1eca36b7350f);
    CHECK(GotthardDigest(TpccWorkload(TpccWorkload::GotthardScale())) == 0xbc634f1670a4577e);
    TpccWorkload::Config other = TpccWorkload::GotthardScale();
    other.payment = 0.5;
    other.districts = 3;
    other.customers = 7;
    CHECK(GotthardDigest(TpccWorkload(other)) == 0xa833666f7adbfc8c);
}
