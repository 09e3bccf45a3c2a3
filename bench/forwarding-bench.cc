// incsim_bench: forwarded packet-hops per wall-second of incsim against two stock ns-3
// references on the same fat-tree and traffic, and incsim's memory per host and per switch.
// See bench/README.md.

#include "bench/memory-bench.h"
#include "bench/traffic.h"
#include "bench/variants.h"

#include "sim/core/sim-time.h"
#include "sim/core/units.h"

#include <ns3/global-value.h>
#include <ns3/string.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace
{

using incsim::bench::TrafficSpec;
using incsim::bench::VariantResult;

constexpr double kTargetVsIp = 15.0;
constexpr double kTargetVsP2p = 0.75;

int64_t
DurationNs(const std::string& text, const char* option)
{
    std::optional<int64_t> ns = incsim::ParseDurationNs(text);
    if (!ns || *ns <= 0)
    {
        throw CLI::ValidationError(option, "expected a duration like \"1ms\", got \"" + text + "\"");
    }
    return *ns;
}

std::string
Ratio(double numerator, double denominator)
{
    return denominator > 0 ? fmt::format("{:.2f}", numerator / denominator) : "-";
}

void
PrintTable(const std::vector<VariantResult>& results, const VariantResult* incsim)
{
    std::cout << fmt::format("{:<13} {:>8} {:>9} {:>8} {:>8} {:>5} {:>9} {:>7} {:>7} {:>9} "
                             "{:>9} {:>8} {:>8}\n",
                             "variant", "sim time", "hops", "sent", "received", "drops", "events",
                             "wall s", "cpu s", "hops/s", "hops/cpus", "incsim/x", "(cpu)");
    for (const VariantResult& r : results)
    {
        std::string ratio = incsim ? Ratio(incsim->HopsPerSecond(), r.HopsPerSecond()) : "-";
        std::string cpuRatio =
            incsim ? Ratio(incsim->HopsPerCpuSecond(), r.HopsPerCpuSecond()) : "-";
        std::cout << fmt::format("{:<13} {:>8} {:>9} {:>8} {:>8} {:>5} {:>9} {:>7.3f} {:>7.3f} "
                                 "{:>9.0f} {:>9.0f} {:>8} {:>8}\n",
                                 r.name, incsim::FormatDuration(r.simulatedNs), r.hops,
                                 r.framesSent, r.framesReceived, r.drops, r.events,
                                 r.wallSeconds, r.cpuSeconds, r.HopsPerSecond(),
                                 r.HopsPerCpuSecond(), ratio, cpuRatio);
    }
}

void
PrintVerdicts(const VariantResult& incsim, const std::vector<VariantResult>& results)
{
    for (const VariantResult& r : results)
    {
        if (&r == &incsim || r.HopsPerSecond() <= 0)
        {
            continue;
        }
        double target = r.name == "ns-3 IP" ? kTargetVsIp : kTargetVsP2p;
        double ratio = incsim.HopsPerSecond() / r.HopsPerSecond();
        double cpuRatio = incsim.HopsPerCpuSecond() / r.HopsPerCpuSecond();
        std::cout << fmt::format("incsim / {:<13} = {:7.2f}x wall, {:7.2f}x cpu   "
                                 "target >= {:.2f}x   {}\n",
                                 r.name, ratio, cpuRatio, target,
                                 ratio >= target ? "MET" : "MISSED");
    }
}

} // namespace

