// Random loss on links: rate within statistical bounds, reproducible per seed.

#include "test-support.h"

#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/frame-sink.h"
#include "sim/net/link.h"
#include "sim/runner/network-metrics.h"
#include "sim/runner/world.h"

#include <ns3/simulator.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

constexpr uint32_t kFrames = 20000;

/// |measured - p| <= 4 standard deviations of a binomial proportion over n trials.
void
CheckWithinFourSigma(uint64_t lost, uint64_t n, double p)
{
    REQUIRE(n > 0);
    double measured = static_cast<double>(lost) / n;
    double sigma = std::sqrt(p * (1 - p) / n);
    INFO("lost " << lost << " of " << n << " (" << measured << "), p = " << p
                 << ", 4 sigma = " << 4 * sigma);
    CHECK(std::abs(measured - p) <= 4 * sigma);
}

struct TagSink : FrameSink
{
    std::vector<bool> delivered = std::vector<bool>(kFrames, false);
    void ReceiveFrame(FramePtr frame, uint32_t) override { delivered.at(TagOf(*frame)) = true; }
};

/// One link on its own, configured with `seed` and then SetLossRate(p): kFrames frames from
/// side 0. Returns which ones arrived at side 1.
std::vector<bool>
DirectLinkPattern(uint64_t seed, double p, Link::Counters* counters = nullptr)
{
    TagSink far;
    TagSink near;
    std::vector<bool> delivered;
    {
        auto link = ns3::CreateObject<Link>();
        link->Configure(7, Ns(1000), 0.0, seed);
        link->SetLossRate(p);
        link->Attach(0, &near, 0, 0, 0);
        link->Attach(1, &far, 1, 0, 0);
        for (uint32_t i = 0; i < kFrames; ++i)
        {
            // Back to back at 100 bytes per ns.
            link->Transmit(0, MakeUdpFrame(0, 1, 1, 1, 100, i), 124, Ns(i + 1));
        }
        RunUntilPs(Ns(kFrames + 2000));
        if (counters != nullptr)
        {
            *counters = link->GetCounters(0);
        }
        CHECK(link->GetCounters(1).txFrames == 0);
        link->Dispose();
    }
    ns3::Simulator::Destroy();
    return far.delivered;
}

//   h0 ---- s0 ---- h1      /links/loss on both links; h0 sends 20000 tagged frames at once.
const char* kStar = R"({
    "duration": "10ms",
    "topology": {"generator": "star", "params": {"hosts": 2}},
    "links": {"rate": "100Gbps", "delay": "1us", "loss": 0.1},
    "protocol": {"name": "udp"},
    "outputs": {"traces": []}
})";

struct StarRun
{
    std::vector<bool> delivered = std::vector<bool>(kFrames, false);
    Link::Counters firstHop;  // h0 -> s0
    Link::Counters secondHop; // s0 -> h1
    uint64_t tracedLoss = 0;
    uint64_t metricLoss = 0;
};

/// Link direction leaving `node`.
const Link::Counters&
CountersFrom(const Link& link, uint32_t node)
{
    return link.GetCounters(link.NodeAt(0) == node ? 0 : 1);
}

StarRun
RunStar(const std::vector<std::string>& overrides)
{
    StarRun run;
    TestWorld world(kStar, overrides);
    DropRecorder drops(world.Get());
    auto tx = BindRecorder(world.Host("h0"), 1000);
    auto rx = BindRecorder(world.Host("h1"), 2000);
    for (uint32_t i = 0; i < kFrames; ++i)
    {
        REQUIRE(tx->SendTagged(1, 2000, i, 58));
    }
    RunUntilPs(Us(1000));
    for (const auto& d : rx->Received())
    {
        run.delivered.at(d.Tag()) = true;
    }
    run.firstHop = CountersFrom(world.LinkBetween("h0", "s0"), world.Node("h0"));
    run.secondHop = CountersFrom(world.LinkBetween("s0", "h1"), world.Node("s0"));
    run.tracedLoss = drops.Count(DropReason::LinkLoss);
    run.metricLoss = NetworkMetrics(world.Get())["drops"]["link_loss"].get<uint64_t>();
    return run;
}

