#include "sim/core/diagnostics.h"
#include "sim/scenario/protocol.h"
#include "sim/scenario/scenario.h"
#include "sim/schema/schema.h"
#include "sim/topology/topology-registry.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using nlohmann::json;

namespace
{

incsim::ProtocolInfo
FakeProtocol()
{
    incsim::ProtocolInfo protocol;
    protocol.description = "Fake protocol for the scenario tests.";
    protocol.params = [] {
        return incsim::Spec::Object()
            .Field("window", incsim::Spec::Integer().Min(1), "Messages in flight.", 4)
            .Field("timeout", incsim::Spec::Duration().Above(0), "Retransmission timeout.", "10us");
    };
    protocol.workload = [] {
        return incsim::Spec::Object()
            .Field("messages", incsim::Spec::Integer().Min(0), "Messages per host.", 10)
            .Field("gap",
                   incsim::Spec::Distribution(incsim::SpecKind::Duration),
                   "Gap between messages.",
                   "1us");
    };
    return protocol;
}

incsim::TopologyGenerator
FakeGenerator()
{
    incsim::TopologyGenerator generator;
    generator.description = "Fake generator for the scenario tests.";
    generator.params = [] {
        return incsim::Spec::Object()
            .Field("k", incsim::Spec::Integer().Min(2).Even(), "Switch radix.", 4)
            .Field("sites",
                   incsim::Spec::Array(incsim::Spec::String()).MinItems(1),
                   "Site names.",
                   json::array({"a"}));
    };
    return generator;
}

/// Test-only registry entries, so these tests do not depend on the real protocols and
/// generators (whose params may change) while still exercising registry-backed specs. They are
/// registered while this object lives, so no other test sees them.
struct FakeComponents
{
    incsim::ScopedRegistration<incsim::ProtocolInfo> protocol{incsim::Protocols(), "test-proto",
                                                              FakeProtocol()};
    incsim::ScopedRegistration<incsim::TopologyGenerator> generator{
        incsim::TopologyGenerators(), "test-gen", FakeGenerator()};
};

json
Minimal()
{
    return json::parse(R"({
        "duration": "1ms",
        "topology": {"generator": "test-gen"},
        "protocol": {"name": "test-proto"}
    })");
}

/// Minimal() with `patch` merged in (RFC 7386), so each case states only what it changes.
json
With(const std::string& patch)
{
    json doc = Minimal();
    doc.merge_patch(json::parse(patch));
    return doc;
}

std::string
ErrorOf(const json& doc, const std::vector<std::string>& overrides = {})
{
    const FakeComponents fakes;
    try
    {
        incsim::ParseScenario(doc, "quickstart.json", ".", overrides);
    }
    catch (const incsim::InputError& error)
    {
        return error.what();
    }
    return "no error";
}

incsim::Scenario
Parse(const json& doc, const std::vector<std::string>& overrides = {})
{
    const FakeComponents fakes;
    return incsim::ParseScenario(doc, "quickstart.json", ".", overrides);
}

std::string
KnownNames(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& name : names)
    {
        out += (out.empty() ? "" : ", ") + name;
    }
    return out;
}

/// A scratch directory, removed at the end of the test.
struct TempDir
{
    TempDir()
        : path(std::filesystem::temp_directory_path() /
               ("incsim-test-scenario-" + std::to_string(::getpid())))
    {
        std::filesystem::create_directories(path);
    }

    ~TempDir() { std::filesystem::remove_all(path); }

    std::string Write(const std::string& name, const std::string& text) const
    {
        std::string file = (path / name).string();
        std::ofstream(file) << text;
        return file;
    }

    std::filesystem::path path;
};

const std::string kTopLevelKeys = "background, clocks, description, duration, faults, hosts, "
                                  "links, name, outputs, protocol, routing, seed, simulator, "
                                  "switch, topology, workload";

} // namespace

// ---- Errors: each asserts the exact message a user sees ----

