// Hosts: the CPU model, the clock model, and endpoints sending and receiving datagrams.

#include "test-support.h"

#include "sim/core/sim-time.h"
#include "sim/host/host-clock.h"
#include "sim/host/host-cpu.h"
#include "sim/host/host-node.h"
#include "sim/net/headers.h"
#include "sim/runner/network-metrics.h"
#include "sim/runner/world.h"

#include <ns3/simulator.h>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

/// Destroys the simulator at the end of a test that drives it without a TestWorld.
struct SimulatorGuard
{
    ~SimulatorGuard() { ns3::Simulator::Destroy(); }
};

DistributionParams
Constant(double value)
{
    DistributionParams d;
    d.type = DistributionParams::Type::Constant;
    d.a = value;
    return d;
}

} // namespace

TEST_CASE("HostCpu serves jobs FIFO on its cores", "[cpu]")
{
    InitIncsim();
    SimulatorGuard guard;
    auto cpu = ns3::CreateObject<HostCpu>();
    cpu->SetCores(2);

    SECTION("2 cores, 5 jobs of 10us at t=0 finish at 10, 10, 20, 20, 30us, in order")
    {
        std::vector<int> order;
        std::vector<int64_t> done;
        for (int i = 0; i < 5; ++i)
        {
            cpu->Execute(Us(10), [&, i] {
                order.push_back(i);
                done.push_back(NowPs());
            });
        }
        CHECK(cpu->BusyCores() == 2);
        CHECK(cpu->QueuedJobs() == 3);
        RunUntilPs(Us(100));
        CHECK(done == std::vector<int64_t>{Us(10), Us(10), Us(20), Us(20), Us(30)});
        CHECK(order == std::vector<int>{0, 1, 2, 3, 4});
        CHECK(cpu->CompletedJobs() == 5);
        CHECK(cpu->BusyPs() == Us(50));
        CHECK(cpu->BusyCores() == 0);
        CHECK(cpu->QueuedJobs() == 0);
    }

    SECTION("a zero-cost job still waits its turn")
    {
        cpu->SetCores(1);
        std::vector<int64_t> done;
        cpu->Execute(Us(10), [&] { done.push_back(NowPs()); });
        cpu->Execute(0, [&] { done.push_back(NowPs()); });
        RunUntilPs(Us(100));
        CHECK(done == std::vector<int64_t>{Us(10), Us(10)});
    }

    SECTION("a job submitted by a finishing job queues behind those already waiting")
    {
        cpu->SetCores(1);
        std::vector<int> order;
        cpu->Execute(Us(10), [&] {
            order.push_back(0);
            cpu->Execute(Us(1), [&] { order.push_back(2); });
        });
        cpu->Execute(Us(10), [&] { order.push_back(1); });
        RunUntilPs(Us(100));
        CHECK(order == std::vector<int>{0, 1, 2});
    }

    SECTION("Reset drops queued and running jobs; the cores are free afterwards")
    {
        std::vector<int64_t> done;
        for (int i = 0; i < 5; ++i)
        {
            cpu->Execute(Us(10), [&] { done.push_back(NowPs()); });
        }
        AtPs(Us(5), [&] {
            cpu->Reset();
            CHECK(cpu->BusyCores() == 0);
            CHECK(cpu->QueuedJobs() == 0);
        });
        AtPs(Us(6), [&] {
            for (int i = 0; i < 3; ++i)
            {
                cpu->Execute(Us(10), [&] { done.push_back(NowPs()); });
            }
        });
        RunUntilPs(Us(100));
        CHECK(done == std::vector<int64_t>{Us(16), Us(16), Us(26)});
        CHECK(cpu->CompletedJobs() == 3);
    }
    cpu->Dispose();
}

