// Inputs that used to be accepted silently (or refused with a raw exception) and are now
// clear errors naming the file and the JSON path: each case asserts the message a user sees.

#include "test-support.h"

#include "sim/core/diagnostics.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/memory-estimate.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario.h"
#include "sim/topology/topology-registry.h"
#include "tools/experiment/sweep-spec.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace incsim;
using namespace incsim::test;
using nlohmann::json;

namespace
{

// A small udp scenario: a star of 4 hosts, 100Gbps links, 100us.
const char* const kStar = R"({
    "duration": "100us",
    "topology": {"generator": "star", "params": {"hosts": 4}},
    "protocol": {"name": "udp"},
    "outputs": {"traces": [], "progress": "never"}
})";

/// The error a scenario gets from the schema and from assembling its simulation (what
/// `incsim validate` does), or "no error".
std::string
ErrorOf(const std::string& scenario, const std::vector<std::string>& overrides = {})
{
    InitIncsim();
    try
    {
        Scenario parsed = ScenarioFromJson(scenario, overrides);
        TempDir dir;
        Simulation simulation(parsed, dir.Path());
    }
    catch (const InputError& error)
    {
        return error.what();
    }
    catch (const ConfigError& error)
    {
        return error.what();
    }
    return "no error";
}

/// The error reading `path` with `read` gives, or "no error".
template <typename Read>
std::string
ReadError(Read read)
{
    try
    {
        read();
    }
    catch (const InputError& error)
    {
        return error.what();
    }
    return "no error";
}

} // namespace

// ---- JSON ----

TEST_CASE("a key given twice is an error at its line, column and JSON path", "[inputs][json]")
{
    auto parse = [](const std::string& text) {
        return ReadError([&] { ParseJsonText(text, "x.json"); });
    };
    CHECK(parse("{\"seed\": 1,\n \"seed\": 2}") ==
          "x.json:2:2: /seed: duplicate key \"seed\" (first given at line 1, column 2); a key may "
          "appear once in an object");
    CHECK(parse(R"({"faults": [{"at": "1ms"}, {"at": "1ms", "action": "x", "at": "2ms"}]})") ==
          "x.json:1:57: /faults/1/at: duplicate key \"at\" (first given at line 1, column 29); a "
          "key may appear once in an object");
    // Keys with escapes and slashes: the pointer escapes them, the column is the key's quote.
    CHECK(parse(R"({"a/b": {"q\"x": 1, "q\"x": 2}})") ==
          "x.json:1:21: /a~1b/q\"x: duplicate key \"q\\\"x\" (first given at line 1, column 10); a "
          "key may appear once in an object");
    // The same key in two objects is fine.
    CHECK(parse(R"({"a": {"k": 1}, "b": {"k": 2}})") == "no error");
}

TEST_CASE("a number out of a double's range is a located error, not a JSON exception",
          "[inputs][json]")
{
    auto parse = [](const std::string& text) {
        return ReadError([&] { ParseJsonText(text, "x.json"); });
    };
    CHECK(parse(R"({"links": {"loss": 1e400}})") ==
          "x.json:1:20: /links/loss: number 1e400 is out of range: a JSON number here must fit "
          "in a double (magnitude below about 1.8e308)");
    CHECK(parse("[1,\n -2.5e999]") ==
          "x.json:2:2: /1: number -2.5e999 is out of range: a JSON number here must fit in a "
          "double (magnitude below about 1.8e308)");
    CHECK(parse("1" + std::string(400, '0')).find("x.json:1:1: number 1000") == 0);
    std::string deepest;
    for (size_t level = 0; level < kMaxJsonDepth; ++level)
    {
        deepest += "/0";
    }
    CHECK(parse(std::string(300, '[') + std::string(300, ']')) ==
          "x.json:1:257: " + deepest + ": arrays and objects nest deeper than 256 levels");
    // Copying and printing a document recurse once per level: 100k levels overflowed the stack.
    CHECK(parse("{\"name\": " + std::string(100000, '[') + std::string(100000, ']') + "}")
              .find("arrays and objects nest deeper than 256 levels") != std::string::npos);
    CHECK(parse("{\"a\": \"[[[[\\\"[[[\"}") == "no error");
    CHECK(parse("{\"seed\": 1") ==
          "x.json:1:11: JSON syntax error: unexpected end of input; expected '}' (while parsing "
          "object)");
}

