// incsim_onepipe_bench: 1Pipe on k-ary fat-trees (every switch running p4/onepipe.p4, 3 us
// beacons, all hosts sending), best effort and reliable, next to incsim's plain forwarding of
// the same traffic, at several k: simulated us per wall-second, packet-hops per wall-second,
// and the cost of a packet-hop as k grows. See bench/README.md.

#include "bench/traffic.h"
#include "bench/variants.h"

#include "protocols/onepipe/onepipe-protocol.h"
#include "sim/core/sim-time.h"
#include "sim/core/units.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario.h"
#include "topologies/register.h"

#include <ns3/global-value.h>
#include <ns3/string.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace
{

using incsim::bench::TrafficSpec;
using incsim::bench::VariantResult;

// The issue's target: the cost per packet-hop stays within this factor from the smallest k.
constexpr double kFlatCostTarget = 1.5;

/// 1Pipe with the forwarding benchmark's network and load: every host sends a 1000-byte
/// message (one packet) at the same constant interval, to a random other host. Messages sent
/// and delivered go into framesSent and framesReceived. `reliable`: the reliable service
/// (prepares, ACKs, commit barriers).
VariantResult
RunOnePipe(const TrafficSpec& spec, int64_t simTimeNs, bool reliable)
{
    incsim::RegisterTopologyGenerators();
    incsim::onepipe::RegisterOnePipeProtocol();
    nlohmann::json document = incsim::bench::IncsimScenario(spec, simTimeNs);
    document["name"] = "onepipe-bench";
    document["clocks"] = {{"offset", {{"dist", "uniform"}, {"min", "-300ns"}, {"max", "300ns"}}}};
    document["protocol"] = {
        {"name", "onepipe"},
        {"params",
         {{"beacon_interval", "3us"}, {"service", reliable ? "reliable" : "best-effort"}}}};
    document["workload"] = {{"pattern", "unicast"},
                            {"message_size", std::to_string(spec.messageBytes) + "B"},
                            {"interval", std::to_string(spec.IntervalPs() / 1000) + "ns"},
                            {"arrivals", "constant"}};
    incsim::Scenario scenario = incsim::ParseScenario(document, "onepipe-bench", ".", {});
    VariantResult result;
    result.name = reliable ? "1Pipe/R" : "1Pipe";
    {
        incsim::Simulation simulation(scenario, "/nonexistent-incsim-bench");
        incsim::bench::TimedSimulatorRun(simTimeNs, result);
        nlohmann::json metrics = simulation.Metrics();
        result.hops = metrics["network"]["frames_delivered"].get<uint64_t>();
        for (const auto& [reason, count] : metrics["network"]["drops"].items())
        {
            result.drops += count.get<uint64_t>();
        }
        result.framesSent = metrics["onepipe"]["messages_sent"].get<uint64_t>();
        result.framesReceived = metrics["onepipe"]["messages_delivered"].get<uint64_t>();
    }
    return result;
}

double
NsPerHop(const VariantResult& r)
{
    return r.hops > 0 ? r.wallSeconds * 1e9 / r.hops : 0;
}

double
SimUsPerWallSecond(const VariantResult& r)
{
    return r.wallSeconds > 0 ? r.simulatedNs / 1e3 / r.wallSeconds : 0;
}

} // namespace

