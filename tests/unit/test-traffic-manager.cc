// The switch traffic manager: per-(port, priority) FIFO queues, strict priority, the byte
// buffer, and serialisation/propagation/pipeline timing.

#include "test-support.h"

#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"
#include "sim/net/headers.h"
#include "sim/runner/network-metrics.h"
#include "sim/runner/world.h"
#include "sim/switch/switch-device.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

//   h0 --.
//   h1 ---- s0 ---- h3      s0 port i leads to h{i}; frames are injected into s0 as if they
//   h2 --'                  had arrived on ports 0..2, all for h3 (egress port 3).
//
// 10Gbps links: a 1000-byte frame takes (1000 + 24) * 8 bits / 10Gbps = 819.2ns.
const char* kStar = R"({
    "duration": "1ms",
    "topology": {"generator": "star", "params": {"hosts": 4}},
    "links": {"rate": "10Gbps", "delay": "1us", "buffer": "512KiB"},
    "protocol": {"name": "udp"},
    "outputs": {"traces": []}
})";

constexpr uint16_t kPort = 7000;
constexpr uint32_t kDst = 3;

int64_t
SerialisationPs(uint64_t wireLength, uint64_t rateBps)
{
    return static_cast<int64_t>((wireLength + kWireOverheadBytes) * 8 * 1'000'000'000'000ULL /
                                rateBps);
}

void
Inject(SwitchDevice& device, uint32_t ingress, uint32_t wireLength, uint32_t tag, uint8_t dscp)
{
    device.ReceiveFrame(
        MakeUdpFrame(ingress, kDst, static_cast<uint16_t>(6000 + ingress), kPort, wireLength, tag,
                     dscp),
        ingress);
}

} // namespace

TEST_CASE("Egress queues keep per-(ingress, egress, priority) FIFO order and serve strict "
          "priority",
          "[datapath]")
{
    InitIncsim();
    TestWorld world(kStar);
    auto rx = BindRecorder(world.Host("h3"), kPort);
    SwitchDevice& s0 = world.Switch("s0");

    // Frame 0 finds the port idle and starts at once; frames 1..35 queue behind it, from three
    // ingress ports at three priorities, interleaved.
    const uint8_t priorities[3] = {0, 3, 7};
    struct Sent
    {
        uint32_t ingress;
        uint8_t priority;
    };
    std::vector<Sent> sent;
    for (uint32_t i = 0; i < 36; ++i)
    {
        Sent s{i % 3, priorities[(i / 3 + i) % 3]};
        sent.push_back(s);
        Inject(s0, s.ingress, 500, i, s.priority);
    }
    RunUntilPs(Us(100));

    std::vector<uint32_t> got = rx->Tags();
    REQUIRE(got.size() == sent.size());

    SECTION("(a) within each (ingress, egress, priority), frames leave in arrival order")
    {
        std::map<std::pair<uint32_t, uint8_t>, std::vector<uint32_t>> perQueue;
        for (uint32_t tag : got)
        {
            perQueue[{sent[tag].ingress, sent[tag].priority}].push_back(tag);
        }
        CHECK(perQueue.size() == 9);
        for (const auto& [key, tags] : perQueue)
        {
            INFO("ingress " << key.first << " priority " << int(key.second));
            CHECK(std::is_sorted(tags.begin(), tags.end()));
        }
    }

    SECTION("(b) higher priorities leave first; ties in arrival order")
    {
        std::vector<uint32_t> expected(sent.size() - 1);
        for (uint32_t i = 1; i < sent.size(); ++i)
        {
            expected[i - 1] = i;
        }
        std::stable_sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) {
            return sent[a].priority > sent[b].priority;
        });
        expected.insert(expected.begin(), 0);
        CHECK(got == expected);
    }
}