TEST_CASE("unknown keys are reported with the known keys and a suggestion", "[scenario]")
{
    CHECK(ErrorOf(With(R"({"durration": "1ms"})")) ==
          "quickstart.json: /durration: unknown key \"durration\" (expected one of: " +
              kTopLevelKeys + "); did you mean \"duration\"?");
    CHECK(ErrorOf(With(R"({"links": {"dealy": "1us"}})")) ==
          "quickstart.json: /links/dealy: unknown key \"dealy\" (expected one of: buffer, delay, "
          "loss, mtu, rate); did you mean \"delay\"?");
    CHECK(ErrorOf(With(R"({"links": {"jitter": "1us"}})")) ==
          "quickstart.json: /links/jitter: unknown key \"jitter\" (expected one of: buffer, "
          "delay, loss, mtu, rate)");
    CHECK(ErrorOf(With(R"({"workload": {"mesages": 3}})")) ==
          "quickstart.json: /workload/mesages: unknown key \"mesages\" (expected one of: gap, "
          "messages); did you mean \"messages\"?");
}

TEST_CASE("wrong JSON types are reported with the value found", "[scenario]")
{
    CHECK(ErrorOf(With(R"({"seed": "four"})")) ==
          "quickstart.json: /seed: expected an integer, got \"four\"");
    CHECK(ErrorOf(With(R"({"seed": 1.5})")) ==
          "quickstart.json: /seed: expected an integer, got 1.5");
    CHECK(ErrorOf(With(R"({"routing": {"require_dag": 1}})")) ==
          "quickstart.json: /routing/require_dag: expected a boolean, got 1");
    CHECK(ErrorOf(With(R"({"name": 5})")) == "quickstart.json: /name: expected a string, got 5");
    CHECK(ErrorOf(With(R"({"links": 5})")) ==
          "quickstart.json: /links: expected an object, got 5");
    CHECK(ErrorOf(json::array()) == "quickstart.json: expected an object, got []");
}

TEST_CASE("quantities need a unit string", "[scenario]")
{
    CHECK(ErrorOf(With(R"({"links": {"delay": 5}})")) ==
          "quickstart.json: /links/delay: expected a duration like \"1us\", got 5");
    CHECK(ErrorOf(With(R"({"links": {"delay": "fast"}})")) ==
          "quickstart.json: /links/delay: expected a duration like \"1us\", got \"fast\"");
    CHECK(ErrorOf(With(R"({"links": {"delay": "5usec"}})")) ==
          "quickstart.json: /links/delay: expected a duration like \"1us\", got \"5usec\": "
          "unknown unit \"usec\" (known: ps, ns, us, ms, s)");
    CHECK(ErrorOf(With(R"({"links": {"delay": "1.5ns"}})")) ==
          "quickstart.json: /links/delay: expected a duration like \"1us\", got \"1.5ns\": not "
          "a whole number of nanoseconds (scenario durations have nanosecond resolution; "
          "\"1000ps\" is 1ns)");
    CHECK(ErrorOf(With(R"({"links": {"delay": "-5us"}})")) ==
          "quickstart.json: /links/delay: expected a duration like \"1us\", got \"-5us\": "
          "negative values are not allowed here");
    CHECK(ErrorOf(With(R"({"duration": "0ns"})")) ==
          "quickstart.json: /duration: expected a duration like \"1us\" above 0ns, got \"0ns\"");
    // Too large is said so, not taken for a fraction.
    CHECK(ErrorOf(With(R"({"duration": "9223372036854775807ns"})")) ==
          "quickstart.json: /duration: expected a duration like \"1us\", got "
          "\"9223372036854775807ns\": too large (at most 1000000s)");
    CHECK(ErrorOf(With(R"({"links": {"rate": "99999999999999999999Tbps"}})")) ==
          "quickstart.json: /links/rate: expected a rate like \"100Gbps\", got "
          "\"99999999999999999999Tbps\": too large (at most 18446744073709551615bps)");
}

