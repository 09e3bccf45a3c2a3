// 1Pipe best effort: the checker's properties on randomized runs (loss, clock skew,
// per-packet ECMP, link failure), the negative control, the paper's idle latency overhead and
// flat beacon overhead, and the configurations 1Pipe must refuse.

#include "onepipe-test-support.h"
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
/// The scenario.resolved.json of a run whose traces a test writes: 1 ms, ACK timeout 200 us.
constexpr const char* kRunScenario =
    R"({"duration": "1ms", "topology": {"generator": "fat-tree", "params": {"k": 4}},
        "protocol": {"name": "onepipe", "params": {"ack_timeout": "200us"}}})";
} // namespace

TEST_CASE("1Pipe keeps total order and causality under loss, skew, spraying and failures",
          "[onepipe][checker]")
{
    InitIncsim();
    // Every seed draws its own loss, clock offsets and drifts, traffic and process count; the
    // seeds rotate through the three incarnations.
    const char* incarnations[] = {"chip", "switch-cpu", "host-representative"};
    for (int seed = 1; seed <= 6; ++seed)
    {
        TempDir dir;
        const std::string scenario =
            OnePipeScenario(kFatTree4,
                     fmt::format(R"("processes_per_host": {}, "ack_timeout": "60us",
                                    "incarnation": "{}")",
                                 1 + seed % 2, incarnations[(seed - 1) % 3]),
                     R"("pattern": "scatter", "fanout": 5, "interval": "4us",
                        "message_size": "2000B")",
                     R"("routing": {"ecmp": "per-packet", "reconverge_delay": "40us"},
                        "faults": [{"at": "120us", "action": "link_down", "link": ["a0_0", "c0"]},
                                   {"at": "250us", "action": "link_up", "link": ["a0_0", "c0"]}],)");
        RunSummary run = RunIn(dir, scenario,
                             {fmt::format("seed={}", seed), fmt::format("links.loss={}", 2e-4 * seed),
                              "clocks.drift_ppm=50", "switch.cpu_service_time=300ns"});
        INFO("seed " << seed << ", " << incarnations[(seed - 1) % 3]);
        const CheckReport report = onepipe::CheckRun(run.runDir);
        INFO(ViolationText(report));
        CHECK(report.Ok());
        CHECK(OnePipeMetric(run, "messages_delivered") > 1000);
        // The scenario really is lossy: some messages were lost and reported.
        const auto& failures = run.metrics["onepipe"]["send_failures"];
        CHECK(failures["timeout"].get<uint64_t>() + failures["nak"].get<uint64_t>() > 0);
    }
}

TEST_CASE("Negative control: without barrier aggregation the checker finds violations within "
          "50 us",
          "[onepipe][checker]")
{
    InitIncsim();
    // Without aggregation a packet keeps its sender's barrier, so a receiver's barrier runs
    // ahead of messages still on longer paths: they arrive below it and are NAKed, on a
    // lossless network. The checker must see that in a run far shorter than the ACK timeout
    // (nothing is old enough to count for conservation), from the NAKs alone.
    const std::string broadcast = R"("pattern": "broadcast", "interval": "10us")";
    TempDir dir;
    RunSummary run =
        RunIn(dir, OnePipeScenario(kFatTree4, R"("aggregation": false)", broadcast),
              {"duration=50us"});
    const CheckReport report = CheckOnePipeRun(run);
    REQUIRE_FALSE(report.Ok());
    CHECK(ViolationText(report).find("completeness:") != std::string::npos);
    CHECK(OnePipeMetric(run, "late_drops") > 0);
    // With aggregation, the same run passes and nothing arrives late.
    TempDir good;
    RunSummary control = RunIn(good, OnePipeScenario(kFatTree4, "", broadcast), {"duration=50us"});
    const CheckReport passed = CheckOnePipeRun(control);
    INFO(ViolationText(passed));
    CHECK(passed.Ok());
    CHECK(OnePipeMetric(control, "late_drops") == 0);
    CHECK(OnePipeMetric(control, "messages_delivered") > 500);
}

