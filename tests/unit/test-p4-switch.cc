// Switches run generated P4: p4/forward.p4 by default, its state visible by P4 name, the
// scenario's program and entries file applied, and the program's drops classified.

#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/net/headers.h"
#include "sim/runner/world.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"
#include "test-support.h"

#include <ns3/simulator.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <set>

using namespace incsim;
using namespace incsim::test;

namespace
{

const char* kFatTree = R"({"duration": "1ms",
    "topology": {"generator": "fat-tree", "params": {"k": 4}},
    "links": {"rate": "10Gbps", "delay": "1us"},
    "routing": {"ecmp": "per-packet"},
    "protocol": {"name": "udp"}, "outputs": {"traces": []}})";

P4Pipeline&
PipelineOf(SwitchDevice& device)
{
    auto* pipeline = dynamic_cast<P4Pipeline*>(device.GetPipeline());
    REQUIRE(pipeline);
    return *pipeline;
}

uint64_t
SprayCount(SwitchDevice& device)
{
    return PipelineOf(device).Control().ReadRegister("spray_next", 0).Low64();
}

} // namespace

TEST_CASE("every switch runs forward.p4, and per-packet ECMP advances its spray counter",
          "[p4][switch]")
{
    TestWorld world(kFatTree);
    for (const auto& device : world->Switches())
    {
        CHECK(device->GetPipeline()->Name() == "p4:forward");
    }
    auto receiver = BindRecorder(world.Host("h15"), 7000);
    auto sender = BindRecorder(world.Host("h0"), 7001);
    constexpr uint32_t kFrames = 40;
    for (uint32_t i = 0; i < kFrames; ++i)
    {
        AtPs(Us(1 + i), [&, i] { sender->SendTagged(world.HostIndex("h15"), 7000, i, 200); });
    }
    ns3::Simulator::Run();
    REQUIRE(receiver->Received().size() == kFrames);
    // h0 -> h15 crosses pods: every frame chooses among 2 uplinks at its edge switch and at
    // one of pod 0's aggregation switches; cores and the way down have one port each.
    CHECK(SprayCount(world.Switch("e0_0")) == kFrames);
    CHECK(SprayCount(world.Switch("a0_0")) + SprayCount(world.Switch("a0_1")) == kFrames);
    // Spraying alternates: the two pod-0 aggregation switches see half the frames each.
    CHECK(SprayCount(world.Switch("a0_0")) == kFrames / 2);
    for (const char* name : {"c0", "c1", "c2", "c3", "a3_0", "a3_1", "e3_1"})
    {
        INFO(name);
        CHECK(SprayCount(world.Switch(name)) == 0);
    }
}

TEST_CASE("the program drops frames with a reason: TTL expired, no route", "[p4][switch]")
{
    TestWorld world(kFatTree);
    DropRecorder drops(world.Get());
    SwitchDevice& edge = world.Switch("e0_0");
    const uint32_t fromHost = world.PortTo("e0_0", "h0");
    AtPs(Us(1), [&] {
        FramePtr frame = MakeUdpFrame(0, 15, 7000, 7000, 200, 1);
        frame->data[kIpv4TtlOffset] = 1;
        edge.ReceiveFrame(std::move(frame), fromHost);
    });
    AtPs(Us(2), [&] {
        // A destination address no host has.
        FramePtr frame = MakeUdpFrame(0, 15, 7000, 7000, 200, 2);
        StoreBe32(frame->data + kIpv4DstOffset, HostIpv4(1000));
        edge.ReceiveFrame(std::move(frame), fromHost);
    });
    ns3::Simulator::Run();
    CHECK(drops.CountAt(DropReason::TtlExpired, world.Node("e0_0")) == 1);
    CHECK(drops.CountAt(DropReason::NoRoute, world.Node("e0_0")) == 1);
    CHECK(drops.Drops().size() == 2);
}

TEST_CASE("the scenario's switch program and entries file reach every switch", "[p4][switch]")
{
    TempDir dir;
    const std::string entries = dir.Path() + "/entries.json";
    std::ofstream(entries) << R"({"registers": [{"register": "spray_next", "values": [7]}]})";
    TestWorld world(kFatTree, {"switch.entries=" + entries});
    for (const auto& device : world->Switches())
    {
        CHECK(SprayCount(*device) == 7);
    }

    std::ofstream(entries) << R"({"registers": [{"register": "no_such_register", "index": 0}]})";
    CHECK_THROWS_WITH(TestWorld(kFatTree, {"switch.entries=" + entries}),
                      Catch::Contains("/switch/entries") && Catch::Contains("no_such_register"));
    CHECK_THROWS_WITH(TestWorld(kFatTree, {"switch.entries=" + dir.Path() + "/missing.json"}),
                      Catch::Contains("/switch/entries") && Catch::Contains("missing.json") &&
                          Catch::Contains("cannot open"));
    std::ofstream(entries) << "{not json";
    CHECK_THROWS_WITH(TestWorld(kFatTree, {"switch.entries=" + entries}),
                      Catch::Contains("/switch/entries") && Catch::Contains("entries.json:1:"));
    CHECK_THROWS_WITH(TestWorld(kFatTree, {"switch.program=missing"}),
                      Catch::Contains("/switch/program") &&
                          Catch::Contains("no P4 program 'missing'") &&
                          Catch::Contains("forward"));
}

