// Background bulk flows: a flow fills its bottleneck and repairs what a full buffer or a lossy
// link drops; the configurations /background must refuse; and 1Pipe under background load
// (paper Fig. 12): total order still holds, and queues inflate latency, more so when the
// network is oversubscribed.

#include "test-support.h"

#include "protocols/onepipe/onepipe-checker.h"
#include "sim/core/diagnostics.h"
#include "sim/runner/runner.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

// A flow each way between h0 and h1 through a 5 Gbps bottleneck with 256 KiB buffers: the
// windows outgrow the buffer, so the bottleneck drops and the flows must recover. The udp
// protocol under test sends almost nothing.
const char* kDumbbell = R"({
    "seed": 1,
    "duration": "3ms",
    "topology": {"generator": "dumbbell",
                 "params": {"left": 1, "right": 1, "bottleneck_rate": "5Gbps"}},
    "links": {"rate": "10Gbps", "delay": "2us", "buffer": "256KiB"},
    "protocol": {"name": "udp"},
    "workload": {"load": 1e-4},
    "background": {"flows_per_host": 1, "min_rto": "200us", "nic_limit": "16KiB"},
    "outputs": {"traces": [], "progress": "never"}
})";

uint64_t
Count(const RunSummary& run, const char* name)
{
    return run.metrics["background"][name].get<uint64_t>();
}

// Payload share of a full data frame on the wire: MTU 1500 less IPv4, UDP and the transport
// header, over the MTU plus Ethernet header, FCS, preamble and gap.
constexpr double kPayloadShare = (1500.0 - 20 - 8 - 32) / (1500 + 14 + 4 + 20);

} // namespace

TEST_CASE("A bulk flow fills its bottleneck and repairs the drops of a full buffer",
          "[background]")
{
    InitIncsim();
    TempDir dir;
    RunSummary run = RunIn(dir, kDumbbell);
    // Only the dumbbell's hosts send flows: h0 to h1 and h1 to h0, both through the bottleneck.
    CHECK(Count(run, "flows") == 2);
    const double goodput = run.metrics["background"]["goodput_gbps"].get<double>();
    const double capacity = 2 * 5 * kPayloadShare; // both directions
    INFO("goodput " << goodput << " Gbps of " << capacity);
    CHECK(goodput <= capacity);
    CHECK(goodput > 0.85 * capacity);
    CHECK(run.metrics["network"]["drops"]["buffer_full"].get<uint64_t>() > 0);
    CHECK(Count(run, "fast_retransmits") > 0);
    // In-order bytes never exceed the distinct segments sent.
    const uint64_t segment = 1500 - 20 - 8 - 32;
    CHECK(Count(run, "bytes_delivered") <=
          (Count(run, "segments_sent") - Count(run, "retransmissions")) * segment);
}

TEST_CASE("DCTCP flows hold the bottleneck queue near the marking threshold, without drops",
          "[background]")
{
    InitIncsim();
    // The dumbbell above, whose loss-based flows overflow the 256 KiB buffers: with DCTCP and
    // switches marking above 30 KB the windows stop short of the buffer, so nothing is
    // dropped, and the link stays busy.
    TempDir dir;
    RunSummary run = RunIn(dir, kDumbbell,
                           {"background.congestion_control=dctcp", "switch.ecn_threshold=30KB"});
    const double goodput = run.metrics["background"]["goodput_gbps"].get<double>();
    const double capacity = 2 * 5 * kPayloadShare;
    INFO("goodput " << goodput << " Gbps of " << capacity);
    CHECK(goodput > 0.85 * capacity);
    CHECK(run.metrics["network"]["drops"]["buffer_full"].get<uint64_t>() == 0);
    CHECK(Count(run, "ecn_echoes") > 0);
    CHECK(Count(run, "retransmissions") == 0);
}

TEST_CASE("Bulk flows keep delivering over lossy links", "[background]")
{
    InitIncsim();
    TempDir clean;
    TempDir lossy;
    const double cleanGoodput =
        RunIn(clean, kDumbbell).metrics["background"]["goodput_gbps"].get<double>();
    RunSummary run = RunIn(lossy, kDumbbell, {"links.loss=0.001"});
    CHECK(run.metrics["network"]["drops"]["link_loss"].get<uint64_t>() > 0);
    CHECK(Count(run, "retransmissions") > 0);
    const double goodput = run.metrics["background"]["goodput_gbps"].get<double>();
    INFO("lossy " << goodput << " Gbps, clean " << cleanGoodput);
    CHECK(goodput > 0.2 * cleanGoodput);
    CHECK(goodput < cleanGoodput);
}