TEST_CASE("rates, sizes and numbers are range-checked", "[scenario]")
{
    CHECK(ErrorOf(With(R"({"links": {"rate": "0Gbps"}})")) ==
          "quickstart.json: /links/rate: expected a rate like \"100Gbps\" above 0bps, got "
          "\"0Gbps\"");
    CHECK(ErrorOf(With(R"({"links": {"rate": "-1Gbps"}})")) ==
          "quickstart.json: /links/rate: expected a rate like \"100Gbps\", got \"-1Gbps\": "
          "negative values are not allowed here");
    CHECK(ErrorOf(With(R"({"links": {"loss": 1.5}})")) ==
          "quickstart.json: /links/loss: expected a number in [0, 1), got 1.5 (a link that loses "
          "every packet is a failed link: use a link_down fault, which routing sees)");
    CHECK(ErrorOf(With(R"({"links": {"mtu": "32B"}})")) ==
          "quickstart.json: /links/mtu: expected a size like \"64KiB\" in [64B, 9KiB], got "
          "\"32B\"");
    CHECK(ErrorOf(With(R"({"switch": {"priorities": 9}})")) ==
          "quickstart.json: /switch/priorities: expected an integer in [1, 8], got 9");
    CHECK(ErrorOf(With(R"({"topology": {"params": {"k": 5}}})")) ==
          "quickstart.json: /topology/params/k: expected an even integer >= 2, got 5");
}

TEST_CASE("enums list their choices and registry enums list what is registered", "[scenario]")
{
    const FakeComponents fakes;
    CHECK(ErrorOf(With(R"({"routing": {"metric": "shortest"}})")) ==
          "quickstart.json: /routing/metric: expected one of \"hops\", \"delay\", got "
          "\"shortest\"");
    CHECK(ErrorOf(With(R"({"protocol": {"name": "udpp"}})")) ==
          "quickstart.json: /protocol/name: unknown protocol \"udpp\" (known: " +
              KnownNames(incsim::Protocols().Names()) + ")");
    CHECK(ErrorOf(With(R"({"topology": {"generator": "fat-treee"}})")) ==
          "quickstart.json: /topology/generator: unknown topology generator \"fat-treee\" "
          "(known: " +
              KnownNames(incsim::TopologyGenerators().Names()) + ")");
    CHECK(ErrorOf(With(R"({"outputs": {"traces": ["packets", "flows"]}})")) ==
          "quickstart.json: /outputs/traces/1: unknown test-proto trace \"flows\" (known: "
          "packets, links, queues)");
}

TEST_CASE("required keys and exactly-one-of groups", "[scenario]")
{
    json doc = Minimal();
    doc.erase("duration");
    CHECK(ErrorOf(doc) == "quickstart.json: /duration: missing required key \"duration\"");
    doc = Minimal();
    doc.erase("protocol");
    CHECK(ErrorOf(doc) == "quickstart.json: /protocol: missing required key \"protocol\"");
    CHECK(ErrorOf(With(R"({"topology": {"file": "net.json"}})")) ==
          "quickstart.json: /topology: expected exactly one of \"generator\", \"file\"");
    CHECK(ErrorOf(With(R"({"topology": {"generator": null}})")) ==
          "quickstart.json: /topology: expected exactly one of \"generator\", \"file\"");
    CHECK(ErrorOf(With(R"({"topology": {"generator": null, "file": "net.json", "params": {}}})")) ==
          "quickstart.json: /topology/params: key \"params\" does not apply without "
          "\"generator\"");
}

