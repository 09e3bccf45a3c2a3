// Link and switch failures: in-flight and queued frames are dropped with the right reason,
// ports leave their ECMP groups at once, switches without an alternative drop (no_route)
// until routes reconverge, and then delivery resumes.

#include "test-support.h"

#include "protocols/udp/udp-protocol.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"
#include "sim/net/frame.h"
#include "sim/net/link.h"
#include "sim/runner/network-metrics.h"
#include "sim/runner/world.h"
#include "sim/switch/pipeline.h"
#include "sim/switch/switch-device.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

uint64_t
Total(const nlohmann::json& drops)
{
    uint64_t n = 0;
    for (const auto& [reason, count] : drops.items())
    {
        n += count.get<uint64_t>();
    }
    return n;
}

/// Every drop that was traced is counted in metrics.json under the same reason, and every
/// frame a host sent was delivered, dropped, consumed by a switch CPU (`consumed`), or is
/// still in the network.
void
CheckAccounting(const TestWorld& world, const DropRecorder& drops, uint64_t consumed = 0)
{
    nlohmann::json metrics = NetworkMetrics(world.Get())["drops"];
    auto traced = drops.ByReason();
    for (size_t r = 0; r < traced.size(); ++r)
    {
        const char* reason = ToString(static_cast<DropReason>(r));
        INFO("drop reason " << reason);
        CHECK(metrics[reason].get<uint64_t>() == traced[r]);
    }
    uint64_t sent = 0;
    uint64_t received = 0;
    for (uint32_t h = 0; h < world->NumHosts(); ++h)
    {
        sent += world->Host(h).GetCounters().sent;
        received += world->Host(h).GetCounters().received;
    }
    CHECK(sent == received + Total(metrics) + consumed + FramePool::Instance().Outstanding());
}

//   h0 ---- s0 ---- h1      10 frames queued in h0's NIC; the h0--s0 link fails while
//                           frame 0 is on the wire.
const char* kPair = R"({
    "duration": "10ms",
    "topology": {"generator": "star", "params": {"hosts": 2}},
    "links": {"rate": "10Gbps", "delay": "1us"},
    "protocol": {"name": "udp"},
    "outputs": {"traces": []}
})";

//                 c0    c1    c2    c3
//                 | \   |  \  / |  / |      k = 4 fat-tree: a{p}_0 connects to c0 and c1,
//               a0_0  a0_1 ... a3_0 a3_1    a{p}_1 to c2 and c3; each edge switch e{p}_{i}
//                 | X |                      to both aggregation switches of its pod and to
//               e0_0  e0_1 ...               two hosts. UDP traffic between all 16 hosts.
//               h0 h1 h2 h3 ...
const char* kFatTree = R"({
    "duration": "1200us",
    "seed": 3,
    "topology": {"generator": "fat-tree", "params": {"k": 4}},
    "links": {"rate": "10Gbps", "delay": "1us", "buffer": "512KiB"},
    "routing": {"reconverge_delay": "200us"},
    "protocol": {"name": "udp"},
    "workload": {"pattern": "uniform", "message_size": "1000B", "load": 0.4},
    "outputs": {"traces": []}
})";

constexpr int64_t kFault = Us(300);
constexpr int64_t kReconverged = Us(500);

uint64_t
FragmentsReceived(const TestWorld& world)
{
    return dynamic_cast<UdpProtocol&>(*world.GetProtocol()).Stats().fragmentsReceived;
}

/// Fragments delivered per microsecond after reconvergence (520us to the end) relative to
/// the rate before the fault (0 to 299us), from a snapshot at each of those times.
double
DeliveryRatio(const TestWorld& world, uint64_t beforeFault, uint64_t afterReconvergence)
{
    double before = static_cast<double>(beforeFault) / 299;
    double after = static_cast<double>(FragmentsReceived(world) - afterReconvergence) / 680;
    return after / before;
}

/// Whether any route at any node uses port `port` of `node`.
bool
RoutesUse(const World& world, uint32_t node, uint32_t port)
{
    for (uint32_t n = 0; n < world.GetTopology().NumNodes(); ++n)
    {
        for (uint32_t dst = 0; dst < world.NumHosts(); ++dst)
        {
            for (uint32_t p : world.Routes().NextHops(n, dst))
            {
                if (n == node && p == port)
                {
                    return true;
                }
            }
        }
    }
    return false;
}

} // namespace