TEST_CASE("A high-priority frame arriving behind a queue leaves right after the frame on the "
          "wire",
          "[datapath]")
{
    InitIncsim();
    TestWorld world(kStar);
    auto rx = BindRecorder(world.Host("h3"), kPort);
    SwitchDevice& s0 = world.Switch("s0");
    const int64_t s = SerialisationPs(1000, 10'000'000'000);

    for (uint32_t i = 0; i < 10; ++i)
    {
        Inject(s0, 0, 1000, i, 0);
    }
    // Mid-way through frame 2's serialisation.
    AtPs(2 * s + s / 2, [&] { Inject(s0, 1, 1000, 100, 7); });
    RunUntilPs(Us(100));

    CHECK(rx->Tags() == std::vector<uint32_t>{0, 1, 2, 100, 3, 4, 5, 6, 7, 8, 9});
    const auto& received = rx->Received();
    REQUIRE(received.size() == 11);
    // It starts the moment frame 2's last bit is out: no idle gap, no pre-emption.
    CHECK(received[3].timePs - received[2].timePs == s);
    CHECK(received[3].dscp == 7);
}

TEST_CASE("The egress buffer drops exactly the frames beyond its byte budget", "[datapath]")
{
    InitIncsim();

    SECTION("equal frames: the first transmits, ten fill 10000 bytes, five are dropped")
    {
        TestWorld world(kStar, {"links.buffer=\"10000B\""});
        auto rx = BindRecorder(world.Host("h3"), kPort);
        DropRecorder drops(world.Get());
        SwitchDevice& s0 = world.Switch("s0");
        for (uint32_t i = 0; i < 16; ++i)
        {
            Inject(s0, i % 3, 1000, i, 0);
        }
        const EgressPort& port = world->PortOf(world.Node("s0"), kDst);
        CHECK(port.QueuedBytes() == 10000);
        CHECK(port.QueuedFrames() == 10);
        RunUntilPs(Us(100));

        CHECK(rx->Tags() == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        CHECK(port.GetCounters().bufferDrops == 5);
        CHECK(port.GetCounters().maxQueuedBytes == 10000);
        std::vector<uint32_t> dropped;
        for (const auto& d : drops.Drops())
        {
            CHECK(d.reason == DropReason::BufferFull);
            CHECK(d.node == world.Node("s0"));
            CHECK(d.port == kDst);
            dropped.push_back(d.tag);
        }
        CHECK(dropped == std::vector<uint32_t>{11, 12, 13, 14, 15});
        CHECK(NetworkMetrics(world.Get())["drops"]["buffer_full"] == 5);
    }

    SECTION("mixed sizes: a frame that would exceed the budget by one byte is dropped, a "
            "smaller one after it still fits")
    {
        TestWorld world(kStar, {"links.buffer=\"10000B\""});
        auto rx = BindRecorder(world.Host("h3"), kPort);
        SwitchDevice& s0 = world.Switch("s0");
        Inject(s0, 0, 1000, 0, 0); // on the wire at once: not in the buffer
        for (uint32_t i = 1; i <= 9; ++i)
        {
            Inject(s0, 1, 1000, i, 0); // 9000 bytes queued
        }
        Inject(s0, 2, 1001, 10, 0); // 10001 > 10000: dropped
        Inject(s0, 2, 1000, 11, 0); // exactly 10000: fits
        Inject(s0, 0, 60, 12, 7);   // even a minimum frame at top priority: dropped
        RunUntilPs(Us(100));

        CHECK(rx->Tags() == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11});
        CHECK(world->PortOf(world.Node("s0"), kDst).GetCounters().bufferDrops == 2);
    }
}

//   left-h0 --.                                  .-- right-h0
//              left ==(40Gbps, 3us)== right
//   left-h1 --'                                  '-- right-h1
//
// Access links 10Gbps, 1us; switch pipeline delay 700ns. Frames from left-h0 to right-h0.
TEST_CASE("Serialisation, propagation and pipeline delay add up exactly", "[datapath]")
{
    InitIncsim();
    TestWorld world(R"({
        "duration": "1ms",
        "topology": {"generator": "dumbbell",
                     "params": {"left": 2, "right": 2, "bottleneck_rate": "40Gbps",
                                "bottleneck_delay": "3us"}},
        "links": {"rate": "10Gbps", "delay": "1us"},
        "switch": {"pipeline_delay": "700ns"},
        "protocol": {"name": "udp"},
        "outputs": {"traces": []}
    })");
    const uint32_t dst = world.HostIndex("right-h0");
    auto rx = BindRecorder(world.Host("right-h0"), kPort);
    SwitchDevice& left = world.Switch("left");
    SwitchDevice& right = world.Switch("right");
    const uint32_t bottleneck = world.PortTo("left", "right");
    const uint32_t toHost = world.PortTo("right", "right-h0");

    std::vector<int64_t> bottleneckTx;
    std::vector<int64_t> rightRx;
    std::vector<int64_t> hostPortTx;
    OnFrame(world->PortOf(world.Node("left"), bottleneck), "Transmit",
            [&](const Frame&, uint32_t, uint32_t) { bottleneckTx.push_back(NowPs()); });
    OnFrame(right, "Receive", [&](const Frame&, uint32_t, uint32_t) { rightRx.push_back(NowPs()); });
    OnFrame(world->PortOf(world.Node("right"), toHost), "Transmit",
            [&](const Frame&, uint32_t, uint32_t) { hostPortTx.push_back(NowPs()); });

    const int64_t sFast = SerialisationPs(1000, 40'000'000'000);
    const int64_t sSlow = SerialisationPs(1000, 10'000'000'000);
    REQUIRE(sFast == 204'800);
    REQUIRE(sSlow == 819'200);
    const int64_t pipeline = Ns(700);

    SECTION("back-to-back frames injected at the left switch")
    {
        const int n = 8;
        for (int i = 0; i < n; ++i)
        {
            left.ReceiveFrame(MakeUdpFrame(0, dst, 6000, kPort, 1000, i), 0);
        }
        RunUntilPs(Us(100));
        REQUIRE(bottleneckTx.size() == n);
        REQUIRE(rightRx.size() == n);
        REQUIRE(hostPortTx.size() == n);
        REQUIRE(rx->Received().size() == n);
        for (int i = 0; i < n; ++i)
        {
            INFO("frame " << i);
            // First bits leave the bottleneck port exactly one 40Gbps frame time apart.
            CHECK(bottleneckTx[i] == i * sFast);
            // Arrival at the right switch's traffic manager: last bit + propagation + pipeline.
            CHECK(rightRx[i] == bottleneckTx[i] + sFast + Us(3) + pipeline);
            // The 10Gbps port towards the host drains them one 10Gbps frame time apart.
            CHECK(hostPortTx[i] == rightRx[0] + i * sSlow);
            // Hosts have no pipeline: last bit + propagation.
            CHECK(rx->Received()[i].timePs == hostPortTx[i] + sSlow + Us(1));
            CHECK(rx->Received()[i].Tag() == static_cast<uint32_t>(i));
        }
    }

    SECTION("a frame sent by a host")
    {
        auto tx = BindRecorder(world.Host("left-h0"), 6000);
        std::vector<int64_t> leftRx;
        OnFrame(left, "Receive", [&](const Frame&, uint32_t, uint32_t) { leftRx.push_back(NowPs()); });
        AtPs(Us(5), [&] { tx->SendTagged(dst, kPort, 42, 1000 - kUdpFrameOverhead); });
        RunUntilPs(Us(100));
        REQUIRE(leftRx.size() == 1);
        CHECK(leftRx[0] == Us(5) + sSlow + Us(1) + pipeline);
        REQUIRE(rx->Received().size() == 1);
        CHECK(rx->Received()[0].timePs ==
              leftRx[0] + (sFast + Us(3) + pipeline) + (sSlow + Us(1)));
        CHECK(rx->Received()[0].wireLength == 1000);
    }
}