TEST_CASE("values given with --set are checked like files", "[inputs][json]")
{
    CHECK(ErrorOf(kStar, {"links.loss=1e400"}) ==
          "--set: /links/loss: number 1e400 is out of range: a JSON number here must fit in a "
          "double (magnitude below about 1.8e308)");
    CHECK(ErrorOf(kStar, {R"(workload={"load": 0.1, "load": 0.9})"}) ==
          "--set: /workload/load: duplicate key \"load\" (first given at line 1, column 2); a "
          "key may appear once in an object");
    CHECK(ErrorOf(kStar, {"name=\xff"}) == "--set: /name: the value is not valid UTF-8");
}

TEST_CASE("every JSON file incsim reads rejects duplicate keys", "[inputs][json]")
{
    InitIncsim();
    TempDir dir;
    const std::string dup = R"({"duration": "1ms", "duration": "2ms"})";
    WriteFile(dir.File("dup.json"), dup);
    CHECK(ReadError([&] { LoadScenario(dir.File("dup.json")); }) ==
          dir.File("dup.json") +
              ":1:21: /duration: duplicate key \"duration\" (first given at line 1, column 2); a "
              "key may appear once in an object");
    CHECK(ReadError([&] { experiment::LoadSweep(dir.File("dup.json")); })
              .find(dir.File("dup.json") + ":1:21: /duration: duplicate key") == 0);

    WriteFile(dir.File("topo.json"),
              R"({"nodes": [{"name": "h0", "kind": "host", "kind": "switch"}]})");
    CHECK(ErrorOf(R"({"duration": "1ms", "topology": {"file": ")" + dir.File("topo.json") +
                  R"("}, "protocol": {"name": "udp"}})") ==
          "test.json: /topology/file: " + dir.File("topo.json") +
              ":1:43: /nodes/0/kind: duplicate key \"kind\" (first given at line 1, column 27); a "
              "key may appear once in an object");

    WriteFile(dir.File("entries.json"),
              R"({"multicast_groups": [{"id": 1, "ports": [0], "id": 2}]})");
    CHECK(ErrorOf(kStar, {"switch.entries=" + dir.File("entries.json")}) ==
          "--set: /switch/entries: " + dir.File("entries.json") +
              ":1:47: /multicast_groups/0/id: duplicate key \"id\" (first given at line 1, column "
              "24); a key may appear once in an object");
}

// ---- Units ----

TEST_CASE("a topology file that cannot be read is an error at the scenario's /topology/file",
          "[inputs]")
{
    // Found by fuzz.scenario: the error named only the missing file, not the scenario and
    // the field that named it.
    TempDir dir;
    const std::string missing = dir.File("no-such-topology.json");
    CHECK(ErrorOf(R"({"duration": "1ms", "topology": {"file": ")" + missing +
                  R"("}, "protocol": {"name": "udp"}})") ==
          "test.json: /topology/file: " + missing + ": cannot open file: No such file or directory");
}