int
main(int argc, char** argv)
{
    incsim::EnsurePicosecondResolution(); // before any ns3::Time exists, references included
    spdlog::set_level(spdlog::level::warn);

    TrafficSpec spec;
    std::string simTime = "1ms";
    std::string ipSimTime;
    std::string rate = "100Gbps";
    std::string scheduler = "ns3::MapScheduler";
    std::vector<std::string> only;
    std::vector<uint32_t> memoryKs{8, 16};
    bool quick = false;
    int repeat = 1;

    CLI::App app{"incsim_bench: packet-hops per wall-second of incsim vs. ns-3 on a fat-tree"};
    app.add_option("--k", spec.k, "fat-tree radix")->check(CLI::Range(2, 64));
    app.add_option("--sim-time", simTime, "simulated time of incsim and raw p2p");
    app.add_option("--ip-sim-time", ipSimTime,
                   "simulated time of plain ns-3 IP (default: sim-time / 20; it is slow)");
    app.add_option("--rate", rate, "link rate");
    app.add_option("--load", spec.load, "offered load per host")->check(CLI::Range(0.01, 1.0));
    app.add_option("--scheduler", scheduler,
                   "ns-3 scheduler of all three variants (ns-3's default: ns3::MapScheduler)")
        ->check(CLI::IsMember({"ns3::MapScheduler", "ns3::HeapScheduler",
                               "ns3::CalendarScheduler", "ns3::PriorityQueueScheduler"}));
    app.add_option("--repeat", repeat, "runs per variant; the fastest is reported")
        ->check(CLI::Range(1, 20));
    app.add_option("--memory-k", memoryKs, "fat-tree radixes of the memory table");
    app.add_option("--only", only, "run only these: incsim, ip, p2p, mem (repeatable)")
        ->check(CLI::IsMember({"incsim", "ip", "p2p", "mem"}));
    app.add_flag("--quick", quick, "small and fast (k=4, 200us; CI smoke run)");
    CLI11_PARSE(app, argc, argv);

    try
    {
        if (quick)
        {
            if (app.count("--k") == 0)
            {
                spec.k = 4;
            }
            if (app.count("--sim-time") == 0)
            {
                simTime = "200us";
            }
            if (app.count("--memory-k") == 0)
            {
                memoryKs = {4, 8};
            }
        }
        std::optional<uint64_t> rateBps = incsim::ParseRateBps(rate);
        if (!rateBps || *rateBps == 0)
        {
            throw CLI::ValidationError("--rate", "expected a rate like \"100Gbps\"");
        }
        spec.rateBps = *rateBps;
        int64_t simNs = DurationNs(simTime, "--sim-time");
        int64_t ipSimNs = ipSimTime.empty() ? std::max<int64_t>(simNs / 20, 1)
                                            : DurationNs(ipSimTime, "--ip-sim-time");
        // Read when the simulator is (re)created, i.e. by every variant after Destroy.
        ns3::GlobalValue::Bind("SchedulerType", ns3::StringValue(scheduler));
        std::set<std::string> selected(only.begin(), only.end());
        auto wanted = [&](const char* name) { return selected.empty() || selected.count(name); };

        // Memory first: RSS deltas mean most before the forwarding runs have grown the heap.
        std::vector<incsim::bench::MemoryRow> memory;
        if (wanted("mem"))
        {
            for (uint32_t k : memoryKs)
            {
                memory.push_back(incsim::bench::MeasureMemory(k));
            }
        }

        std::vector<VariantResult> results;
        if (wanted("incsim") || wanted("p2p") || wanted("ip"))
        {
            std::cout << fmt::format(
                "fat-tree k={} ({} hosts, {} switches), {} links, {} delay; all-to-all, {}-byte "
                "frames on the wire, constant {:.0f}% load per host; ns-3 time resolution 1ps; "
                "scheduler {}{}\n\n",
                spec.k, spec.k * spec.k * spec.k / 4, spec.k * spec.k * 5 / 4,
                incsim::FormatRate(spec.rateBps), incsim::FormatDuration(spec.delayNs),
                spec.WireBytes(), spec.load * 100, scheduler,
                scheduler == "ns3::MapScheduler" ? " (ns-3's default)" : "");
        }
        if (wanted("incsim"))
        {
            results.push_back(incsim::bench::FastestOf(repeat, [&] { return incsim::bench::RunIncsim(spec, simNs); }));
        }
        if (wanted("p2p"))
        {
            results.push_back(incsim::bench::FastestOf(repeat, [&] { return incsim::bench::RunRawP2p(spec, simNs); }));
        }
        if (wanted("ip"))
        {
            results.push_back(incsim::bench::FastestOf(repeat, [&] { return incsim::bench::RunNs3Ip(spec, ipSimNs); }));
        }
        const VariantResult* incsimResult = nullptr;
        for (const auto& r : results)
        {
            incsimResult = r.name == "incsim" ? &r : incsimResult;
        }
        if (!results.empty())
        {
            PrintTable(results, incsimResult);
            if (incsimResult != nullptr)
            {
                std::cout << "\n";
                PrintVerdicts(*incsimResult, results);
            }
        }
        if (!memory.empty())
        {
            std::cout << (results.empty() ? "" : "\n")
                      << "incsim World memory (construction only, topology included)\n";
            incsim::bench::PrintMemoryTable(std::cout, memory);
        }
    }
    catch (const CLI::Error& e)
    {
        return app.exit(e);
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