TEST_CASE("faults check their fields against the action", "[scenario]")
{
    CHECK(ErrorOf(With(R"({"faults": [{"at": "1ms", "action": "link_down"}]})")) ==
          "quickstart.json: /faults/0/link: missing required key \"link\" for action "
          "\"link_down\"");
    CHECK(ErrorOf(With(R"({"faults": [{"action": "node_crash", "node": "h1"}]})")) ==
          "quickstart.json: /faults/0/at: missing required key \"at\"");
    CHECK(ErrorOf(With(R"({"faults": [{"at": "1ms", "action": "node_crash", "node": "h1"},
                                     {"at": "2ms", "action": "link_down",
                                      "link": ["s1", "s2"], "node": "s1"}]})")) ==
          "quickstart.json: /faults/1/node: key \"node\" does not apply to action \"link_down\"");
    CHECK(ErrorOf(With(R"({"faults": [{"at": "1ms", "action": "link_up",
                                      "link": ["s1", "s2", "s3"]}]})")) ==
          "quickstart.json: /faults/0/link: expected an array of exactly 2 items, got "
          "[\"s1\",\"s2\",\"s3\"]");
    CHECK(ErrorOf(With(R"({"faults": [{"at": "1ms", "action": "loss_rate"}]})")) ==
          "quickstart.json: /faults/0/rate: missing required key \"rate\" for action "
          "\"loss_rate\"");
    CHECK(ErrorOf(With(R"({"faults": [{"at": "1ms", "action": "explode"}]})")) ==
          "quickstart.json: /faults/0/action: expected one of \"link_down\", \"link_up\", "
          "\"node_crash\", \"node_recover\", \"loss_rate\", got \"explode\"");
}

TEST_CASE("distributions are checked", "[scenario]")
{
    CHECK(ErrorOf(With(R"({"clocks": {"offset": {"dist": "uniform", "min": "5us",
                                                 "max": "1us"}}})")) ==
          "quickstart.json: /clocks/offset/max: expected a duration >= min \"5us\", got \"1us\"");
    CHECK(ErrorOf(With(R"({"clocks": {"offset": {"dist": "uniform", "min": "1us"}}})")) ==
          "quickstart.json: /clocks/offset/max: missing required key \"max\"");
    CHECK(ErrorOf(With(R"({"clocks": {"offset": {"dist": "gauss"}}})")) ==
          "quickstart.json: /clocks/offset/dist: expected one of \"constant\", \"uniform\", "
          "\"normal\", \"exponential\", got \"gauss\"");
    CHECK(ErrorOf(With(R"({"clocks": {"drift_ppm": {"dist": "normal", "mean": 0,
                                                    "stddev": -1}}})")) ==
          "quickstart.json: /clocks/drift_ppm/stddev: expected a number >= 0, got -1");
    CHECK(ErrorOf(With(R"({"clocks": {"offset": {"dist": "normal", "mean": "0ns",
                                                 "sd": "1us"}}})")) ==
          "quickstart.json: /clocks/offset/sd: unknown key \"sd\" (expected one of: dist, mean, "
          "stddev)");
    CHECK(ErrorOf(With(R"({"clocks": {"offset": 5}})")) ==
          "quickstart.json: /clocks/offset: expected a duration like \"1us\" or \"-1us\", or a "
          "distribution like {\"dist\": \"uniform\", \"min\": \"0ns\", \"max\": \"1us\"}, got 5");
}

TEST_CASE("overrides given with --set report their own errors", "[scenario]")
{
    CHECK(ErrorOf(Minimal(), {"links.dealy=2us"}) ==
          "--set: /links/dealy: unknown key \"dealy\" (expected one of: buffer, delay, loss, mtu, "
          "rate); did you mean \"delay\"?");
    CHECK(ErrorOf(Minimal(), {"linkz.delay=2us"}) ==
          "--set: /linkz: unknown key \"linkz\" (expected one of: " + kTopLevelKeys +
              "); did you mean \"links\"?");
    CHECK(ErrorOf(Minimal(), {"links.delay=fast"}) ==
          "--set: /links/delay: expected a duration like \"1us\", got \"fast\"");
    CHECK(ErrorOf(Minimal(), {"links.delay"}) ==
          "--set: /links/delay: expected PATH=VALUE, got \"links.delay\"");
    CHECK(ErrorOf(Minimal(), {"=5"}) ==
          "--set: expected PATH=VALUE with a non-empty PATH, got \"=5\"");
    CHECK(ErrorOf(With(R"({"faults": [{"at": "1ms", "action": "node_crash", "node": "h"}]})"),
                  {"faults.1.at=2ms"}) ==
          "--set: /faults/1: index 1 is past the end of the array (1 items)");
    CHECK(ErrorOf(Minimal(), {"duration.x=1"}) ==
          "--set: /duration/x: cannot set a key inside \"1ms\" at /duration");
    // An error in the file itself stays blamed on the file.
    CHECK(ErrorOf(With(R"({"seed": "x"})"), {"links.delay=2us"}) ==
          "quickstart.json: /seed: expected an integer, got \"x\"");
}