TEST_CASE("a duration below a nanosecond says why it is refused", "[inputs][units]")
{
    CHECK(ErrorOf(kStar, {"links.delay=1ps"}) ==
          "--set: /links/delay: expected a duration like \"1us\", got \"1ps\": not a whole number "
          "of nanoseconds (scenario durations have nanosecond resolution; \"1000ps\" is 1ns)");
    CHECK(ErrorOf(kStar, {"links.delay=2000ps"}) == "no error");
    CHECK(ErrorOf(kStar, {"clocks.offset=-1ps"}) ==
          "--set: /clocks/offset: expected a duration like \"1us\" or \"-1us\", or a "
          "distribution like {\"dist\": \"uniform\", \"min\": \"0ns\", \"max\": \"1us\"}, got "
          "\"-1ps\": not a whole number of nanoseconds (scenario durations have nanosecond "
          "resolution; \"1000ps\" is 1ns)");
    CHECK(ErrorOf(kStar, {"links.delay=5usec"}) ==
          "--set: /links/delay: expected a duration like \"1us\", got \"5usec\": unknown unit "
          "\"usec\" (known: ps, ns, us, ms, s)");
    CHECK(ErrorOf(kStar, {"duration=10000000000s"}) ==
          "--set: /duration: expected a duration like \"1us\", got \"10000000000s\": too large "
          "(at most 1000000s)");
    CHECK(ErrorOf(kStar, {"links.rate=0.5bps"}) ==
          "--set: /links/rate: expected a rate like \"100Gbps\", got \"0.5bps\": not a whole "
          "number of bits per second");
}

// ---- Scenario values that cannot work together ----

TEST_CASE("a priority beyond the switch's queues is an error", "[inputs]")
{
    // A value given with --set is blamed on --set.
    CHECK(ErrorOf(kStar, {"protocol.params.priority=7", "switch.priorities=1"}) ==
          "--set: /protocol/params/priority: expected an integer in [0, 7], below "
          "/switch/priorities, which is 1, got 7");
    CHECK(ErrorOf(kStar, {"background.priority=2", "switch.priorities=2"}) ==
          "--set: /background/priority: expected an integer in [0, 7], below "
          "/switch/priorities, which is 2, got 2");
    CHECK(ErrorOf(R"({"duration": "100us", "topology": {"generator": "onepipe-testbed"},
                      "switch": {"priorities": 4},
                      "protocol": {"name": "onepipe", "params": {"priority": 4}}})") ==
          "test.json: /protocol/params/priority: expected an integer in [0, 7], below "
          "/switch/priorities, which is 4, got 4");
    CHECK(ErrorOf(kStar, {"protocol.params.priority=1", "switch.priorities=2"}) == "no error");
}

TEST_CASE("a workload window must start before it stops and before the run ends", "[inputs]")
{
    CHECK(ErrorOf(kStar, {"workload.start=50us", "workload.stop=20us"}) ==
          "--set: /workload/stop: expected a time after start \"50us\", got \"20us\": hosts "
          "would send nothing");
    CHECK(ErrorOf(kStar, {"workload.start=20us", "workload.stop=20us"}) ==
          "--set: /workload/stop: expected a time after start \"20us\", got \"20us\": hosts "
          "would send nothing");
    CHECK(ErrorOf(kStar, {"workload.start=100us"}) ==
          "--set: /workload/start: hosts would start sending at 100us, which is not before "
          "the end of the run at 100us (/duration)");
    CHECK(ErrorOf(kStar, {"background.flows_per_host=1", "background.start=30us",
                          "background.stop=10us"}) ==
          "--set: /background/stop: expected a time after start \"30us\", got \"10us\": "
          "flows would send nothing");
    CHECK(ErrorOf(R"({"duration": "100us", "topology": {"generator": "onepipe-testbed"},
                      "protocol": {"name": "onepipe"},
                      "workload": {"start": "60us", "stop": "50us"}})") ==
          "test.json: /workload/stop: expected a time after start \"60us\", got \"50us\": "
          "processes would send nothing");
    const std::string gotthard =
        ReadFile(std::string(INCSIM_SOURCE_DIR) + "/scenarios/gotthard/microbench.json");
    CHECK(ErrorOf(gotthard, {"workload.start=60s", "workload.stop=50s"}) ==
          "--set: /workload/stop: expected a time after start \"60s\", got \"50s\": clients "
          "would send nothing");
    // A stop after the end of the run is the end of the run.
    CHECK(ErrorOf(kStar, {"workload.start=10us", "workload.stop=1s"}) == "no error");
}

