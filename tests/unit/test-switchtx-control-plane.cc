// SwitchTx's in-switch GaS control plane: switch ids, scatter groups, coordination trees and
// per-phase slices (protocols/switchtx/control-plane/), unit-tested on topologies and run
// through real switchtx.p4 pipelines with scripted hosts.

#include "test-support.h"

#include "protocols/switchtx/control-plane/coordination-tree.h"
#include "protocols/switchtx/control-plane/gas-network.h"
#include "protocols/switchtx/gas-slice.h"
#include "sim/core/diagnostics.h"
#include "sim/host/host-node.h"
#include "sim/runner/world.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"
#include "sim/topology/topology-registry.h"
#include "topologies/register.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <set>

using namespace incsim;
using namespace incsim::test;
using namespace incsim::switchtx;
namespace contract = incsim::p4gen::switchtx::contract;

namespace
{

Topology
Generate(const std::string& name, const nlohmann::json& params)
{
    RegisterTopologyGenerators();
    LinkParams link;
    link.rateBps = 100'000'000'000;
    link.delayNs = 500;
    link.bufferBytes = 256 * 1024;
    const TopologyGenerator& generator = TopologyGenerators().Get(name);
    const nlohmann::json resolved =
        generator.params().Resolve(params, "scenario.json", "/topology/params");
    return generator.build(ParamView(&resolved, "scenario.json", "/topology/params"), link);
}

std::vector<uint32_t>
AllHosts(const Topology& topology)
{
    std::vector<uint32_t> hosts(topology.Hosts().size());
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        hosts[h] = h;
    }
    return hosts;
}

uint32_t
NodeOf(const Topology& topology, const std::string& name)
{
    return *topology.FindNode(name);
}

std::string
ErrorOf(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const ConfigError& error)
    {
        return error.what();
    }
    return "";
}

/// Fig. 4's commit: lock by W_P scattered to R_P (W_B without readers), validate by R_P to W_B,
/// replicate by W_B to W_P, commit by W_P to the client.
GasTransaction
Occ(uint32_t client, const std::vector<uint32_t>& wp, const std::vector<uint32_t>& rp,
    const std::vector<uint32_t>& wb)
{
    GasTransaction txn;
    txn.client = client;
    txn.phases.push_back({wp, rp.empty() ? wb : rp});
    if (!rp.empty())
    {
        txn.phases.push_back({rp, wb});
    }
    txn.phases.push_back({wb, wp});
    txn.phases.push_back({wp, {}});
    txn.failReceivers = wp;
    txn.failReceivers.insert(txn.failReceivers.end(), wb.begin(), wb.end());
    return txn;
}

uint8_t
PhaseType(const GasTransaction& txn, size_t phase)
{
    const bool validate = txn.phases.size() == 4;
    if (phase + 1 == txn.phases.size())
    {
        return contract::TYPE_COMMIT_OK;
    }
    if (phase == 0)
    {
        return contract::TYPE_LOCK_OK;
    }
    return validate && phase == 1 ? contract::TYPE_VALIDATE_OK : contract::TYPE_REPLICATE_OK;
}

} // namespace