TEST_CASE("Background flows refuse ports and networks they cannot use", "[background][config]")
{
    InitIncsim();
    TempDir dir;
    try
    {
        RunIn(dir, kDumbbell, {"background.port=5000"});
        FAIL("expected an error");
    }
    catch (const InputError& error)
    {
        CHECK(std::string(error.what()).find("/background/port") != std::string::npos);
        CHECK(std::string(error.what()).find("already used") != std::string::npos);
    }
    try
    {
        // One host has no one to send to; every topology needs two (test-input-checks.cc).
        RunIn(dir, kDumbbell,
              {"topology.generator=leaf-spine",
               R"(topology.params={"leaves": 1, "spines": 1, "hosts_per_leaf": 1})"});
        FAIL("expected an error");
    }
    catch (const InputError& error)
    {
        CHECK(std::string(error.what()) ==
              "--set: /topology/params: the topology has 1 host (h0); traffic needs at "
              "least 2");
    }
}

TEST_CASE("1Pipe keeps total order under background flows, which inflate its latency",
          "[background][onepipe]")
{
    InitIncsim();
    auto latency = [](const std::string& oversubscription, int flows) {
        TempDir dir;
        RunSummary run = RunIn(dir,
                               ReadFile(std::string(INCSIM_SOURCE_DIR) +
                                        "/scenarios/onepipe/testbed-microbench.json"),
                             {"duration=150us", "outputs.progress=never",
                              "topology.params.oversubscription=" + oversubscription,
                              fmt::format("background.flows_per_host={}", flows),
                              R"(outputs.traces=["onepipe_sends","onepipe_deliveries","onepipe_failures"])"});
        const CheckReport report = onepipe::CheckRun(run.runDir);
        INFO(oversubscription << ", " << flows << " flows: "
                              << (report.Ok() ? "" : report.violations.front()));
        CHECK(report.Ok());
        return run.metrics["onepipe"]["latency_mean_us"].get<double>();
    };
    const double idle = latency("1", 0);
    const double loaded = latency("1", 10);
    const double oversubscribed = latency("4", 10);
    INFO("idle " << idle << " us, 10 flows " << loaded << " us, at 4:1 " << oversubscribed);
    CHECK(loaded > idle + 5);
    CHECK(oversubscribed > loaded + 10);
}

TEST_CASE("1Pipe's latency rises with every background flow added, in both services",
          "[background][onepipe][trend]")
{
    InitIncsim();
    // Fig. 12a's setting: the non-blocking testbed, 32 processes broadcasting every 20 us from
    // 50 to 250 us of a 400 us run (every message delivered, so the mean is not biased by those
    // in flight at the end), 1 / 2 / 5 / 10 DCTCP flows per host, the mean over three seeds
    // (a reliable run's retransmissions make one seed noisy). Loss-based flows filled every
    // buffer they crossed from one flow per host on, so latency saturated and even fell (27.3 /
    // 30.0 / 31.4 / 29.9 us); under DCTCP the standing queues grow with the flows.
    for (const char* service : {"best-effort", "reliable"})
    {
        double previous = 0;
        for (int flows : {1, 2, 5, 10})
        {
            double latency = 0;
            for (int seed : {1, 2, 3})
            {
                TempDir dir;
                RunSummary run = RunIn(
                    dir,
                    ReadFile(std::string(INCSIM_SOURCE_DIR) +
                             "/scenarios/onepipe/testbed-microbench.json"),
                    {"duration=400us", "workload.start=50us", "workload.stop=250us",
                     "outputs.progress=never", "topology.params.oversubscription=1",
                     fmt::format("seed={}", seed), fmt::format("protocol.params.service={}", service),
                     fmt::format("background.flows_per_host={}", flows)});
                latency += run.metrics["onepipe"]["latency_mean_us"].get<double>() / 3;
                CHECK(run.metrics["background"]["ecn_echoes"].get<uint64_t>() > 0);
            }
            INFO(service << ", " << flows << " flows: " << latency << " us after " << previous);
            CHECK(latency > previous + 0.5);
            previous = latency;
        }
    }
}