TEST_CASE("a topology needs two hosts that can reach each other within the run", "[inputs]")
{
    CHECK(ErrorOf(kStar, {"topology.params.hosts=1"}) ==
          "--set: /topology/params/hosts: expected an integer >= 2, got 1");
    CHECK(ErrorOf(kStar, {"topology.generator=leaf-spine",
                          R"(topology.params={"leaves": 1, "hosts_per_leaf": 1})"}) ==
          "--set: /topology/params: the topology has 1 host (h0); traffic needs at least 2");

    TempDir dir;
    WriteFile(dir.File("islands.json"), R"({
        "nodes": [{"name": "s0", "kind": "switch"}, {"name": "s1", "kind": "switch"},
                  {"name": "h0", "kind": "host"}, {"name": "h1", "kind": "host"},
                  {"name": "h2", "kind": "host"}, {"name": "h3", "kind": "host"}],
        "links": [{"a": "h0", "b": "s0"}, {"a": "h1", "b": "s0"},
                  {"a": "h2", "b": "s1"}, {"a": "h3", "b": "s1"}]})");
    const std::string islands = R"({"duration": "1ms", "topology": {"file": ")" +
                                dir.File("islands.json") + R"("}, "protocol": {"name": "udp"}})";
    CHECK(ErrorOf(islands) == dir.File("islands.json") +
                                  ": /links: the topology is not connected: h2, h3 cannot reach "
                                  "h0 (paths run through switches only)");
    // A host that only another host links to is cut off too: hosts do not forward.
    WriteFile(dir.File("behind-host.json"), R"({
        "nodes": [{"name": "s0", "kind": "switch"}, {"name": "h0", "kind": "host"},
                  {"name": "h1", "kind": "host"}, {"name": "h2", "kind": "host"}],
        "links": [{"a": "h0", "b": "s0"}, {"a": "h1", "b": "s0"}, {"a": "h2", "b": "h1"}]})");
    CHECK(ErrorOf(R"({"duration": "1ms", "topology": {"file": ")" + dir.File("behind-host.json") +
                  R"("}, "protocol": {"name": "udp"}})") ==
          dir.File("behind-host.json") +
              ": /links: the topology is not connected: h2 cannot reach h0 (paths run through "
              "switches only)");

    CHECK(ErrorOf(kStar, {"links.rate=1Mbps"}) ==
          "--set: /links/rate: link h0-s0 at 1Mbps needs 12304us to send one 1538-byte "
          "frame (/links/mtu 1500B with Ethernet framing), longer than the whole run (/duration "
          "100us)");
    CHECK(ErrorOf(kStar, {"topology.generator=dumbbell",
                          R"(topology.params={"bottleneck_rate": "100Kbps"})"}) ==
          "--set: /topology/params: link left-right at 100Kbps needs 123040us to send one "
          "1538-byte frame (/links/mtu 1500B with Ethernet framing), longer than the whole run "
          "(/duration 100us)");
    CHECK(ErrorOf(kStar, {"links.delay=50us"}) ==
          "test.json: /duration: no packet can cross the network within the run: the closest "
          "hosts, h0 and h1, are 100us apart by propagation delay alone, and the run lasts 100us");
    CHECK(ErrorOf(kStar, {"links.delay=40us"}) == "no error");
}

TEST_CASE("a link that loses every packet is a failed link, not a loss rate", "[inputs]")
{
    CHECK(ErrorOf(kStar, {"links.loss=1"}) ==
          "--set: /links/loss: expected a number in [0, 1), got 1 (a link that loses every "
          "packet is a failed link: use a link_down fault, which routing sees)");
    TempDir dir;
    WriteFile(dir.File("lossy.json"), R"({
        "nodes": [{"name": "s0", "kind": "switch"}, {"name": "h0", "kind": "host"},
                  {"name": "h1", "kind": "host"}],
        "links": [{"a": "h0", "b": "s0"}, {"a": "h1", "b": "s0", "loss": 1.0}]})");
    CHECK(ErrorOf(R"({"duration": "1ms", "topology": {"file": ")" + dir.File("lossy.json") +
                  R"("}, "protocol": {"name": "udp"}})") ==
          "test.json: /topology/file: " + dir.File("lossy.json") +
              ": /links/1/loss: expected a number in [0, 1), got 1.0 (a link that loses every "
              "packet is a failed link: use a link_down fault, which routing sees)");
    // A loss_rate fault may black-hole links for a while.
    CHECK(ErrorOf(kStar, {R"(faults=[{"at": "10us", "action": "loss_rate", "rate": 1}])"}) ==
          "no error");
}