TEST_CASE("switchtx control plane: Fig. 8's tree on the multi-switch testbed", "[switchtx-gas]")
{
    const Topology topology = Generate("switchtx-testbed", {{"layout", "multi"}});
    const uint32_t core = NodeOf(topology, "core");
    const uint32_t rack1 = NodeOf(topology, "rack1");
    // P0, P1, P2, P4, P5 over the three racks (server i in rack i mod 3); the client srv3.
    const GasTransaction txn = Occ(3, {0, 1, 2, 4, 5}, {}, {0, 1, 2, 4, 5});

    SECTION("tree scope: the leaves gather their racks, the root weighs them")
    {
        GasNetwork network(topology, AllHosts(topology), GasScope::Tree);
        GasPlanner planner(network);
        CHECK(planner.Roots(txn.Hosts()) == std::vector<uint32_t>{core});
        const GasPlan plan = planner.Next(txn);
        CHECK(plan.Tree().Switches().size() == 4);

        const GasSlices& p4 = plan.Phase(0, 4);
        CHECK(p4.path[0].switchId == network.SwitchId(rack1));
        CHECK(p4.path[0].threshold == 2); // P1, P4
        CHECK(p4.path[0].parentPort == topology.Link(*topology.FindLink(rack1, core)).portA);
        CHECK(p4.path[1].switchId == network.SwitchId(core));
        CHECK(p4.path[1].parentPort == GasSlice::kNoParent);
        // Weighted: 5 participants. The paper counts the three child switches (threshold 3):
        // the leaves' thresholds add up to the root's, one message from each.
        CHECK(p4.path[1].threshold == 5);
        uint16_t leaves = 0;
        int children = 0;
        for (uint32_t sender : {0u, 1u, 2u})
        {
            leaves += plan.Phase(0, sender).path[0].threshold;
            ++children;
        }
        CHECK(leaves == 5);
        CHECK(children == 3);
        CHECK(p4.path[2].switchId == 0);
        // The scatter to W_B (the same hosts) reaches the racks of P0 and P2 by down slices.
        std::set<uint8_t> downs;
        for (const GasDownSlice& d : p4.down)
        {
            if (d.switchId != 0)
            {
                downs.insert(d.switchId);
                CHECK(d.scatterGroup != 0);
            }
        }
        CHECK(downs == std::set<uint8_t>{network.SwitchId(NodeOf(topology, "rack0")),
                                         network.SwitchId(NodeOf(topology, "rack2"))});
        // The root scatters to its three racks: 3 down ports, all set.
        CHECK(p4.path[1].scatterGroup == 0b111);
        // Init: up through rack0 untouched, the root sends it down to all three racks.
        const GasSlices& init = plan.Init();
        CHECK(init.path[1].scatterGroup == 0b111);
        CHECK(init.path[0].scatterGroup == 0);
        // Commit: the root routes the last commit_ok to the client; no scatter anywhere.
        const GasSlices& commit = plan.Phase(2, 1);
        CHECK(commit.path[1].scatterGroup == 0);
        CHECK(commit.path[1].threshold == 5);
        CHECK(commit.down[0].switchId == 0);
        // A fail: threshold 1, to every write participant and the client.
        const GasSlices& fail = plan.Fail(4);
        CHECK(fail.path[0].threshold == 1);
        CHECK(fail.path[1].scatterGroup == 0b111);
        CHECK_THROWS_AS(plan.Phase(0, 3), std::out_of_range);
    }

    SECTION("root scope: the racks relay, the core counts every participant")
    {
        GasNetwork network(topology, AllHosts(topology), GasScope::Root);
        CHECK(network.IsRelay(rack1));
        CHECK_FALSE(network.IsRelay(core));
        GasPlanner planner(network);
        const GasPlan plan = planner.Next(txn);
        const GasSlices& p4 = plan.Phase(0, 4);
        CHECK(p4.path[0].threshold == 0);
        CHECK(p4.path[1].threshold == 5);
        // Even a one-rack transaction goes to the core.
        CHECK(planner.Roots({0, 3, 6}) == std::vector<uint32_t>{core});
        GasNetwork tree(topology, AllHosts(topology), GasScope::Tree);
        CHECK(GasPlanner(tree).Roots({0, 3, 6}) ==
              std::vector<uint32_t>{NodeOf(topology, "rack0")});
    }
}

