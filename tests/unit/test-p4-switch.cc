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
    CHECK_THROWS_WITH(TestWorld(kFatTree, {"switch.program=missing"}),
                      Catch::Contains("/switch/program") &&
                          Catch::Contains("no P4 program 'missing'") &&
                          Catch::Contains("forward"));
}