TEST_CASE("outputs.traces names only traces the protocol writes", "[inputs]")
{
    CHECK(ErrorOf(kStar, {R"(outputs.traces=["links", "onepipe_deliveries"])"}) ==
          "--set: /outputs/traces/1: unknown udp trace \"onepipe_deliveries\" (known: packets, "
          "links, queues, messages)");
    CHECK(ErrorOf(R"({"duration": "100us", "topology": {"generator": "onepipe-testbed"},
                      "protocol": {"name": "onepipe"},
                      "outputs": {"traces": ["messages"]}})") ==
          "test.json: /outputs/traces/0: unknown onepipe trace \"messages\" (known: packets, "
          "links, queues, onepipe_sends, onepipe_deliveries, onepipe_failures, "
          "onepipe_prepares, onepipe_controller, onepipe_callbacks)");
    // The default is what the protocol writes: udp's messages, never a trace nobody writes.
    InitIncsim();
    CHECK(ScenarioFromJson(R"({"duration": "1ms", "topology": {"generator": "star"},
                               "protocol": {"name": "udp"}})")
              .Resolved()["outputs"]["traces"] == json::array({"messages", "links"}));
    CHECK(ScenarioFromJson(R"({"duration": "1ms", "topology": {"generator": "onepipe-testbed"},
                               "protocol": {"name": "onepipe"}})")
              .Resolved()["outputs"]["traces"] == json::array({"links"}));
}

TEST_CASE("multicast groups and clone sessions name ports the switch has", "[inputs]")
{
    TempDir dir;
    const std::string entries = dir.File("entries.json");
    WriteFile(entries, R"({"multicast_groups": [{"id": 1, "ports": [0, 99999]}]})");
    CHECK(ErrorOf(kStar, {"switch.entries=" + entries}) ==
          "--set: /switch/entries: " + entries +
              ": /multicast_groups/0/ports/1: multicast group 1 sends to port 99999, but switch "
              "s0 has ports 0 to 3");
    WriteFile(entries, R"({"multicast_groups": [{"id": 7, "replicas": [{"port": 4, "rid": 1}]}]})");
    CHECK(ErrorOf(kStar, {"switch.entries=" + entries}) ==
          "--set: /switch/entries: " + entries +
              ": /multicast_groups/0/replicas/0/port: multicast group 7 sends to port 4, but "
              "switch s0 has ports 0 to 3");
    WriteFile(entries, R"({"clone_sessions": [{"id": 5, "port": 255}]})");
    CHECK(ErrorOf(kStar, {"switch.entries=" + entries}) ==
          "--set: /switch/entries: " + entries +
              ": /clone_sessions/0/port: clone session 5 sends to port 255, but switch s0 has "
              "ports 0 to 3");
    WriteFile(entries, R"({"multicast_groups": [{"id": 1, "ports": [0, 3]}]})");
    CHECK(ErrorOf(kStar, {"switch.entries=" + entries}) == "no error");
}

// ---- Size ----