TEST_CASE("switchtx control plane: fat-tree roots at the LCA level, round robin per client",
          "[switchtx-gas]")
{
    const Topology topology = Generate("fat-tree", {{"k", 8}});
    GasNetwork network(topology, AllHosts(topology), GasScope::Tree);
    GasPlanner planner(network);
    // h0..h3 under e0_0, h0..h15 in pod 0, 16 per pod.
    CHECK(planner.Roots({0, 1, 3}).size() == 1);
    CHECK(network.Level(planner.Roots({0, 1, 3})[0]) == 1);
    CHECK(planner.Roots({0, 4, 15}).size() == 4);
    CHECK(network.Level(planner.Roots({0, 4, 15})[0]) == 2);
    const std::vector<uint32_t> cores = planner.Roots({0, 16, 127});
    CHECK(cores.size() == 16);
    CHECK(network.Level(cores[0]) == 3);

    // Eight servers in eight pods: 8 ToRs + 8 aggs + the core; every message fits.
    const GasTransaction txn = Occ(0, {0, 16, 32, 48}, {64, 80}, {96, 112});
    std::set<uint32_t> roots;
    for (size_t i = 0; i < cores.size(); ++i)
    {
        const GasPlan plan = planner.Next(txn);
        CHECK(plan.Tree().Switches().size() == 17);
        roots.insert(plan.Tree().Root());
        CHECK(plan.Tree().PathOf(32).size() == 3);
    }
    CHECK(roots.size() == 16);
    // Another client keeps its own turn.
    GasTransaction other = txn;
    other.client = 1;
    CHECK(planner.Next(other).Tree().Root() == cores[0]);
}

TEST_CASE("switchtx control plane: limits are clear errors", "[switchtx-gas]")
{
    SECTION("more down ports than a group bitmap holds")
    {
        const Topology topology =
            Generate("switchtx-testbed", {{"layout", "single"}, {"servers", 17}});
        CHECK(ErrorOf([&] { GasNetwork(topology, AllHosts(topology), GasScope::Tree); }) ==
              "switchtx: switch rack0 has 17 down ports (to servers and to switches with servers "
              "below); a scatter group is a bitmap of at most 16");
    }
    SECTION("more than 255 switches")
    {
        const Topology topology = Generate("fat-tree", {{"k", 16}});
        CHECK(ErrorOf([&] { GasNetwork(topology, AllHosts(topology), GasScope::Tree); })
                  .find("switch ids are 8 bits (1..255)") != std::string::npos);
    }
    SECTION("a transaction whose tree needs more down slices than the header has")
    {
        const Topology topology = Generate("fat-tree", {{"k", 8}});
        GasNetwork network(topology, AllHosts(topology), GasScope::Tree);
        GasPlanner planner(network);
        // 24 servers on 24 ToRs: 8 aggs + 24 ToRs below the core.
        std::vector<uint32_t> wp;
        for (uint32_t h = 0; h < 128; h += 4)
        {
            if (h % 16 != 12)
            {
                wp.push_back(h);
            }
        }
        const std::string error = ErrorOf([&] { planner.Next(Occ(0, wp, {}, wp)); });
        CHECK(error.find("a control message has down slices for 16") != std::string::npos);
        CHECK(error.find("h0, h4") != std::string::npos);
    }
    SECTION("a host that is not a server")
    {
        const Topology topology = Generate("fat-tree", {{"k", 4}});
        GasNetwork network(topology, {0, 1, 2, 3}, GasScope::Tree);
        CHECK(ErrorOf([&] { GasPlanner(network).Roots({0, 5}); }) ==
              "switchtx: host h5 of a transaction is not a server");
    }
}

TEST_CASE("switchtx control plane: GasSlices on the wire", "[switchtx-gas]")
{
    GasSlices slices;
    slices.path[0] = {7, 0x0102, 0x0304, 0x0506};
    slices.path[2] = {9, 1, GasSlice::kNoParent, 0x8001};
    slices.down[15] = {200, 0xBEEF};
    std::vector<uint8_t> bytes(GasSlices::kWireBytes);
    WriteGasSlices(slices, bytes.data());
    CHECK(GasSlices::kWireBytes == 69);
    CHECK(bytes[0] == 7);
    CHECK(bytes[1] == 0x01);
    CHECK(bytes[6] == 0x06);
    CHECK(bytes[66] == 200);
    CHECK(bytes[68] == 0xEF);
    CHECK(ReadGasSlices(bytes.data()) == slices);
}