TEST_CASE("HostClock: offset, drift, periodic sync, and a monotonic NowNs", "[clock]")
{
    InitIncsim();

    SECTION("a constant offset and no drift")
    {
        HostClock::Config config;
        config.offset = Constant(5000);
        HostClock clock(config, 1, 0);
        for (int64_t t : {int64_t(0), int64_t(999), Ns(1), Us(7), Us(123456), Us(10'000'000)})
        {
            INFO("t = " << t << "ps");
            CHECK(clock.LocalNs(t) == t / kPsPerNs + 5000);
            CHECK(clock.ErrorNs(t) == 5000.0);
        }
    }

    HostClock::Config config;
    config.driftPpm = Constant(100);
    config.syncPeriodNs = 1'000'000;
    config.residualSkew = Constant(0);

    SECTION("drift 100ppm grows the error linearly and each sync resets it")
    {
        HostClock clock(config, 1, 0);
        CHECK(clock.DriftPpm() == 100.0);
        for (int64_t epoch = 0; epoch < 3; ++epoch)
        {
            const int64_t start = epoch * Us(1000);
            for (int64_t since : {int64_t(0), Us(100), Us(250), Us(500), Us(999)})
            {
                INFO("t = " << start + since << "ps");
                // 100ppm of the time since the last sync, in ns.
                CHECK(clock.ErrorNs(start + since) == Approx(100e-6 * since / 1000.0));
            }
        }
        CHECK(clock.ErrorNs(Us(999)) == Approx(99.9));
        CHECK(clock.ErrorNs(Us(1000)) == Approx(0.0).margin(1e-9));
    }

    SECTION("after a sync the error restarts from the residual skew")
    {
        config.residualSkew = Constant(20);
        HostClock clock(config, 1, 0);
        CHECK(clock.ErrorNs(Us(500)) == Approx(50.0)); // before the first sync: no residual
        CHECK(clock.ErrorNs(Us(1000)) == Approx(20.0));
        CHECK(clock.ErrorNs(Us(1500)) == Approx(70.0));
        CHECK(clock.ErrorNs(Us(2000)) == Approx(20.0));
    }

    SECTION("NowNs never goes backwards, though the clock is set back at each sync")
    {
        SimulatorGuard guard;
        HostClock clock(config, 1, 0);
        // The local clock jumps back by ~100ns at 1ms and at 2ms.
        REQUIRE(clock.LocalNs(Us(1000)) < clock.LocalNs(Us(1000) - Ns(10)));
        std::vector<int64_t> reads;
        for (int64_t base : {Us(1000), Us(2000)})
        {
            for (int64_t t = base - Ns(300); t < base + Ns(300); t += Ns(10))
            {
                AtPs(t, [&] { reads.push_back(clock.NowNs()); });
            }
        }
        RunUntilPs(Us(3000));
        REQUIRE(reads.size() == 120);
        for (size_t i = 1; i < reads.size(); ++i)
        {
            INFO("read " << i);
            CHECK(reads[i] >= reads[i - 1]);
        }
    }

    SECTION("the scenario's /clocks reach every host")
    {
        TestWorld world(R"({
            "duration": "1ms",
            "topology": {"generator": "star", "params": {"hosts": 2}},
            "clocks": {"offset": "5us"},
            "protocol": {"name": "udp"},
            "outputs": {"traces": []}
        })");
        auto endpoint = BindRecorder(world.Host("h1"), 1000);
        int64_t local = 0;
        AtPs(Us(3), [&] { local = endpoint->LocalNs(); });
        RunUntilPs(Us(10));
        CHECK(local == 3000 + 5000);
    }
}

//   h0 ---- s0 ---- h2     (and h1, idle)
TEST_CASE("Endpoints send and receive datagrams across a switch", "[datapath]")
{
    InitIncsim();
    TestWorld world(R"({
        "duration": "1ms",
        "topology": {"generator": "star", "params": {"hosts": 3}},
        "links": {"rate": "10Gbps", "delay": "1us"},
        "protocol": {"name": "udp"},
        "outputs": {"traces": []}
    })");
    DropRecorder drops(world.Get());
    auto sender = BindRecorder(world.Host("h0"), 1111);
    auto receiver = BindRecorder(world.Host("h2"), 2222);

    SECTION("bytes, addresses and ports arrive intact")
    {
        std::vector<uint8_t> bytes(100);
        for (size_t i = 0; i < bytes.size(); ++i)
        {
            bytes[i] = static_cast<uint8_t>(i * 7 + 3);
        }
        REQUIRE(sender->SendTo(2, 2222, bytes, 500));
        REQUIRE(sender->SendTo(2, 2222, {1, 2, 3, 4}, 4)); // padded to the minimum frame
        RunUntilPs(Us(100));

        const auto& got = receiver->Received();
        REQUIRE(got.size() == 2);
        CHECK(got[0].bytes == bytes);
        CHECK(got[0].srcHost == 0);
        CHECK(got[0].srcPort == 1111);
        CHECK(got[0].dstPort == 2222);
        CHECK(got[0].payloadBytes == 500);
        CHECK(got[0].wireLength == kUdpFrameOverhead + 500);
        // One switch hop: TTL decremented once, with the header checksum updated to match.
        CHECK(got[0].ttl == 63);
        CHECK(got[0].ipChecksumOk);
        CHECK(got[1].bytes == std::vector<uint8_t>{1, 2, 3, 4});
        CHECK(got[1].payloadBytes == 4);
        CHECK(got[1].wireLength == kMinFrameBytes);
        CHECK(drops.Drops().empty());
        CHECK(world.Host("h2").GetCounters().received == 2);
        CHECK(world.Host("h0").GetCounters().sent == 2);
    }

    SECTION("a datagram to an unbound port is dropped as no_endpoint and counted")
    {
        REQUIRE(sender->SendTo(2, 3333, {9, 9, 9, 9}, 4));
        RunUntilPs(Us(100));
        CHECK(receiver->Received().empty());
        REQUIRE(drops.Drops().size() == 1);
        CHECK(drops.Drops()[0].reason == DropReason::NoEndpoint);
        CHECK(drops.Drops()[0].node == world.Node("h2"));
        CHECK(world.Host("h2").Drops()[static_cast<size_t>(DropReason::NoEndpoint)] ==
              1);
        CHECK(world.Host("h2").GetCounters().received == 0);
        CHECK(NetworkMetrics(world.Get())["drops"]["no_endpoint"] == 1);
    }

    SECTION("binding a port twice is refused; oversized headers are refused")
    {
        CHECK_THROWS_AS(BindRecorder(world.Host("h2"), 2222), std::logic_error);
        std::vector<uint8_t> huge(Frame::kCapacity);
        CHECK_THROWS_AS(sender->SendTo(2, 2222, huge, static_cast<uint32_t>(huge.size())),
                        std::length_error);
    }
}