TEST_CASE("Idle delivery latency overhead is about half a beacon interval plus clock skew",
          "[onepipe][latency]")
{
    InitIncsim();
    // Paper Sec. 7.2: 1.7-2.3 us average overhead at a 3 us beacon interval and 0.3 us mean
    // skew, on an idle network. Here clock offsets are uniform in +-300 ns (mean pairwise
    // difference 200 ns). Tolerance: the overhead must lie within I/2 + [-0.3, +1.3] us, and
    // doubling the interval must add I/2 more (within 0.5 us).
    auto overhead = [](const std::string& interval) {
        const std::string idle = R"("pattern": "unicast", "interval": "50us")";
        TempDir ordered;
        TempDir unordered;
        RunSummary a = RunIn(ordered,
                           OnePipeScenario(kFatTree4, fmt::format(R"("beacon_interval": "{}")", interval),
                                    idle),
                           {"duration=2ms"});
        RunSummary b = RunIn(unordered, OnePipeScenario(kFatTree4, R"("ordering": "none")", idle),
                           {"duration=2ms"});
        REQUIRE(OnePipeMetric(a, "messages_delivered") > 500);
        return OnePipeMetric(a, "latency_mean_us") - OnePipeMetric(b, "latency_mean_us");
    };
    const double at3 = overhead("3us");
    const double at6 = overhead("6us");
    INFO("overhead at 3us: " << at3 << " us, at 6us: " << at6 << " us");
    CHECK(at3 >= 1.5 - 0.3);
    CHECK(at3 <= 1.5 + 1.3);
    CHECK(at6 - at3 >= 1.5 - 0.5);
    CHECK(at6 - at3 <= 1.5 + 0.5);
}

TEST_CASE("An off-chip beacon processor starts again from nothing after its switch crashes",
          "[onepipe][checker][incarnation]")
{
    InitIncsim();
    // An aggregation switch crashes and recovers within one beacon interval, while beacons
    // are in flight to and from its processor 1 us away: what the processor held or had
    // scheduled before the crash must not reach the network after it.
    for (const char* incarnation : {"switch-cpu", "host-representative"})
    {
        TempDir dir;
        RunSummary run = RunIn(
            dir,
            OnePipeScenario(kFatTree4, fmt::format(R"("incarnation": "{}")", incarnation),
                            R"("pattern": "scatter", "fanout": 4, "interval": "5us")",
                            R"("faults": [{"at": "150us", "action": "node_crash", "node": "a0_0"},
                                          {"at": "152us", "action": "node_recover",
                                           "node": "a0_0"}],)"),
            {"switch.cpu_service_time=300ns"});
        INFO(incarnation);
        const CheckReport report = onepipe::CheckRun(run.runDir);
        INFO(ViolationText(report));
        CHECK(report.Ok());
        CHECK(OnePipeMetric(run, "messages_delivered") > 1000);
    }
}

TEST_CASE("Off-chip incarnations add their beacon processing delay at every hop",
          "[onepipe][latency][incarnation]")
{
    InitIncsim();
    // Paper 6.2.2-6.2.3: expected delay = base + (processing delay x hops + I/2 + skew). On a
    // k=4 fat-tree barriers cross 5 switches (host, ToR, aggregation, core, aggregation, ToR,
    // host), whatever the message's own path. A host representative 1 us away with 100 ns per
    // beacon adds 2 x 1 us + 2 x 100 ns (receive, broadcast) per hop: 11 us, asserted within
    // 1.5 us. The switch CPU (300 ns per beacon, its 4 ports' beacons arriving together) must
    // land between the chip and that, above one service time per hop.
    auto latency = [](const std::string& incarnation) {
        TempDir dir;
        RunSummary run = RunIn(dir,
                             OnePipeScenario(kFatTree4,
                                             fmt::format(R"("incarnation": "{}")", incarnation),
                                             R"("pattern": "unicast", "interval": "50us")"),
                             {"duration=1ms", "switch.cpu_service_time=300ns"});
        const CheckReport report = onepipe::CheckRun(run.runDir);
        INFO(incarnation << ": " << ViolationText(report));
        CHECK(report.Ok());
        return OnePipeMetric(run, "latency_mean_us");
    };
    const double chip = latency("chip");
    const double cpu = latency("switch-cpu");
    const double representative = latency("host-representative");
    INFO("chip " << chip << " us, switch CPU " << cpu << " us, representative " << representative
                 << " us");
    CHECK(representative - chip >= 11.0 - 1.5);
    CHECK(representative - chip <= 11.0 + 1.5);
    CHECK(cpu - chip >= 5 * 0.3);
    CHECK(cpu < representative);
}