int
main(int argc, char** argv)
{
    incsim::EnsurePicosecondResolution();
    spdlog::set_level(spdlog::level::warn);

    std::vector<uint32_t> ks{4, 8, 16};
    std::string simTime = "200us";
    TrafficSpec spec;
    int repeat = 1;
    bool quick = false;
    std::string scheduler = "calendar";

    CLI::App app{"incsim_onepipe_bench: 1Pipe on fat-trees against plain forwarding, by k"};
    app.add_option("--k", ks, "fat-tree radixes (repeatable)")->check(CLI::Range(2, 32));
    app.add_option("--sim-time", simTime, "simulated time of every run");
    app.add_option("--load", spec.load, "offered load per host")->check(CLI::Range(0.01, 0.9));
    app.add_option("--repeat", repeat, "runs per variant and k; the fastest is reported")
        ->check(CLI::Range(1, 20));
    app.add_option("--scheduler", scheduler, "ns-3 scheduler of both variants, by incsim's name")
        ->check(CLI::IsMember({"calendar", "heap", "map", "priority-queue"}));
    app.add_flag("--quick", quick, "small and fast (k=4 and 8, 20us; CI smoke run)");
    CLI11_PARSE(app, argc, argv);

    if (quick)
    {
        ks = app.count("--k") ? ks : std::vector<uint32_t>{4, 8};
        simTime = app.count("--sim-time") ? simTime : "20us";
    }
    std::optional<int64_t> simNs = incsim::ParseDurationNs(simTime);
    if (!simNs || *simNs <= 0)
    {
        std::cerr << "error: --sim-time: expected a duration like \"200us\", got \"" << simTime
                  << "\"\n";
        return 1;
    }
    try
    {
        // Both variants run on the scheduler ns-3's "SchedulerType" global names.
        ns3::GlobalValue::Bind("SchedulerType",
                               ns3::StringValue(incsim::SchedulerTypeName(scheduler)));
        std::cout << fmt::format(
            "fat-trees of {} links, {} delay; every host sends {}-byte messages at a constant "
            "{:.0f}% of its link rate (forward: round-robin to all hosts, udp; 1Pipe: to a random "
            "host, onepipe.p4 in every switch, 3us beacons, 0.3us clock skew); {} simulated; "
            "{} scheduler\n\n",
            incsim::FormatRate(spec.rateBps), incsim::FormatDuration(spec.delayNs),
            spec.messageBytes, spec.load * 100, simTime, scheduler);
        std::cout << fmt::format("{:>3} {:>6} {:>7} {:>10} {:>10} {:>8} {:>11} {:>10} {:>8} "
                                 "{:>8} {:>9} {:>9}\n",
                                 "k", "hosts", "variant", "hops", "events", "wall s",
                                 "sim-us/s", "hops/s", "ns/hop", "x fwd", "x k0", "delivered");
        double firstNsPerHop = 0;
        double worstGrowth = 0;
        for (uint32_t k : ks)
        {
            spec.k = k;
            VariantResult forward = incsim::bench::FastestOf(
                repeat, [&] { return incsim::bench::RunIncsim(spec, *simNs); });
            forward.name = "forward";
            VariantResult onepipe = incsim::bench::FastestOf(
                repeat, [&] { return RunOnePipe(spec, *simNs, false); });
            VariantResult reliable = incsim::bench::FastestOf(
                repeat, [&] { return RunOnePipe(spec, *simNs, true); });
            firstNsPerHop = firstNsPerHop > 0 ? firstNsPerHop : NsPerHop(onepipe);
            const double growth = NsPerHop(onepipe) / firstNsPerHop;
            worstGrowth = std::max(worstGrowth, growth);
            for (const auto* r : {&forward, &onepipe, &reliable})
            {
                const bool isOnePipe = r != &forward;
                std::cout << fmt::format(
                    "{:>3} {:>6} {:>7} {:>10} {:>10} {:>8.3f} {:>11.1f} {:>10.0f} {:>8.0f} {:>8} "
                    "{:>9} {:>9}\n",
                    k, k * k * k / 4, r->name, r->hops, r->events, r->wallSeconds,
                    SimUsPerWallSecond(*r), r->HopsPerSecond(), NsPerHop(*r),
                    isOnePipe ? fmt::format("{:.2f}", NsPerHop(*r) / NsPerHop(forward)) : "",
                    r == &onepipe ? fmt::format("{:.2f}", growth) : "",
                    isOnePipe ? fmt::format("{:.3f}", r->framesSent ? double(r->framesReceived) /
                                                                          r->framesSent
                                                                    : 0.0)
                              : "");
            }
            std::cout << fmt::format("{:>3} reliable over best effort: {:.2f}x wall time, "
                                     "{:.2f}x ns per hop\n",
                                     k, reliable.wallSeconds / onepipe.wallSeconds,
                                     NsPerHop(reliable) / NsPerHop(onepipe));
        }
        std::cout << fmt::format(
            "\n1Pipe cost per packet-hop, largest over smallest k: {:.2f}x   target <= {:.1f}x"
            "   {}\n",
            worstGrowth, kFlatCostTarget, worstGrowth <= kFlatCostTarget ? "MET" : "MISSED");
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