TEST_CASE("JSON syntax errors are located by line and column", "[scenario]")
{
    std::string text = "{\n  \"duration\": \"1ms\",\n  \"seed\": 1,\n}\n";
    try
    {
        incsim::ParseJsonText(text, "bad.json");
        FAIL("no error");
    }
    catch (const incsim::JsonSyntaxError& error)
    {
        CHECK(std::string(error.what()) ==
              "bad.json:4:1: JSON syntax error: unexpected '}'; expected string literal (while "
              "parsing object key)");
        CHECK(error.Line() == 4);
        CHECK(error.Column() == 1);
    }

    auto syntaxError = [](const std::string& json) {
        try
        {
            incsim::ParseJsonText(json, "x.json");
        }
        catch (const incsim::InputError& error)
        {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    CHECK(syntaxError("{\"a\": 1") ==
          "x.json:1:8: JSON syntax error: unexpected end of input; expected '}' (while parsing "
          "object)");
    CHECK(syntaxError("") == "x.json:1:1: JSON syntax error: unexpected end of input; expected "
                             "'[', '{', or a literal (while parsing value)");
    CHECK(syntaxError("{\"a\": [1,\n  2,]}") ==
          "x.json:2:5: JSON syntax error: unexpected ']'; expected '[', '{', or a literal (while "
          "parsing value)");

    TempDir dir;
    std::string file = dir.Write("typo.json", "{\"duration\": \"1ms\" \"seed\": 1}");
    std::string what;
    try
    {
        incsim::LoadScenario(file);
    }
    catch (const incsim::InputError& error)
    {
        what = error.what();
    }
    CHECK(what == file + ":1:20: JSON syntax error: unexpected string literal; expected '}' "
                         "(while parsing object)");

    std::string missing = (dir.path / "missing.json").string();
    what.clear();
    try
    {
        incsim::LoadScenario(missing);
    }
    catch (const incsim::InputError& error)
    {
        what = error.what();
    }
    CHECK(what == missing + ": cannot open file: No such file or directory");
}

TEST_CASE("defaults are filled in", "[scenario]")
{
    auto scenario = Parse(Minimal());
    const json& r = scenario.Resolved();
    CHECK(r["name"] == "");
    CHECK(r["seed"] == 1);
    CHECK(r["links"] == json::parse(R"({"rate": "100Gbps", "delay": "1us", "buffer": "512KiB",
                                         "loss": 0, "mtu": "1500B"})"));
    CHECK(r["switch"] == json::parse(R"({"priorities": 8, "cpu_service_time": "2us",
                                          "cpu_queue": 1024, "pipeline_delay": "400ns",
                                          "ecn_threshold": "0B", "program": "forward"})"));
    CHECK(r["hosts"] ==
          json::parse(R"({"cores": 4, "message_cost": "0ns", "nic_buffer": "4MiB"})"));
    CHECK(r["routing"] == json::parse(R"({"metric": "hops", "ecmp": "per-flow",
                                           "reconverge_delay": "1ms", "require_dag": false})"));
    CHECK(r["clocks"] == json::parse(R"({"offset": "0ns", "drift_ppm": 0, "sync_period": "0ns",
                                          "residual_skew": "0ns"})"));
    CHECK(r["topology"] == json::parse(R"({"generator": "test-gen",
                                            "params": {"k": 4, "sites": ["a"]}})"));
    CHECK(r["protocol"] == json::parse(R"({"name": "test-proto",
                                            "params": {"window": 4, "timeout": "10us"}})"));
    CHECK(r["workload"] == json::parse(R"({"messages": 10, "gap": "1us"})"));
    CHECK(r["faults"] == json::array());
    CHECK(r["outputs"] == json::parse(R"({"traces": ["links"],
                                           "queue_sample_interval": "10us", "pcap": false,
                                           "progress": "auto"})"));
    CHECK(scenario.Seed() == 1);
    CHECK(scenario.DurationNs() == 1000000);
    CHECK(scenario.File() == "quickstart.json");
    CHECK(scenario.BaseDir() == ".");
}

TEST_CASE("a topology file needs no generator params", "[scenario]")
{
    auto scenario = Parse(With(R"({"topology": {"generator": null, "file": "net.json"}})"));
    CHECK(scenario.Resolved()["topology"] == json::parse(R"({"file": "net.json"})"));
    CHECK_FALSE(scenario.Section("topology").Has("params"));
}

TEST_CASE("values keep the user's spelling", "[scenario]")
{
    auto scenario = Parse(With(R"({"links": {"delay": "1000ns", "rate": "0.1Tbps"}})"));
    auto links = scenario.Section("links");
    CHECK(links.String("delay") == "1000ns");
    CHECK(links.DurationNs("delay") == 1000);
    CHECK(links.String("rate") == "0.1Tbps");
    CHECK(links.RateBps("rate") == 100000000000ULL);
}

TEST_CASE("overrides given with --set reach nested values, creating objects", "[scenario]")
{
    auto scenario = Parse(With(R"({"faults": [{"at": "1ms", "action": "node_crash",
                                               "node": "h"}]})"),
                          {"topology.params.k=8",
                           "/links/delay=2us",
                           "seed=7",
                           "routing.require_dag=true",
                           "name=hello world",
                           "faults.0.at=5ms",
                           "topology.params.sites=[\"x\", \"y\"]",
                           "description=\"42\""});
    const json& r = scenario.Resolved();
    CHECK(r["topology"]["params"]["k"] == 8);
    CHECK(r["topology"]["params"]["sites"] == json::array({"x", "y"}));
    CHECK(r["links"]["delay"] == "2us");
    CHECK(scenario.Seed() == 7);
    CHECK(r["routing"]["require_dag"] == true);
    CHECK(r["name"] == "hello world");
    CHECK(r["description"] == "42");
    CHECK(r["faults"][0]["at"] == "5ms");
}