TEST_CASE("Silent hosts without processes hold no barrier back, from the start",
          "[onepipe][checker][incarnation]")
{
    InitIncsim();
    // Only the first 4 hosts (two edge switches of pod 0) run processes and beacon. The other
    // hosts' ports are not inputs, so the other edge switches have no live port below and
    // must not hold the network's barrier: onepipe.p4 and the off-chip processors alike send
    // the maximum barrier up from a switch with nothing live below. The reliable service's
    // commit barrier leaves the silent ports out the same way. Processes start sending at
    // once: nothing waits for a silent port to time out.
    for (const char* service : {"best-effort", "reliable"})
    {
    for (const char* incarnation : {"chip", "switch-cpu", "host-representative"})
    {
        TempDir dir;
        RunSummary run = RunIn(
            dir,
            OnePipeScenario(kFatTree4,
                            fmt::format(R"("incarnation": "{}", "process_hosts": 4,
                                           "idle_hosts": "silent", "service": "{}")",
                                        incarnation, service),
                            R"("pattern": "unicast", "interval": "10us")"),
            {"switch.cpu_service_time=300ns"});
        INFO(incarnation << " " << service);
        const CheckReport report = onepipe::CheckRun(run.runDir);
        INFO(ViolationText(report));
        CHECK(report.Ok());
        CHECK(OnePipeMetric(run, "processes") == 4);
        CHECK(OnePipeMetric(run, "messages_sent") > 100);
        CHECK(OnePipeMetric(run, "messages_delivered") >= 0.9 * OnePipeMetric(run, "messages_sent"));
        // No delivery waited for a silent port's timeout (30 us, which alone exceeds every
        // latency here: within a pod of an idle k=4 fat-tree with 1 us links, a message takes
        // 4 us, plus beacon waits, 2 hops of representative and reliable's round trip).
        CHECK(OnePipeMetric(run, "latency_max_us") < 30);
    }
    }
}
TEST_CASE("Beacon bandwidth per link does not grow with the topology", "[onepipe][beacons]")
{
    InitIncsim();
    // Paper Fig. 13b: about 0.3% of a 100G link at a 3 us interval, whatever the scale.
    auto overhead = [](int k) {
        TempDir dir;
        RunSummary run =
            RunIn(dir,
                OnePipeScenario(fmt::format(R"({{"generator": "fat-tree", "params": {{"k": {}}}}})", k),
                         "", R"("pattern": "unicast", "interval": "100us")"),
                {"duration=300us"});
        return OnePipeMetric(run, "beacon_overhead_mean");
    };
    const double k4 = overhead(4);
    const double k8 = overhead(8);
    INFO("k=4: " << k4 << ", k=8: " << k8);
    CHECK(k4 > 0.002);
    CHECK(k4 < 0.006);
    CHECK(k8 / k4 > 0.8);
    CHECK(k8 / k4 < 1.25);
}

TEST_CASE("1Pipe runs are deterministic", "[onepipe][determinism]")
{
    InitIncsim();
    const std::string scenario = OnePipeScenario(kFatTree4, R"("processes_per_host": 2)",
                                          R"("interval": "10us")", R"("links": {"loss": 1e-3},)");
    TempDir first;
    TempDir second;
    RunIn(first, scenario, {"duration=150us"});
    RunIn(second, scenario, {"duration=150us"});
    for (const char* trace : {"onepipe_sends.csv", "onepipe_deliveries.csv",
                              "onepipe_failures.csv", "metrics.json"})
    {
        INFO(trace);
        CHECK(ReadFile(first.File(trace)) == ReadFile(second.File(trace)));
    }
}