TEST_CASE("a world too large for memory is refused, with the estimate, before it is built",
          "[inputs][memory]")
{
    const std::string fatTree = R"({"duration": "1ms",
        "topology": {"generator": "fat-tree", "params": {"k": 64}},
        "protocol": {"name": "udp"}, "simulator": {"memory_limit": "16GiB"}})";
    CHECK(ErrorOf(fatTree) ==
          "test.json: /topology/params: a world of 65536 hosts, 5120 switches and 196608 links "
          "needs about 19.3 GB of memory (18.5 GB of it routes: 4 bytes per node and destination "
          "host), more than /simulator/memory_limit (16GiB); set /simulator/memory_limit to a "
          "larger size to build it anyway");
    // Faults recompute routes while the old ones still exist.
    const std::vector<std::string> k32 = {"topology.params.k=32", "simulator.memory_limit=512MiB"};
    CHECK(ErrorOf(fatTree, k32) == "no error");
    std::vector<std::string> k32Faults = k32;
    k32Faults.emplace_back(R"(faults=[{"at": "1us", "action": "node_crash", "node": "c0"}])");
    CHECK(ErrorOf(fatTree, k32Faults) ==
          "test.json: /topology/params: a world of 8192 hosts, 1280 switches and 24576 links "
          "needs about 783.3 MB of memory (620.8 MB of it routes: 4 bytes per node and "
          "destination host, twice while faults recompute them), more than "
          "/simulator/memory_limit (512MiB); set /simulator/memory_limit to a larger size to "
          "build it anyway");
    CHECK(ErrorOf(fatTree, {"topology.params.k=4"}) == "no error");

    // The estimate against the measured per-unit costs (README, "Memory of a built world").
    const MemoryEstimate k16 = EstimateWorldMemory({1024, 320, 3072}, false);
    CHECK(k16.routeBytes == 4ull * (1024 + 320) * 1024);
    CHECK(k16.totalBytes > 64ull * 1024 * 1024 + 18'000'000);
}

// ---- Metrics ----

TEST_CASE("a latency with no samples is null, never 0", "[inputs][metrics]")
{
    json metrics;
    AddLatencyMetrics(metrics, {}, {50, 99});
    CHECK(metrics == json{{"latency_mean_us", nullptr},
                          {"latency_p50_us", nullptr},
                          {"latency_p99_us", nullptr},
                          {"latency_max_us", nullptr}});

    // Messages sent too late to arrive within the run: 80us from host to host, sent from 50us.
    InitIncsim();
    TempDir dir;
    RunSummary run = RunIn(dir, kStar, {"links.delay=40us", "workload.start=50us"});
    const json& udp = run.metrics["udp"];
    CHECK(udp["messages_sent"].get<uint64_t>() > 0);
    CHECK(udp["messages_delivered"] == 0);
    CHECK(udp["delivery_ratio"] == 0.0);
    CHECK(udp["latency_p50_us"].is_null());
    CHECK(udp["latency_mean_us"].is_null());
    CHECK(json::parse(ReadFile(dir.File("metrics.json")))["udp"]["latency_max_us"].is_null());
}

TEST_CASE("a generator's size counts what it builds", "[inputs][memory]")
{
    InitIncsim();
    const std::vector<std::pair<std::string, json>> cases = {
        {"fat-tree", json::object()},
        {"fat-tree", {{"k", 6}, {"hosts_per_edge", 5}}},
        {"leaf-spine", {{"leaves", 3}, {"spines", 5}, {"hosts_per_leaf", 7}}},
        {"star", {{"hosts", 13}}},
        {"dumbbell", {{"left", 2}, {"right", 9}}},
        {"wan", {{"preset", "aws-gotthard"}, {"site_hosts", {0, 1, 0, 8, 0}},
                 {"links", json::parse(R"([["OR", "CA"], ["CA", "VA"]])")}}},
        {"wan", {{"sites", {"a", "b", "c"}}, {"hosts_per_site", 4},
                 {"rtt", json::parse(R"([["0ns", "2ms", "4ms"], ["2ms", "0ns", "6ms"],
                                          ["4ms", "6ms", "0ns"]])")}}},
    };
    for (const auto& [name, given] : cases)
    {
        INFO(name << " " << given.dump());
        const TopologyGenerator& generator = TopologyGenerators().Get(name);
        REQUIRE(generator.size);
        const json params = generator.params().Resolve(given, "test.json", "/topology/params");
        const ParamView view(&params, "test.json", "/topology/params");
        const TopologySize size = generator.size(view);
        const Topology built = generator.build(view, LinkParams{1000000000, 1000, 65536, 0});
        CHECK(size.hosts == built.Hosts().size());
        CHECK(size.switches == built.Switches().size());
        CHECK(size.links == built.NumLinks());
    }
}
