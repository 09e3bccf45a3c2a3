// The run directory RunScenario writes, and the incsim command line around it.

#include "test-support.h"

#include "sim/runner/runner.h"
#include "sim/runner/version.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <vector>

using namespace incsim;
using namespace incsim::test;
using nlohmann::json;

namespace
{

//   h0 ---- s0 ---- h1      (star with 4 hosts; 100us of UDP)
const char* kStar = R"({
    "seed": 5,
    "duration": "100us",
    "topology": {"generator": "star", "params": {"hosts": 4}},
    "protocol": {"name": "udp"},
    "workload": {"message_size": "500B", "load": 0.2},
    "outputs": {"traces": ["links"], "progress": "never"}
})";

void
WriteText(const std::string& path, const std::string& text)
{
    std::ofstream out(path);
    out << text;
    REQUIRE(out.good());
}

} // namespace

TEST_CASE("RunScenario writes the run directory", "[datapath]")
{
    InitIncsim();
    TempDir dir;
    RunOptions options;
    options.outDir = dir.File("run"); // created if missing
    RunSummary summary = RunScenario(ScenarioFromJson(kStar), options);
    const std::string run = options.outDir;

    SECTION("scenario.resolved.json has every default filled in")
    {
        json resolved = json::parse(ReadFile(run + "/scenario.resolved.json"));
        CHECK(resolved["seed"] == 5);
        CHECK(resolved["duration"] == "100us");
        CHECK(resolved["links"]["rate"] == "100Gbps");
        CHECK(resolved["links"]["mtu"] == "1500B");
        CHECK(resolved["switch"]["pipeline_delay"] == "400ns");
        CHECK(resolved["hosts"]["cores"] == 4);
        CHECK(resolved["routing"]["ecmp"] == "per-flow");
        CHECK(resolved["clocks"]["sync_period"] == "0ns");
        CHECK(resolved["protocol"]["params"]["port"] == 5000);
        CHECK(resolved["workload"]["pattern"] == "uniform");
        CHECK(resolved["faults"] == json::array());
        CHECK(resolved["outputs"]["queue_sample_interval"] == "10us");
        // Running the resolved scenario again is the same run.
        TempDir again;
        RunOptions options2;
        options2.outDir = again.Path();
        RunSummary rerun = RunScenario(ParseScenario(resolved, "resolved.json", ".", {}), options2);
        CHECK(rerun.events == summary.events);
        CHECK(rerun.metrics == summary.metrics);
    }

    SECTION("run.json")
    {
        json info = json::parse(ReadFile(run + "/run.json"));
        for (const char* key : {"seed", "version", "git_sha", "wall_seconds", "events",
                                "simulated_ns", "peak_rss_kb"})
        {
            INFO(key);
            CHECK(info.contains(key));
        }
        CHECK(info["seed"] == 5);
        CHECK(info["simulated_ns"] == 100000);
        CHECK(info["events"].get<uint64_t>() == summary.events);
        CHECK(info["events"].get<uint64_t>() > 0);
        CHECK(info["peak_rss_kb"].get<long>() > 0);
        CHECK(info["wall_seconds"].get<double>() >= 0);
        CHECK(info["version"].get<std::string>() == IncsimVersion());
        CHECK(info["version"].get<std::string>().find(info["git_sha"].get<std::string>()) !=
              std::string::npos);
        CHECK(info["traces"] == json::array({"links.csv"}));
    }

    SECTION("metrics.json")
    {
        json metrics = json::parse(ReadFile(run + "/metrics.json"));
        CHECK(metrics == summary.metrics);
        CHECK(metrics["network"]["frames_delivered"].get<uint64_t>() > 0);
        CHECK(metrics["network"]["drops"].contains("no_route"));
        CHECK(metrics["udp"]["messages_delivered"].get<uint64_t>() > 0);
    }

    SECTION("only the enabled traces")
    {
        CHECK(FileExists(run + "/links.csv"));
        CHECK_FALSE(FileExists(run + "/messages.csv"));
        CHECK_FALSE(FileExists(run + "/packets.csv"));
        CHECK_FALSE(FileExists(run + "/queues.csv"));
        CHECK_FALSE(FileExists(run + "/pcap"));
        // Header plus one row per link direction (4 links).
        std::string links = ReadFile(run + "/links.csv");
        CHECK(std::count(links.begin(), links.end(), '\n') == 1 + 8);
    }

    SECTION("no traces at all")
    {
        TempDir none;
        RunOptions quiet;
        quiet.outDir = none.Path();
        RunScenario(ScenarioFromJson(kStar, {"outputs.traces=[]"}), quiet);
        CHECK(FileExists(none.File("metrics.json")));
        CHECK_FALSE(FileExists(none.File("links.csv")));
        CHECK(json::parse(ReadFile(none.File("run.json")))["traces"] == json::array());
    }
}