TEST_CASE("The logical clock orders messages without clock synchronisation",
          "[onepipe][logical-clock]")
{
    InitIncsim();
    TempDir dir;
    // Host clocks tens of microseconds apart and drifting; no synchronisation.
    RunSummary run = RunIn(dir, OnePipeScenario(kFatTree4, R"("clock": "logical")", R"("interval": "5us")"),
                         {"clocks.offset.min=-20us", "clocks.offset.max=20us",
                          "clocks.drift_ppm=100", "duration=1ms"});
    const CheckReport report = onepipe::CheckRun(run.runDir);
    INFO(ViolationText(report));
    CHECK(report.Ok());
    CHECK(OnePipeMetric(run, "delivery_ratio") > 0.9);
}

TEST_CASE("1Pipe refuses topologies and routes it cannot order", "[onepipe][config]")
{
    InitIncsim();
    TempDir dir;
    // A ring: traffic from one neighbour goes on to the other, a valley in up-down terms.
    const std::string ring = OnePipeScenario(R"({"file": "tests/data/ring4.json"})", "", "");
    CHECK_THROWS_WITH(RunIn(dir, ring),
                      Catch::Contains("1Pipe needs up-down routes") &&
                          Catch::Contains("up again to"));
    CHECK_THROWS_WITH(RunIn(dir, OnePipeScenario(kFatTree4, R"("program": "forward")", "")),
                      Catch::Contains("MyIngress.onepipe_config"));
    CHECK_THROWS_WITH(RunIn(dir, OnePipeScenario(kFatTree4, R"("beacon_intervall": "3us")", "")),
                      Catch::Contains("beacon_intervall"));
}

TEST_CASE("The checker finds receivers that disagree on the order of scatterings",
          "[onepipe][checker]")
{
    // Two broadcasts, A (process 0, ts 100) and B (process 1, ts 200), to processes 2 and 3.
    // Process 3 delivers B before A: its own order is wrong, and no single order agrees with
    // both receivers.
    InitIncsim();
    TempDir dir;
    WriteFile(dir.File("scenario.resolved.json"), kRunScenario);
    WriteFile(dir.File("metrics.json"), R"({"network": {"drops": {}}})");
    WriteFile(dir.File("onepipe_sends.csv"), "src,seq,dst,ts,bytes,send_ns\n"
                                             "0,0,2,100,64,100\n0,1,3,100,64,100\n"
                                             "1,0,2,200,64,200\n1,1,3,200,64,200\n");
    WriteFile(dir.File("onepipe_failures.csv"), "src,seq,dst,ts,reason,time_ns\n");
    WriteFile(dir.File("onepipe_deliveries.csv"),
              "dst,src,seq,ts,dst_clock,deliver_ns,latency_ns\n"
              "2,0,0,100,1000,1000,900\n2,1,0,200,1100,1100,900\n"
              "3,1,1,200,1000,1000,800\n3,0,1,100,1100,1100,1000\n");
    const CheckReport report = onepipe::CheckRun(dir.Path());
    const std::string violations = ViolationText(report);
    INFO(violations);
    CHECK(violations.find("total order:") != std::string::npos);
    CHECK(violations.find("receiver order:") != std::string::npos);
    CHECK(violations.find("causality:") == std::string::npos);
}

namespace
{
/// A run directory of two processes whose traces the test writes: `sends`, `deliveries` and
/// `failures` are CSV rows after the header; the network lost nothing; ACK timeout 200 us.
void
WriteOnePipeRun(const TempDir& dir, const std::string& sends, const std::string& deliveries,
                const std::string& failures)
{
    InitIncsim();
    WriteFile(dir.File("scenario.resolved.json"), kRunScenario);
    WriteFile(dir.File("metrics.json"), R"({"network": {"drops": {}}})");
    WriteFile(dir.File("onepipe_sends.csv"), "src,seq,dst,ts,bytes,send_ns\n" + sends);
    WriteFile(dir.File("onepipe_deliveries.csv"),
              "dst,src,seq,ts,dst_clock,deliver_ns,latency_ns\n" + deliveries);
    WriteFile(dir.File("onepipe_failures.csv"), "src,seq,dst,ts,reason,time_ns\n" + failures);
}
} // namespace