uint64_t
Count(const std::vector<bool>& delivered)
{
    uint64_t n = 0;
    for (bool d : delivered)
    {
        n += d;
    }
    return n;
}

} // namespace

TEST_CASE("Link::SetLossRate loses frames at the configured rate", "[faults]")
{
    InitIncsim();
    Link::Counters counters;
    std::vector<bool> delivered = DirectLinkPattern(1, 0.1, &counters);
    CHECK(counters.txFrames == kFrames);
    CHECK(counters.lossDrops + counters.deliveredFrames == kFrames);
    CHECK(Count(delivered) == counters.deliveredFrames);
    CheckWithinFourSigma(counters.lossDrops, kFrames, 0.1);

    SECTION("same seed, same pattern; another seed, another pattern")
    {
        CHECK(DirectLinkPattern(1, 0.1) == delivered);
        std::vector<bool> other = DirectLinkPattern(2, 0.1);
        CHECK(other != delivered);
        CheckWithinFourSigma(kFrames - Count(other), kFrames, 0.1);
    }

    SECTION("p = 0 loses nothing")
    {
        CHECK(Count(DirectLinkPattern(1, 0.0)) == kFrames);
    }

    SECTION("other rates")
    {
        for (double p : {0.01, 0.5})
        {
            CheckWithinFourSigma(kFrames - Count(DirectLinkPattern(3, p)), kFrames, p);
        }
    }
}

TEST_CASE("/links/loss applies to every link, per hop, reproducibly per seed", "[faults]")
{
    InitIncsim();
    StarRun a = RunStar({"seed=1"});

    // Each hop loses ~10% of what it carries.
    CHECK(a.firstHop.txFrames == kFrames);
    CheckWithinFourSigma(a.firstHop.lossDrops, a.firstHop.txFrames, 0.1);
    CHECK(a.secondHop.txFrames == a.firstHop.deliveredFrames);
    CheckWithinFourSigma(a.secondHop.lossDrops, a.secondHop.txFrames, 0.1);
    // Every frame is either delivered or counted as lost, in the trace and in the metrics.
    CHECK(Count(a.delivered) == a.secondHop.deliveredFrames);
    CHECK(Count(a.delivered) + a.firstHop.lossDrops + a.secondHop.lossDrops == kFrames);
    CHECK(a.tracedLoss == a.firstHop.lossDrops + a.secondHop.lossDrops);
    CHECK(a.metricLoss == a.tracedLoss);

    SECTION("same seed: identical drop pattern")
    {
        StarRun again = RunStar({"seed=1"});
        CHECK(again.delivered == a.delivered);
    }

    SECTION("different seed: a different drop pattern, same statistics")
    {
        StarRun b = RunStar({"seed=2"});
        CHECK(b.delivered != a.delivered);
        CheckWithinFourSigma(b.firstHop.lossDrops, b.firstHop.txFrames, 0.1);
    }

    SECTION("loss 0 loses nothing")
    {
        StarRun none = RunStar({"seed=1", "links.loss=0"});
        CHECK(Count(none.delivered) == kFrames);
        CHECK(none.tracedLoss == 0);
    }
}

TEST_CASE("A loss_rate fault changes the loss rate at its time", "[faults]")
{
    InitIncsim();
    // From 100us, no link loses anything.
    TestWorld world(kStar, {R"(faults=[{"at": "100us", "action": "loss_rate", "rate": 0}])"});
    auto tx = BindRecorder(world.Host("h0"), 1000);
    auto rx = BindRecorder(world.Host("h1"), 2000);
    const uint32_t perPhase = 4000;
    for (uint32_t i = 0; i < perPhase; ++i)
    {
        tx->SendTagged(1, 2000, i, 58);
    }
    AtPs(Us(200), [&] {
        for (uint32_t i = 0; i < perPhase; ++i)
        {
            tx->SendTagged(1, 2000, perPhase + i, 58);
        }
    });
    RunUntilPs(Us(400));
    uint64_t before = 0;
    uint64_t after = 0;
    for (const auto& d : rx->Received())
    {
        (d.Tag() < perPhase ? before : after) += 1;
    }
    // Two hops at 10%: about 81% arrive before the fault, all after it.
    CheckWithinFourSigma(perPhase - before, perPhase, 1 - 0.9 * 0.9);
    CHECK(after == perPhase);
}