TEST_CASE("The incsim command line: run, validate, topo", "[datapath]")
{
    InitIncsim();
    TempDir dir;
    const std::string scenario = dir.File("star.json");
    WriteText(scenario, kStar);

    SECTION("run with --set, --seed and --out")
    {
        const std::string out = dir.File("out");
        CommandResult r = Incsim("run " + Quote(scenario) +
                                     " --set links.delay=2us --set workload.load=0.1"
                                     " --seed 7 --out " + Quote(out),
                                 dir);
        INFO(r.err);
        REQUIRE(r.status == 0);
        CHECK(r.out.find(out) != std::string::npos);
        json info = json::parse(ReadFile(out + "/run.json"));
        CHECK(info["seed"] == 7);
        json resolved = json::parse(ReadFile(out + "/scenario.resolved.json"));
        CHECK(resolved["seed"] == 7);
        CHECK(resolved["links"]["delay"] == "2us");
        CHECK(resolved["workload"]["load"] == 0.1);
        CHECK(FileExists(out + "/metrics.json"));
        CHECK(FileExists(out + "/links.csv"));
    }

    SECTION("run of the quick-start scenario, shortened")
    {
        const std::string out = dir.File("quick");
        CommandResult r = Incsim("run " + Quote(std::string(INCSIM_SOURCE_DIR) +
                                               "/scenarios/quickstart.json") +
                                     " --set duration=200us --set faults=[] --out " + Quote(out),
                                 dir);
        INFO(r.err);
        REQUIRE(r.status == 0);
        CHECK(FileExists(out + "/messages.csv"));
    }

    SECTION("validate: ok, and a bad value named by its JSON path on stderr")
    {
        CommandResult ok = Incsim("validate " + Quote(scenario), dir);
        CHECK(ok.status == 0);
        CHECK(ok.out.find("ok") != std::string::npos);

        const std::string bad = dir.File("bad.json");
        WriteText(bad, R"({"duration": "1ms", "topology": {"generator": "star"},
                           "links": {"rate": "fast"}, "protocol": {"name": "udp"}})");
        CommandResult r = Incsim("validate " + Quote(bad), dir);
        CHECK(r.status != 0);
        CHECK(r.err.find("/links/rate") != std::string::npos);
        CHECK(r.err.find("bad.json") != std::string::npos);
        CHECK(r.out.empty());

        const std::string fault = dir.File("bad-fault.json");
        WriteText(fault, R"({"duration": "1ms", "topology": {"generator": "star"},
                             "protocol": {"name": "udp"},
                             "faults": [{"at": "10us", "action": "link_down",
                                         "link": ["h0", "nowhere"]}]})");
        r = Incsim("validate " + Quote(fault), dir);
        CHECK(r.status != 0);
        CHECK(r.err.find("/faults/0/link") != std::string::npos);
        CHECK(r.err.find("nowhere") != std::string::npos);

        const std::string syntax = dir.File("syntax.json");
        WriteText(syntax, "{\"duration\": \"1ms\",\n  \"topology\": }\n");
        r = Incsim("validate " + Quote(syntax), dir);
        CHECK(r.status != 0);
        CHECK(r.err.find("syntax.json:2:") != std::string::npos);
    }

    SECTION("topo --dot")
    {
        CommandResult r = Incsim("topo --dot " + Quote(scenario), dir);
        INFO(r.err);
        REQUIRE(r.status == 0);
        CHECK(r.out.find("graph") != std::string::npos);
        for (const char* node : {"h0", "h1", "h2", "h3", "s0"})
        {
            INFO(node);
            CHECK(r.out.find(node) != std::string::npos);
        }
        CommandResult plain = Incsim("topo " + Quote(scenario), dir);
        CHECK(plain.status == 0);
        CHECK(plain.out.find("4 hosts, 1 switches, 4 links") != std::string::npos);
    }
}