TEST_CASE("ParamView reads typed values and reports errors at its path", "[scenario]")
{
    auto scenario = Parse(With(R"({
        "links": {"loss": 0.25, "buffer": "64KiB"},
        "routing": {"require_dag": true},
        "faults": [{"at": "1ms", "action": "link_down", "link": ["s1", "s2"]},
                   {"at": "2ms", "action": "loss_rate", "rate": 0.5}]
    })"));
    auto links = scenario.Section("links");
    CHECK(links.Path() == "/links");
    CHECK(links.File() == "quickstart.json");
    CHECK(links.Number("loss") == 0.25);
    CHECK(links.SizeBytes("buffer") == 65536);
    CHECK(links.SizeBytes("mtu") == 1500);
    CHECK(scenario.Section("routing").Bool("require_dag"));
    CHECK(scenario.Section("switch").Int("priorities") == 8);
    CHECK(scenario.Section("topology").Get("params").Int("k") == 4);
    CHECK(scenario.Section("topology").Get("params").Path() == "/topology/params");

    auto faults = scenario.Section("faults");
    REQUIRE(faults.Size() == 2);
    auto first = faults.At(0);
    CHECK(first.Path() == "/faults/0");
    CHECK(first.DurationNs("at") == 1000000);
    CHECK(first.Has("link"));
    CHECK_FALSE(first.Has("node"));
    CHECK(first.Get("link").At(1).AsString() == "s2");
    CHECK_FALSE(faults.At(1).Has("link"));
    CHECK(faults.At(1).Number("rate") == 0.5);

    std::string what;
    try
    {
        first.Get("link").At(0).Fail("", "no node named \"s1\"");
    }
    catch (const incsim::InputError& error)
    {
        what = error.what();
    }
    CHECK(what == "quickstart.json: /faults/0/link/0: no node named \"s1\"");
    CHECK_THROWS_AS(links.Int("nonexistent"), std::logic_error);
}