namespace
{

constexpr uint16_t kControlPort = contract::SWITCHTX_PORT;

/// A world with switchtx.p4 on every switch, configured by GasNetwork, and a recording endpoint
/// on the control port of every host.
class GasWorld
{
  public:
    GasWorld(const std::string& topology, GasScope scope, uint8_t mode = contract::MODE_NORMAL)
        : m_world(R"({"duration": "10ms", "topology": )" + topology +
                  R"(, "links": {"rate": "100Gbps", "delay": "500ns"},
                      "protocol": {"name": "udp"}, "outputs": {"traces": []}})"),
          m_network(m_world->GetTopology(), AllHosts(m_world->GetTopology()), scope),
          m_planner(m_network)
    {
        m_world->SetPipelineFactory(m_world->ProgramPipelineFactory(
            contract::kProgram, "/switch/program",
            [this, mode](P4Pipeline& pipeline, SwitchDevice& device) {
                m_network.Configure(pipeline, device, mode);
            }));
        for (uint32_t h = 0; h < m_world->NumHosts(); ++h)
        {
            m_endpoints.push_back(BindRecorder(m_world->Host(h), kControlPort));
        }
    }

    GasPlanner& Planner() { return m_planner; }
    uint32_t NumHosts() const { return static_cast<uint32_t>(m_endpoints.size()); }

    /// Host `from` sends a control message of `type` for `txnId` to `to`.
    void Send(uint32_t from, uint32_t to, uint8_t type, uint32_t txnId, const GasSlices& slices)
    {
        std::vector<uint8_t> bytes(8 + GasSlices::kWireBytes);
        bytes[0] = type;
        bytes[3] = 1; // count
        for (int i = 0; i < 4; ++i)
        {
            bytes[4 + i] = static_cast<uint8_t>(txnId >> (24 - 8 * i));
        }
        WriteGasSlices(slices, bytes.data() + 8);
        REQUIRE(m_endpoints[from]->SendTo(to, kControlPort, bytes,
                                          static_cast<uint32_t>(bytes.size())));
    }

    /// Runs 100 us more, then returns what each host received meanwhile: (type, txn) -> hosts,
    /// a host once per copy.
    std::map<std::pair<uint8_t, uint32_t>, std::multiset<uint32_t>> Step()
    {
        std::vector<size_t> before;
        for (const auto& endpoint : m_endpoints)
        {
            before.push_back(endpoint->Received().size());
        }
        m_nowPs += Us(100);
        RunUntilPs(m_nowPs);
        std::map<std::pair<uint8_t, uint32_t>, std::multiset<uint32_t>> got;
        for (uint32_t h = 0; h < m_endpoints.size(); ++h)
        {
            const auto& received = m_endpoints[h]->Received();
            for (size_t i = before[h]; i < received.size(); ++i)
            {
                const std::vector<uint8_t>& b = received[i].bytes;
                REQUIRE(b.size() >= 8);
                const uint32_t txn = (uint32_t{b[4]} << 24) | (uint32_t{b[5]} << 16) |
                                     (uint32_t{b[6]} << 8) | b[7];
                got[{b[0], txn}].insert(h);
            }
        }
        return got;
    }

  private:
    TestWorld m_world;
    GasNetwork m_network;
    GasPlanner m_planner;
    std::vector<ns3::Ptr<RecordingEndpoint>> m_endpoints;
    int64_t m_nowPs = 0;
};

std::vector<uint32_t>
Pick(std::mt19937& rng, const std::vector<uint32_t>& from, size_t n)
{
    std::vector<uint32_t> picked = from;
    std::shuffle(picked.begin(), picked.end(), rng);
    picked.resize(n);
    std::sort(picked.begin(), picked.end());
    return picked;
}

