// The same scenario and seed give byte-identical run directories.

#include "test-support.h"

#include "sim/runner/runner.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

// A small quickstart: k=4 fat-tree, random loss on every link, and a link that fails and
// comes back, background bulk flows, with every trace and pcap enabled.
const char* kScenario = R"({
    "name": "determinism",
    "seed": 1,
    "duration": "400us",
    "topology": {"generator": "fat-tree", "params": {"k": 4}},
    "links": {"rate": "10Gbps", "delay": "1us", "buffer": "64KiB", "loss": 0.002},
    "routing": {"reconverge_delay": "50us"},
    "hosts": {"message_cost": "200ns", "cores": 2},
    "clocks": {"offset": {"dist": "uniform", "min": "0ns", "max": "1us"}},
    "protocol": {"name": "udp"},
    "workload": {"pattern": "uniform", "message_size": "3000B", "load": 0.6},
    "background": {"flows_per_host": 1, "min_rto": "50us"},
    "faults": [
        {"at": "150us", "action": "link_down", "link": ["a0_0", "c0"]},
        {"at": "300us", "action": "link_up", "link": ["a0_0", "c0"]}
    ],
    "outputs": {"traces": ["packets", "messages", "links", "queues"],
                "queue_sample_interval": "5us", "pcap": true, "progress": "never"}
})";

/// Every file of a run directory, by relative path, with its contents.
std::map<std::string, std::string>
Files(const std::string& dir)
{
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    {
        if (entry.is_regular_file())
        {
            files[std::filesystem::relative(entry.path(), dir).string()] =
                ReadFile(entry.path().string());
        }
    }
    return files;
}

RunSummary
Run(const std::string& dir, const std::vector<std::string>& overrides = {})
{
    RunOptions options;
    options.outDir = dir;
    return RunScenario(ScenarioFromJson(kScenario, overrides), options);
}

} // namespace

TEST_CASE("Same scenario and seed: byte-identical traces and metrics", "[determinism]")
{
    InitIncsim();
    TempDir first;
    TempDir other;
    TempDir second;
    RunSummary a = Run(first.Path());
    // A different run in between must not leak state into the next one.
    Run(other.Path(), {"seed=2"});
    RunSummary b = Run(second.Path());

    auto filesA = Files(first.Path());
    auto filesB = Files(second.Path());
    std::vector<std::string> names;
    for (const auto& [name, text] : filesA)
    {
        names.push_back(name);
    }
    for (const char* expected : {"packets.csv", "messages.csv", "links.csv", "queues.csv",
                                 "metrics.json", "scenario.resolved.json", "run.json",
                                 "pcap/h0-0.pcap", "pcap/c0-0.pcap"})
    {
        INFO(expected);
        CHECK(filesA.count(expected) == 1);
    }

    // The run really exercised loss, the fault, and queues.
    nlohmann::json metrics = nlohmann::json::parse(filesA["metrics.json"]);
    CHECK(metrics["network"]["drops"]["link_loss"].get<uint64_t>() > 0);
    CHECK(metrics["network"]["drops"]["link_down"].get<uint64_t>() +
              metrics["network"]["drops"]["no_route"].get<uint64_t>() >
          0);
    CHECK(metrics["udp"]["messages_delivered"].get<uint64_t>() > 500);
    CHECK(metrics["background"]["retransmissions"].get<uint64_t>() > 0);
    CHECK(filesA["queues.csv"].size() > 1000);

    CHECK(filesB.size() == filesA.size());
    for (const auto& name : names)
    {
        if (name == "run.json")
        {
            continue; // wall time and memory differ from run to run
        }
        INFO(name << " (" << filesA[name].size() << " bytes)");
        REQUIRE(filesB.count(name) == 1);
        CHECK(filesA[name] == filesB[name]);
    }
    nlohmann::json runA = nlohmann::json::parse(filesA["run.json"]);
    nlohmann::json runB = nlohmann::json::parse(filesB["run.json"]);
    for (const char* key : {"seed", "events", "simulated_ns", "traces", "version"})
    {
        INFO(key);
        CHECK(runA[key] == runB[key]);
    }
    CHECK(a.events == b.events);
    CHECK(a.metrics == b.metrics);

    SECTION("a different seed gives different messages")
    {
        auto filesOther = Files(other.Path());
        CHECK(filesOther["messages.csv"] != filesA["messages.csv"]);
        CHECK(filesOther["packets.csv"] != filesA["packets.csv"]);
    }
}