TEST_CASE("distributions resolve to base units", "[scenario]")
{
    auto scenario = Parse(With(R"({
        "clocks": {"offset": {"dist": "uniform", "min": "-5us", "max": "1.5us"},
                   "drift_ppm": {"dist": "normal", "mean": 0, "stddev": 20},
                   "residual_skew": "-20ns"},
        "workload": {"gap": {"dist": "exponential", "mean": "2us"}}
    })"));
    auto clocks = scenario.Section("clocks");
    auto offset = incsim::ReadDistribution(clocks, "offset");
    CHECK(offset.type == incsim::DistributionParams::Type::Uniform);
    CHECK(offset.a == -5000);
    CHECK(offset.b == 1500);
    auto drift = incsim::ReadDistribution(clocks, "drift_ppm");
    CHECK(drift.type == incsim::DistributionParams::Type::Normal);
    CHECK(drift.a == 0);
    CHECK(drift.b == 20);
    auto skew = incsim::ReadDistribution(clocks, "residual_skew");
    CHECK(skew.type == incsim::DistributionParams::Type::Constant);
    CHECK(skew.a == -20);
    auto period = incsim::ReadDistribution(clocks, "sync_period"); // a plain duration
    CHECK(period.a == 0);
    auto gap = incsim::ReadDistribution(scenario.Section("workload"), "gap");
    CHECK(gap.type == incsim::DistributionParams::Type::Exponential);
    CHECK(gap.a == 2000);
    auto constant = incsim::ReadDistribution(
        Parse(With(R"({"clocks": {"drift_ppm": {"dist": "constant", "value": 1.5}}})"))
            .Section("clocks"),
        "drift_ppm");
    CHECK(constant.type == incsim::DistributionParams::Type::Constant);
    CHECK(constant.a == 1.5);
}

TEST_CASE("LoadScenario resolves the base directory", "[scenario]")
{
    const FakeComponents fakes;
    TempDir dir;
    std::string file = dir.Write("quick.json", Minimal().dump(2));
    auto scenario = incsim::LoadScenario(file, {"seed=3"});
    CHECK(scenario.File() == file);
    CHECK(scenario.BaseDir() == dir.path.string());
    CHECK(scenario.Seed() == 3);
}

TEST_CASE("spec builders do not alias shared specs", "[scenario]")
{
    auto base = incsim::Spec::Integer();
    auto doc = incsim::Spec::Object().Field("a", base, "A.", 1);
    base.Min(5); // must not change field "a"
    CHECK(doc.Resolve(json::parse(R"({"a": 2})"), "f", "")["a"] == 2);
    CHECK(base.Expected() == "an integer >= 5");
}

TEST_CASE("the reference lists every field and registered entry", "[scenario]")
{
    const FakeComponents fakes;
    std::string markdown = incsim::ScenarioReferenceMarkdown();
    CHECK(markdown == incsim::ScenarioReferenceMarkdown());
    CHECK(markdown.rfind("## Reference\n", 0) == 0);
    CHECK(markdown.find("| `delay` | duration | `\"1us\"` | Propagation delay of every link. |") !=
          std::string::npos);
    CHECK(markdown.find("| `rate` | rate above 0bps | `\"100Gbps\"` |") != std::string::npos);
    CHECK(markdown.find("| `duration` | duration above 0ns | required |") != std::string::npos);
    CHECK(markdown.find("### `topology.params` when `topology.generator` is `test-gen`") !=
          std::string::npos);
    CHECK(markdown.find("| `k` | even integer >= 2 | `4` | Switch radix. |") != std::string::npos);
    CHECK(markdown.find("### `protocol.params` when `protocol.name` is `test-proto`") !=
          std::string::npos);
    CHECK(markdown.find("### `workload` when `protocol.name` is `test-proto`") !=
          std::string::npos);
    CHECK(markdown.find("### `faults[]`") != std::string::npos);
    CHECK(markdown.find("| `node` | string | required for action `node_crash`, `node_recover` | "
                        "Name of the node. Only for action `node_crash`, `node_recover`. |") !=
          std::string::npos);
}