TEST_CASE("A failing link drops the frame on the wire and the frames queued for it",
          "[faults]")
{
    InitIncsim();
    TestWorld world(kPair);
    DropRecorder drops(world.Get());
    auto tx = BindRecorder(world.Host("h0"), 1000);
    auto rx = BindRecorder(world.Host("h1"), 2000);
    const uint32_t link = world.LinkId("h0", "s0");
    for (uint32_t i = 0; i < 10; ++i)
    {
        tx->SendTagged(1, 2000, i, 958);
    }
    // Frame 0 takes 819.2ns to serialise; fail the link half-way.
    AtPs(Ns(400), [&] { world->SetLinkUp(link, false); });
    AtPs(Us(50), [&] {
        // Sent while the link is down: dropped as it goes onto the link.
        tx->SendTagged(1, 2000, 10, 958);
    });
    AtPs(Us(100), [&] { world->SetLinkUp(link, true); });
    AtPs(Us(150), [&] {
        for (uint32_t i = 11; i < 15; ++i)
        {
            tx->SendTagged(1, 2000, i, 958);
        }
    });
    RunUntilPs(Us(200));

    CHECK(rx->Tags() == std::vector<uint32_t>{11, 12, 13, 14});
    REQUIRE(drops.Drops().size() == 11);
    std::vector<uint32_t> dropped;
    for (const auto& d : drops.Drops())
    {
        CHECK(d.reason == DropReason::LinkDown);
        CHECK(d.node == world.Node("h0"));
        dropped.push_back(d.tag);
    }
    // The frame on the wire first, then the queue, all at the moment of the failure.
    CHECK(dropped == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    CHECK(drops.CountBetween(DropReason::LinkDown, Ns(400), Ns(401)) == 10);
    CHECK(world->GetLink(link).GetCounters(0).downDrops == 2); // on the wire, and frame 10
    CheckAccounting(world, drops);
}

TEST_CASE("A crashed switch drops what it had queued (node_down)", "[faults]")
{
    InitIncsim();
    //   h0 --.
    //         s0 ---- h2     h0 and h1 each send 20 frames at once: s0's port to h2 queues.
    //   h1 --'               s0 crashes at 10us.
    TestWorld world(R"({
        "duration": "10ms",
        "topology": {"generator": "star", "params": {"hosts": 3}},
        "links": {"rate": "10Gbps", "delay": "1us"},
        "protocol": {"name": "udp"},
        "outputs": {"traces": []}
    })");
    DropRecorder drops(world.Get());
    auto a = BindRecorder(world.Host("h0"), 1000);
    auto b = BindRecorder(world.Host("h1"), 1000);
    auto rx = BindRecorder(world.Host("h2"), 2000);
    for (uint32_t i = 0; i < 20; ++i)
    {
        a->SendTagged(2, 2000, i, 958);
        b->SendTagged(2, 2000, 100 + i, 958);
    }
    uint64_t queuedAtCrash = 0;
    AtPs(Us(10), [&] {
        queuedAtCrash = world->PortOf(world.Node("s0"), 2).QueuedFrames();
        world->SetNodeUp(world.Node("s0"), false);
    });
    RunUntilPs(Us(100));

    REQUIRE(queuedAtCrash > 0);
    CHECK(drops.Count(DropReason::NodeDown) == queuedAtCrash);
    CHECK(drops.CountAt(DropReason::NodeDown, world.Node("s0")) == queuedAtCrash);
    // Nothing is lost without a trace: 40 frames, each delivered or dropped once.
    CHECK(rx->Received().size() + drops.Drops().size() == 40);
    for (const auto& d : drops.Drops())
    {
        CHECK(d.timePs == Us(10));
    }
    CheckAccounting(world, drops);
}