namespace
{

/// The ports forward.p4's tables send `dst` to, read back from the tables the installer wrote:
/// ipv4_route -> ecmp_group (member count) -> ecmp_member rows. Empty: dropped (no route).
std::set<uint32_t>
PortsInTables(p4rt::ControlPlane& control, uint32_t address)
{
    const uint8_t key[4] = {static_cast<uint8_t>(address >> 24), static_cast<uint8_t>(address >> 16),
                            static_cast<uint8_t>(address >> 8), static_cast<uint8_t>(address)};
    p4rt::Table& route = control.GetTable("ipv4_route");
    const p4rt::TableEntry* entry = route.Lookup(key);
    if (entry->action != route.ActionByName("set_ecmp_group").id)
    {
        return {};
    }
    const auto group = static_cast<uint16_t>(entry->args[0]);
    p4rt::Table& groups = control.GetTable("ecmp_group");
    const uint8_t groupKey[2] = {static_cast<uint8_t>(group >> 8), static_cast<uint8_t>(group)};
    const p4rt::TableEntry* size = groups.Lookup(groupKey);
    if (!size->hit)
    {
        return {};
    }
    std::set<uint32_t> ports;
    p4rt::Table& members = control.GetTable("ecmp_member");
    for (uint16_t index = 0; index < size->args[0]; ++index)
    {
        const uint8_t memberKey[4] = {groupKey[0], groupKey[1], static_cast<uint8_t>(index >> 8),
                                      static_cast<uint8_t>(index)};
        const p4rt::TableEntry* member = members.Lookup(memberKey);
        REQUIRE(member->hit);
        ports.insert(static_cast<uint32_t>(member->args[0]));
    }
    return ports;
}

} // namespace

TEST_CASE("aggregated routes send every destination where the computed routes do",
          "[p4][switch]")
{
    // A fat-tree (aligned power-of-two blocks) and a WAN with odd host counts per site.
    for (const std::string& scenario :
         {std::string(kFatTree),
          std::string(R"({"duration": "1ms", "topology": {"generator": "wan",
              "params": {"preset": "aws-gotthard", "hosts_per_site": 3}},
              "protocol": {"name": "udp"}, "outputs": {"traces": []}})")})
    {
        TestWorld world(scenario);
        const EcmpRoutes& routes = world->Routes();
        const auto hosts = static_cast<uint32_t>(routes.NumHosts());
        size_t routeEntries = 0;
        for (const auto& device : world->Switches())
        {
            p4rt::ControlPlane& control = PipelineOf(*device).Control();
            for (uint32_t dst = 0; dst < hosts; ++dst)
            {
                const auto hops = routes.NextHops(device->NodeId(), dst);
                INFO(device->Name() << " -> host " << dst);
                CHECK(PortsInTables(control, HostIpv4(dst)) ==
                      std::set<uint32_t>(hops.begin(), hops.end()));
            }
            // Addresses no host has are dropped, just past the last host and far away.
            CHECK(PortsInTables(control, HostIpv4(hosts)).empty());
            CHECK(PortsInTables(control, HostIpv4(hosts + 1000)).empty());
            routeEntries += control.GetTable("ipv4_route").Size();
        }
        if (scenario == kFatTree)
        {
            // A k=4 fat-tree switch needs the cover plus one entry per edge switch or pod
            // below it: at most 4, where per-host routes would take 16.
            CHECK(routeEntries <= 4 * world->Switches().size());
        }
    }
}

TEST_CASE("a switch with more ports than the CPU port's number is an input error",
          "[p4][switch]")
{
    // egress_spec 255 is the CPU: a 256th port was unreachable, and routes to port 512 failed
    // with the P4 runtime's error about a 9-bit parameter, naming no file.
    for (const int hosts : {256, 600})
    {
        INFO(hosts);
        try
        {
            TestWorld world(R"({"duration": "1ms", "protocol": {"name": "udp"},
                                "topology": {"generator": "star", "params": {"hosts": )" +
                            std::to_string(hosts) + "}}}");
            FAIL("no error");
        }
        catch (const InputError& error)
        {
            CHECK(std::string(error.what()) ==
                  "test.json: /topology: switch s0 has " + std::to_string(hosts) +
                      " ports, but port 255 addresses its CPU, so a switch has at most 255");
        }
    }
    TestWorld largest(R"({"duration": "1ms", "protocol": {"name": "udp"},
                          "topology": {"generator": "star", "params": {"hosts": 255}}})");
    CHECK(largest.Switch("s0").NumPorts() == 255);
}