/// A random OCC transaction over at most 8 servers (the paper's 8 per transaction).
GasTransaction
RandomTxn(std::mt19937& rng, uint32_t numHosts)
{
    std::vector<uint32_t> all(numHosts);
    for (uint32_t h = 0; h < numHosts; ++h)
    {
        all[h] = h;
    }
    const std::vector<uint32_t> hosts =
        Pick(rng, all, std::min<uint32_t>(numHosts, 2 + rng() % 7));
    auto subset = [&](size_t lo) {
        const size_t n = lo + rng() % (hosts.size() - lo + 1);
        return Pick(rng, hosts, std::max<size_t>(n, lo));
    };
    return Occ(hosts[rng() % hosts.size()], subset(1), subset(0), subset(1));
}

std::multiset<uint32_t>
Once(std::vector<uint32_t> hosts)
{
    std::sort(hosts.begin(), hosts.end());
    hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
    return {hosts.begin(), hosts.end()};
}

using Received = std::map<std::pair<uint8_t, uint32_t>, std::multiset<uint32_t>>;

/// Runs `txn` phase by phase; a phase's receivers get exactly one copy each, nobody else gets
/// anything, and the client one commit_ok. With `failAt`, one sender of that phase fails
/// instead: the fail receivers and the client (not the sender) get it once, and the other
/// senders' messages are dropped.
void
RunTxn(GasWorld& world, const GasTransaction& txn, const GasPlan& plan, uint32_t txnId,
       std::optional<size_t> failAt = std::nullopt)
{
    world.Send(txn.client, txn.client, contract::TYPE_INIT, txnId, plan.Init());
    CHECK(world.Step().empty());
    for (size_t p = 0; p < txn.phases.size(); ++p)
    {
        const GasPhase& phase = txn.phases[p];
        const uint8_t type = PhaseType(txn, p);
        INFO("phase " << p << " type " << int(type));
        if (failAt == p)
        {
            const uint32_t failing = phase.senders.back();
            world.Send(failing, txn.client, contract::TYPE_FAIL, txnId, plan.Fail(failing));
            std::vector<uint32_t> expected = txn.failReceivers;
            expected.push_back(txn.client);
            std::multiset<uint32_t> want = Once(expected);
            want.erase(failing);
            Received got = world.Step();
            CHECK(got == Received{{{contract::TYPE_FAIL, txnId}, want}});
            for (uint32_t sender : phase.senders)
            {
                if (sender != failing)
                {
                    world.Send(sender, txn.client, type, txnId, plan.Phase(p, sender));
                }
            }
            CHECK(world.Step().empty());
            return;
        }
        for (uint32_t sender : phase.senders)
        {
            world.Send(sender, txn.client, type, txnId, plan.Phase(p, sender));
        }
        const std::multiset<uint32_t> want =
            phase.receivers.empty() ? std::multiset<uint32_t>{txn.client} : Once(phase.receivers);
        CHECK(world.Step() == Received{{{type, txnId}, want}});
    }
}

void
RandomTransactions(const std::string& topology, GasScope scope, uint32_t seed)
{
    InitIncsim();
    GasWorld world(topology, scope);
    std::mt19937 rng(seed);
    for (uint32_t i = 0; i < 12; ++i)
    {
        const GasTransaction txn = RandomTxn(rng, world.NumHosts());
        INFO("transaction " << i << ", client " << txn.client);
        const GasPlan plan = world.Planner().Next(txn);
        // Slot 0x0100 + i; the high half says which attempt.
        const uint32_t txnId = (1u << 16) | (0x100 + i);
        const std::optional<size_t> failAt =
            i % 3 == 2 ? std::optional<size_t>(rng() % (txn.phases.size() - 1)) : std::nullopt;
        RunTxn(world, txn, plan, txnId, failAt);
        if (i % 4 == 3)
        {
            // The slot's next transaction: the old one's messages are stale everywhere.
            const uint32_t nextId = (2u << 16) | (0x100 + i);
            world.Send(txn.client, txn.client, contract::TYPE_INIT, nextId, plan.Init());
            CHECK(world.Step().empty());
            const uint32_t sender = txn.phases[0].senders[0];
            world.Send(sender, txn.client, PhaseType(txn, 0), txnId, plan.Phase(0, sender));
            world.Send(sender, txn.client, contract::TYPE_FAIL, txnId, plan.Fail(sender));
            CHECK(world.Step().empty());
            RunTxn(world, txn, plan, nextId);
        }
    }
}