TEST_CASE("A crashed switch drops what waited for its CPU (node_down)", "[faults]")
{
    InitIncsim();
    //   h0 ---- s0 ---- h1     s0's program punts every frame to its CPU (2us per frame);
    //                          h0 sends 10 frames at once; s0 crashes at 6us.
    TestWorld world(kPair);
    struct PuntAll : SwitchPipeline
    {
        explicit PuntAll(uint32_t cpu)
            : cpuPort(cpu)
        {
        }
        void Ingress(Frame& frame) override { frame.meta.egressSpec = cpuPort; }
        std::string Name() const override { return "punt-all"; }
        uint32_t cpuPort;
    };
    world->SetPipelineFactory(
        [](SwitchDevice& device) { return std::make_unique<PuntAll>(device.CpuPort()); });
    SwitchDevice& s0 = world.Switch("s0");
    uint64_t served = 0;
    s0.SetCpuHandler([&](FramePtr) { ++served; });
    DropRecorder drops(world.Get());
    auto tx = BindRecorder(world.Host("h0"), 1000);
    for (uint32_t i = 0; i < 10; ++i)
    {
        tx->SendTagged(1, 2000, i, 958);
    }
    AtPs(Us(6), [&] { world->SetNodeUp(world.Node("s0"), false); });
    RunUntilPs(Us(100));

    const uint64_t reached = s0.GetCounters().toCpu;
    REQUIRE(reached > served);
    CHECK(drops.CountAt(DropReason::NodeDown, world.Node("s0")) == reached - served);
    CHECK(served + drops.Drops().size() == 10);
    CheckAccounting(world, drops, served);
}

TEST_CASE("Aggregation-core link down: local failover, no_route without an alternative until "
          "reconvergence, then delivery resumes, and link up restores it",
          "[faults]")
{
    InitIncsim();
    TestWorld world(kFatTree,
                    {R"(faults=[{"at": "300us", "action": "link_down", "link": ["a0_0", "c0"]},
                                {"at": "700us", "action": "link_up", "link": ["a0_0", "c0"]}])"},
                    true);
    DropRecorder drops(world.Get());
    const uint32_t a00 = world.Node("a0_0");
    const uint32_t c0 = world.Node("c0");
    const EgressPort& upToC0 = world->PortOf(a00, world.PortTo("a0_0", "c0"));
    const EgressPort& upToC1 = world->PortOf(a00, world.PortTo("a0_0", "c1"));
    const EgressPort& downFromC0 = world->PortOf(c0, world.PortTo("c0", "a0_0"));

    struct Snapshot
    {
        uint64_t toC0 = 0;
        uint64_t toC1 = 0;
        uint64_t fromC0 = 0;
        uint64_t received = 0;
        bool routesUseLink = true;
    };
    std::map<int64_t, Snapshot> at;
    for (int64_t t : {Us(299), Us(301), Us(499), Us(520), Us(699), Us(899), Us(920), Us(1199)})
    {
        AtPs(t, [&, t] {
            Snapshot& s = at[t];
            s.toC0 = upToC0.GetCounters().transmitted;
            s.toC1 = upToC1.GetCounters().transmitted;
            s.fromC0 = downFromC0.GetCounters().transmitted;
            s.received = FragmentsReceived(world);
            s.routesUseLink = RoutesUse(world.Get(), a00, world.PortTo("a0_0", "c0")) ||
                              RoutesUse(world.Get(), c0, world.PortTo("c0", "a0_0"));
        });
    }
    RunUntilPs(Us(1200));

    // Before the failure the network loses nothing, and the link carries traffic both ways.
    for (const auto& d : drops.Drops())
    {
        CHECK(d.timePs >= kFault);
    }
    CHECK(at[Us(299)].toC0 > 0);
    CHECK(at[Us(299)].fromC0 > 0);
    CHECK(at[Us(299)].routesUseLink);

    // At the failure: frames in flight on the link are lost, at that instant.
    CHECK(drops.Count(DropReason::LinkDown) > 0);
    CHECK(drops.CountBetween(DropReason::LinkDown, kFault, kFault + 1) ==
          drops.Count(DropReason::LinkDown));

    // a0_0 fails over to c1 at once: it never lacks a route and keeps sending upwards.
    CHECK(drops.CountAt(DropReason::NoRoute, a00) == 0);
    CHECK(at[Us(301)].toC0 == at[Us(699)].toC0);
    CHECK(at[Us(499)].toC1 - at[Us(301)].toC1 > 100);

    // c0's only way into pod 0 was the failed link: it drops (no_route) until routes
    // reconverge, and it is the only switch that does.
    CHECK(drops.CountAt(DropReason::NoRoute, c0) > 0);
    CHECK(drops.Count(DropReason::NoRoute) == drops.CountAt(DropReason::NoRoute, c0));
    CHECK(drops.CountBetween(DropReason::NoRoute, kFault, kReconverged) ==
          drops.Count(DropReason::NoRoute));
    // Meanwhile other traffic is delivered.
    CHECK(at[Us(499)].received - at[Us(301)].received > 1000);

    // After reconvergence, no route uses the link and nothing is lost, also once it is back.
    CHECK_FALSE(at[Us(520)].routesUseLink);
    CHECK_FALSE(at[Us(899)].routesUseLink);
    for (const auto& d : drops.Drops())
    {
        CHECK(d.timePs < Us(520));
    }
    CHECK(at[Us(699)].received - at[Us(520)].received > 1000);

    // link_up at 700us; the next reconvergence (900us) puts the link back into the routes.
    CHECK(at[Us(899)].toC0 == at[Us(301)].toC0);
    CHECK(at[Us(920)].routesUseLink);
    CHECK(at[Us(1199)].toC0 > at[Us(920)].toC0);
    CHECK(at[Us(1199)].fromC0 > at[Us(920)].fromC0);
    CheckAccounting(world, drops);
}