TEST_CASE("The checker finds a process sending below a timestamp it delivered",
          "[onepipe][checker]")
{
    // Process 1 delivers process 0's message (ts 500) at 600 ns, its clock reading 700, and
    // then sends with ts 400: Lamport's causality is broken although the delivery itself was
    // below the clock.
    TempDir dir;
    WriteOnePipeRun(dir, "0,0,1,500,64,100\n1,0,0,400,64,900\n",
                    "1,0,0,500,700,600,500\n0,1,0,400,1000,1000,100\n", "");
    std::string violations = ViolationText(onepipe::CheckRun(dir.Path()));
    INFO(violations);
    CHECK(violations.find("causality: process 1 sent message 1#0 with ts 400 at 900 ns, after "
                          "it had delivered message 0#0 with ts 500 at 600 ns") !=
          std::string::npos);
    // The same send at ts 501 is causal; a send in the delivery's own ns is not ordered by the
    // traces and not compared.
    TempDir good;
    WriteOnePipeRun(good, "0,0,1,500,64,100\n1,0,0,450,64,600\n1,1,0,501,64,900\n",
                    "1,0,0,500,700,600,500\n0,1,0,450,1000,1000,400\n"
                    "0,1,1,501,1001,1001,101\n",
                    "");
    const CheckReport report = onepipe::CheckRun(good.Path());
    INFO(ViolationText(report));
    CHECK(report.Ok());
}

TEST_CASE("The checker reads the run's validated scenario, not raw JSON with its own defaults",
          "[onepipe][checker]")
{
    InitIncsim();
    TempDir dir;
    WriteOnePipeRun(dir, "", "", "");
    CHECK(onepipe::CheckRun(dir.Path()).Ok());
    // A scenario that is no valid 1Pipe scenario is refused where it is wrong, rather than
    // read with defaults (the ordering of a sequencer-like name, a missing topology).
    WriteFile(dir.File("scenario.resolved.json"),
              R"({"duration": "1ms", "topology": {"generator": "fat-tree", "params": {"k": 4}},
                  "protocol": {"name": "onepipe", "params": {"ordering": "sequencer-nic"}}})");
    CHECK_THROWS_WITH(onepipe::CheckRun(dir.Path()),
                      Catch::Contains("/protocol/params/ordering") &&
                          Catch::Contains("sequencer-nic"));
    WriteFile(dir.File("scenario.resolved.json"),
              R"({"duration": "1ms", "protocol": {"name": "onepipe"}})");
    CHECK_THROWS_WITH(onepipe::CheckRun(dir.Path()), Catch::Contains("/topology"));
}

TEST_CASE("The checker counts a NAK on a lossless network against completeness at any time",
          "[onepipe][checker]")
{
    // Sent 10 us before the end of a 1 ms run with a 200 us ACK timeout: too late to count for
    // conservation, but its NAK says the receiver dropped it.
    TempDir dir;
    WriteOnePipeRun(dir, "0,0,1,990000,64,990000\n", "", "0,0,1,990000,nak,995000\n");
    const std::string violations = ViolationText(onepipe::CheckRun(dir.Path()));
    INFO(violations);
    CHECK(violations.find("completeness: message 0#0 to process 1") != std::string::npos);
    CHECK(violations.find("(NAKed)") != std::string::npos);
    // Without the NAK nothing is known yet about that message.
    TempDir unknown;
    WriteOnePipeRun(unknown, "0,0,1,990000,64,990000\n", "", "");
    CHECK(onepipe::CheckRun(unknown.Path()).Ok());
}