const char* kTestbedSingle = R"({"generator": "switchtx-testbed", "params": {"layout": "single"}})";
const char* kTestbedMulti = R"({"generator": "switchtx-testbed", "params": {"layout": "multi"}})";
const char* kFatTree4 = R"({"generator": "fat-tree", "params": {"k": 4}})";
const char* kFatTree8 = R"({"generator": "fat-tree", "params": {"k": 8}})";

} // namespace

TEST_CASE("switchtx GaS through switchtx.p4: random transactions, both scopes",
          "[switchtx-gas][world]")
{
    const uint32_t seed = GENERATE(1u, 2u);
    const GasScope scope = GENERATE(GasScope::Tree, GasScope::Root);
    INFO("seed " << seed << (scope == GasScope::Tree ? " tree" : " root"));
    SECTION("testbed, single switch") { RandomTransactions(kTestbedSingle, scope, seed); }
    SECTION("testbed, three racks and a core") { RandomTransactions(kTestbedMulti, scope, seed); }
    SECTION("fat-tree k=4") { RandomTransactions(kFatTree4, scope, seed); }
    SECTION("fat-tree k=8") { RandomTransactions(kFatTree8, scope, seed); }
}

TEST_CASE("switchtx GaS negative controls: early scatter and ignored aborts", "[switchtx-gas][world]")
{
    InitIncsim();
    const GasScope scope = GENERATE(GasScope::Tree, GasScope::Root);
    // Three write primaries in three racks; srv3 reads, srv4 backs up; the client srv6.
    const GasTransaction txn = Occ(6, {0, 1, 2}, {3}, {4});
    const uint32_t txnId = 0x00010200;

    SECTION("early scatter: the first lock_ok alone starts validation")
    {
        GasWorld world(kTestbedMulti, scope, contract::MODE_EARLY_SCATTER);
        const GasPlan plan = world.Planner().Next(txn);
        world.Send(6, 6, contract::TYPE_INIT, txnId, plan.Init());
        world.Step();
        world.Send(0, 6, contract::TYPE_LOCK_OK, txnId, plan.Phase(0, 0));
        CHECK(world.Step() == Received{{{contract::TYPE_LOCK_OK, txnId}, {3}}});
    }
    SECTION("ignored aborts: after a fail, the other primaries' lock_oks still scatter")
    {
        GasWorld world(kTestbedMulti, scope, contract::MODE_IGNORE_ABORTED);
        const GasPlan plan = world.Planner().Next(txn);
        world.Send(6, 6, contract::TYPE_INIT, txnId, plan.Init());
        world.Step();
        world.Send(2, 6, contract::TYPE_FAIL, txnId, plan.Fail(2));
        CHECK(world.Step() == Received{{{contract::TYPE_FAIL, txnId}, {0, 1, 4, 6}}});
        world.Send(0, 6, contract::TYPE_LOCK_OK, txnId, plan.Phase(0, 0));
        world.Send(1, 6, contract::TYPE_LOCK_OK, txnId, plan.Phase(0, 1));
        world.Send(2, 6, contract::TYPE_LOCK_OK, txnId, plan.Phase(0, 2));
        CHECK(world.Step() == Received{{{contract::TYPE_LOCK_OK, txnId}, {3}}});
    }
}