TEST_CASE("Switch crash: frames to it are lost, then delivery to reachable hosts resumes",
          "[faults]")
{
    InitIncsim();

    SECTION("an aggregation switch: every host stays reachable")
    {
        TestWorld world(kFatTree,
                        {R"(faults=[{"at": "300us", "action": "node_crash", "node": "a0_0"}])"},
                        true);
        DropRecorder drops(world.Get());
        uint64_t receivedBeforeFault = 0;
        uint64_t receivedAtReconvergence = 0;
        AtPs(Us(299), [&] { receivedBeforeFault = FragmentsReceived(world); });
        AtPs(Us(520), [&] { receivedAtReconvergence = FragmentsReceived(world); });
        RunUntilPs(Us(1200));

        for (const auto& d : drops.Drops())
        {
            INFO("drop " << ToString(d.reason) << " at node "
                         << world->GetTopology().Node(d.node).name << ", " << d.timePs << "ps");
            CHECK(d.timePs >= kFault);
            CHECK(d.timePs < Us(520));
        }
        // The crash takes the switch's links down with it: frames on them are lost.
        CHECK(drops.CountBetween(DropReason::LinkDown, kFault, kFault + 1) > 0);
        // c0 and c1 reached pod 0 only through a0_0: no route until reconvergence.
        const std::set<uint32_t> cores{world.Node("c0"), world.Node("c1")};
        CHECK(drops.Count(DropReason::NoRoute) > 0);
        for (const auto& d : drops.Drops())
        {
            if (d.reason == DropReason::NoRoute)
            {
                CHECK(cores.count(d.node) == 1);
                CHECK(d.timePs < kReconverged);
            }
        }
        // Full delivery again (Poisson arrivals: allow 10%).
        CHECK(DeliveryRatio(world, receivedBeforeFault, receivedAtReconvergence) > 0.9);
        CheckAccounting(world, drops);
    }

    SECTION("an edge switch: its hosts become unreachable, the others are unaffected")
    {
        TestWorld world(kFatTree,
                        {R"(faults=[{"at": "300us", "action": "node_crash", "node": "e0_0"}])"},
                        true);
        DropRecorder drops(world.Get());
        const std::set<uint32_t> cutOff{world.HostIndex("h0"), world.HostIndex("h1")};
        uint64_t receivedBeforeFault = 0;
        uint64_t receivedAtReconvergence = 0;
        AtPs(Us(299), [&] { receivedBeforeFault = FragmentsReceived(world); });
        AtPs(Us(520), [&] { receivedAtReconvergence = FragmentsReceived(world); });
        RunUntilPs(Us(1200));

        for (const auto& d : drops.Drops())
        {
            INFO("drop " << ToString(d.reason) << " at node "
                         << world->GetTopology().Node(d.node).name << ", " << d.timePs << "ps");
            CHECK(d.timePs >= kFault);
            // Only traffic from or to the cut-off hosts is lost, before and after
            // reconvergence: every other pair has a path that avoids e0_0 from the start.
            CHECK((cutOff.count(d.srcHost) == 1 || cutOff.count(d.dstHost) == 1));
        }
        // Frames to the cut-off hosts are refused at the first switch after reconvergence.
        CHECK(drops.CountBetween(DropReason::NoRoute, Us(520), Us(1200)) > 0);
        // The 14 other hosts still reach 13 of their 15 peers: 14 * 13 of the 16 * 15 pairs.
        double ratio = DeliveryRatio(world, receivedBeforeFault, receivedAtReconvergence);
        CHECK(ratio > 0.9 * 14 * 13 / (16 * 15));
        CHECK(ratio < 1.1 * 14 * 13 / (16 * 15));
        CheckAccounting(world, drops);
    }
}