TEST_CASE("The total-order broadcast baselines deliver every broadcast in one order",
          "[onepipe][baselines]")
{
    InitIncsim();
    // Fig. 8's baselines on a lossless k=4 fat-tree, 64-byte all-to-all broadcast at a load
    // each can carry: the checker's total order, conservation and completeness must hold.
    for (const char* ordering : {"sequencer-switch", "sequencer-host", "token", "lamport"})
    {
        TempDir dir;
        RunSummary run =
            RunIn(dir,
                OnePipeScenario(kFatTree4,
                                fmt::format(R"("ordering": "{}", "exchange_interval": "5us")",
                                            ordering),
                                R"("pattern": "broadcast", "interval": "20us")",
                                R"("hosts": {"message_cost": "20ns"},)"),
                {"protocol.params.ack_timeout=20us"});
        INFO(ordering);
        const CheckReport report = onepipe::CheckRun(run.runDir);
        INFO(ViolationText(report));
        CHECK(report.Ok());
        CHECK(OnePipeMetric(run, "messages_delivered") > 3000);
        CHECK(OnePipeMetric(run, "delivery_ratio") > 0.8);
    }
}

TEST_CASE("The baselines refuse workloads and networks they cannot order", "[onepipe][baselines]")
{
    InitIncsim();
    TempDir dir;
    CHECK_THROWS_WITH(RunIn(dir, OnePipeScenario(kFatTree4, R"("ordering": "token")",
                                               R"("pattern": "unicast")")),
                      Catch::Contains("/workload/pattern") && Catch::Contains("broadcast"));
    CHECK_THROWS_WITH(RunIn(dir, OnePipeScenario(kFatTree4, R"("ordering": "lamport")",
                                               R"("pattern": "broadcast")"),
                          {"links.loss=1e-4"}),
                      Catch::Contains("/links/loss"));
    CHECK_THROWS_WITH(RunIn(dir, OnePipeScenario(kFatTree4, R"("process_hosts": 17)", "")),
                      Catch::Contains("process_hosts") && Catch::Contains("16 hosts"));
}

TEST_CASE("On the testbed a barrier crosses only the switches between the processes (Fig. 9a)",
          "[onepipe][incarnation][fig9a]")
{
    InitIncsim();
    // Paper 7.2, claims R4 and R5: latency rises with the hops between the processes (1 with
    // 8 processes in one rack, 5 with 32 over both pods), and the chip's overhead over the
    // unordered baseline is about half a beacon interval plus skew. Before the port groups a
    // barrier to any host came back down from the core, so every incarnation was flat (chip
    // 9.8 us at 8 and 32 processes) and the chip's overhead at one hop was 7 us.
    const std::string testbed =
        ReadFile(std::string(INCSIM_SOURCE_DIR) + "/scenarios/onepipe/testbed-microbench.json");
    auto latency = [&](uint32_t processHosts, const std::string& variant) {
        TempDir dir;
        RunSummary run =
            RunIn(dir, testbed,
                  {"duration=200us", "workload.pattern=unicast", "workload.interval=20us",
                   "switch.cpu_service_time=300ns", "outputs.progress=never",
                   R"(outputs.traces=["onepipe_sends", "onepipe_deliveries", "onepipe_failures",
                                      "onepipe_prepares"])",
                   fmt::format("protocol.params.process_hosts={}", processHosts), variant});
        INFO(variant << " with " << processHosts << " process hosts");
        if (variant != "protocol.params.ordering=none")
        {
            const CheckReport report = CheckOnePipeRun(run);
            INFO(ViolationText(report));
            CHECK(report.Ok());
        }
        return OnePipeMetric(run, "latency_mean_us");
    };
    const double unordered = latency(8, "protocol.params.ordering=none");
    CHECK(latency(8, "protocol.params.incarnation=chip") - unordered < 2.5);
    for (const char* variant :
         {"protocol.params.incarnation=chip", "protocol.params.incarnation=switch-cpu",
          "protocol.params.incarnation=host-representative", "protocol.params.service=reliable"})
    {
        INFO(variant);
        CHECK(latency(8, variant) + 2 < latency(32, variant));
    }
}
