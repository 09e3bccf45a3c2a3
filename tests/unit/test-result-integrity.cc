// A result is never silently wrong, stale or lost: run identity, run directories, checked
// writes, stale P4 builds, foreign databases and the command line's exit statuses.

#include "test-support.h"

#include "sim/core/diagnostics.h"
#include "sim/core/output-file.h"
#include "sim/runner/run-directory.h"
#include "sim/runner/runner.h"
#include "sim/runner/version.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace-outputs.h"
#include "tools/experiment/results-db.h"

#include "p4/runtime/v1model.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

using namespace incsim;
using namespace incsim::test;
using nlohmann::json;

namespace
{

//   h0 ---- s0 ---- h1      (star with 3 hosts; 50us of UDP)
const char* kStar = R"({
    "seed": 3,
    "duration": "50us",
    "topology": {"generator": "star", "params": {"hosts": 3}},
    "protocol": {"name": "udp"},
    "workload": {"message_size": "500B", "load": 0.2},
    "outputs": {"progress": "never"}
})";

std::string
StarIdentity(const std::vector<std::string>& overrides)
{
    return ScenarioFromJson(kStar, overrides).Identity();
}

} // namespace

TEST_CASE("A run's identity is its physics: units normalised, input files by content",
          "[results]")
{
    InitIncsim();
    SECTION("the same value in other units, or a number written as a float, is the same run")
    {
        CHECK(StarIdentity({"links.delay=\"1us\""}) == StarIdentity({"links.delay=\"1000ns\""}));
        CHECK(StarIdentity({"links.rate=\"100Gbps\""}) ==
              StarIdentity({"links.rate=\"100000Mbps\""}));
        CHECK(StarIdentity({"links.mtu=\"1500B\""}) != StarIdentity({"links.mtu=\"1KiB\""}));
        CHECK(StarIdentity({"workload.load=1"}) == StarIdentity({"workload.load=1.0"}));
        CHECK(StarIdentity({"links.delay=\"1us\""}) != StarIdentity({"links.delay=\"2us\""}));
    }
    SECTION("an input file counts by its contents, not its name")
    {
        TempDir dir;
        const std::string topology = R"({"nodes": [{"name": "h0", "kind": "host"},
            {"name": "h1", "kind": "host"}, {"name": "s0", "kind": "switch"}],
            "links": [{"a": "h0", "b": "s0"}, {"a": "h1", "b": "s0"}]})";
        WriteFile(dir.File("a.json"), topology);
        WriteFile(dir.File("b.json"), topology);
        const auto identity = [&](const std::string& file) {
            const std::string scenario = dir.File("scenario-" + file);
            WriteFile(scenario, R"({"duration": "10us", "topology": {"file": ")" + file +
                                    R"("}, "protocol": {"name": "udp"}})");
            return LoadScenario(scenario).Identity();
        };
        const std::string before = identity("a.json");
        CHECK(identity("b.json") == before);
        WriteFile(dir.File("a.json"), topology + "\n ");
        CHECK(identity("a.json") != before);
    }
}

TEST_CASE("A run directory holding an earlier run is emptied, and one holding other files is "
          "refused",
          "[results]")
{
    InitIncsim();
    TempDir dir;
    RunOptions options;
    options.outDir = dir.File("run");
    RunScenario(ScenarioFromJson(kStar, {"outputs.traces=[\"links\", \"packets\"]"}), options);
    REQUIRE(FileExists(options.outDir + "/packets.csv"));
    WriteFile(options.outDir + "/stderr.txt", "captured by a sweep");

    RunScenario(ScenarioFromJson(kStar, {"outputs.traces=[\"links\"]"}), options);
    CHECK_FALSE(FileExists(options.outDir + "/packets.csv"));
    CHECK(FileExists(options.outDir + "/links.csv"));
    CHECK(ReadFile(options.outDir + "/stderr.txt") == "captured by a sweep");

    const std::string other = dir.File("other");
    std::filesystem::create_directories(other);
    WriteFile(other + "/notes.txt", "mine");
    CHECK_THROWS_AS(PrepareRunDirectory(other), OutputError);
    CHECK(ReadFile(other + "/notes.txt") == "mine");
}

TEST_CASE("run.json names the P4 programs the switches ran and the run's identity", "[results]")
{
    InitIncsim();
    TempDir dir;
    RunOptions options;
    options.outDir = dir.File("run");
    const Scenario scenario = ScenarioFromJson(kStar);
    RunScenario(scenario, options);
    const json run = json::parse(ReadFile(options.outDir + "/run.json"));
    CHECK(run["identity"] == scenario.Identity());
    REQUIRE(run["p4_programs"].size() == 1);
    CHECK(run["p4_programs"][0]["name"] == "forward");
    CHECK(run["p4_programs"][0]["code_hash"].get<std::string>().size() == 16);
    CHECK(run["version"].get<std::string>().find("+p4.") != std::string::npos);
}

TEST_CASE("A P4 source changed after the build is a stale build, named by file", "[results]")
{
    InitIncsim();
    const std::vector<const p4rt::ProgramInfo*> programs = CompiledSwitchPrograms();
    const auto forward = std::find_if(programs.begin(), programs.end(),
                                      [](const auto* info) { return info->name == "forward"; });
    REQUIRE(forward != programs.end());
    const p4rt::ProgramInfo& info = **forward;
    REQUIRE(info.sources.size() >= 3);  // forward.p4, its libraries, core.p4 and v1model.p4

    // A copy of the source tree's P4 files: unchanged it is fresh, edited it is stale.
    TempDir tree;
    for (const p4rt::ProgramSourceFile& file : info.sources)
    {
        INFO(file.path);
        REQUIRE(file.path.front() != '/');  // recorded relative to the source tree
        std::filesystem::create_directories(std::filesystem::path(tree.File(file.path)).parent_path());
        WriteFile(tree.File(file.path),
                  ReadFile(std::string(INCSIM_SOURCE_DIR) + "/" + file.path));
    }
    CHECK(p4rt::ChangedSources(info, tree.Path()).empty());
    CHECK_NOTHROW(RequireFreshP4Build({&info}, tree.Path()));

    WriteFile(tree.File("p4/forward.p4"), ReadFile(tree.File("p4/forward.p4")) + "\n// edit\n");
    CHECK(p4rt::ChangedSources(info, tree.Path()) == std::vector<std::string>{"p4/forward.p4"});
    CHECK_THROWS_WITH(RequireFreshP4Build({&info}, tree.Path()),
                      Catch::Contains("p4/forward.p4 changed after incsim was built"));
}

TEST_CASE("Results refuses a file that is not an incsim database and leaves it untouched",
          "[results]")
{
    TempDir dir;
    const std::string path = dir.File("other.sqlite");
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine');",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    const std::string before = ReadFile(path);

    using experiment::ResultsDb;
    CHECK_THROWS_WITH(ResultsDb(path, ResultsDb::Access::ReadOnly),
                      Catch::Contains("not an incsim results database (it has tables notes)"));
    CHECK_THROWS_AS(ResultsDb(path, ResultsDb::Access::ReadWrite), InputError);
    CHECK(ReadFile(path) == before);
    CHECK_FALSE(FileExists(path + "-wal"));

    WriteFile(dir.File("text.sqlite"), "not a database at all, but long enough to look like one");
    CHECK_THROWS_AS(ResultsDb(dir.File("text.sqlite"), ResultsDb::Access::ReadOnly), InputError);

    const std::string fresh = dir.File("fresh.sqlite");
    { ResultsDb created(fresh); }
    CHECK_NOTHROW(ResultsDb(fresh, ResultsDb::Access::ReadOnly));
}

TEST_CASE("A failed write is an error, never a silent success", "[results]")
{
    InitIncsim();
    CHECK_THROWS_WITH(WriteTextFile("/dev/full", "x"),
                      Catch::Contains("cannot write /dev/full: No space left on device"));
    TempDir dir;
    const std::string scenario = dir.File("star.json");
    WriteFile(scenario, kStar);

    SECTION("stdout to a full disk, from every command that prints results")
    {
        for (const std::string& command :
             std::vector<std::string>{"topo " + Quote(scenario), "list", "schema"})
        {
            INFO(command);
            const CommandResult r = Incsim(command + " > /dev/full", dir);
            CHECK(r.status == 5);
            CHECK(r.err.find("No space left on device") != std::string::npos);
        }
        const CommandResult file = Incsim("topo " + Quote(scenario) + " -o /dev/full", dir);
        CHECK(file.status == 5);
    }
    SECTION("a trace cut by a file size limit fails the run, which leaves no run.json")
    {
        const std::string out = dir.File("run");
        // bash's ulimit -f counts 1024-byte blocks: 64 KiB, far less than the trace.
        const std::string command = "bash -c " + Quote("ulimit -f 64; exec " +
                                                       Quote(INCSIM_BINARY) + " run " +
                                                       Quote(scenario) +
                                                       " --set duration=2ms"
                                                       " --set 'outputs.traces=[\"packets\"]'"
                                                       " --out " + Quote(out));
        const int status = std::system((command + " > /dev/null 2> " + Quote(dir.File("err"))).c_str());
        CHECK(WEXITSTATUS(status) == 5);
        CHECK(ReadFile(dir.File("err")).find("packets.csv: File too large") != std::string::npos);
        CHECK_FALSE(FileExists(out + "/run.json"));
    }
}

TEST_CASE("Exit statuses say what went wrong, the same for every command", "[results]")
{
    InitIncsim();
    TempDir dir;
    const std::string scenario = dir.File("star.json");
    WriteFile(scenario, kStar);
    struct Case
    {
        std::string args;
        int status;
        std::string message;
    };
    const std::vector<Case> cases = {
        {"frobnicate", 64, "unknown command 'frobnicate'"},
        {"run " + Quote(scenario) + " --seed -1", 64, "--seed: expected an integer"},
        {"sweep x.json --jobs 0", 64, "--jobs"},
        {"run " + Quote(dir.File("missing.json")), 2, "missing.json"},
        {"reproduce no-such-figure", 64, "no figure 'no-such-figure'"},
    };
    for (const Case& c : cases)
    {
        INFO(c.args);
        const CommandResult r = Incsim(c.args, dir);
        CHECK(r.status == c.status);
        CHECK(r.err.find(c.message) != std::string::npos);
    }
    SECTION("reproduce checks its output directory before running anything")
    {
        const std::string runs = dir.File("runs");
        const CommandResult r = Incsim("reproduce udp-load-latency --out /proc/incsim-figures --db " +
                                           Quote(dir.File("r.sqlite")) + " --runs " + Quote(runs),
                                       dir);
        CHECK(r.status == 5);
        CHECK(r.err.find("cannot write /proc/incsim-figures") != std::string::npos);
        CHECK_FALSE(FileExists(runs));
    }
    SECTION("sweep --dry-run checks each point as run does, naming the point and the key")
    {
        WriteFile(dir.File("sweep.json"), R"({"name": "s", "scenario": "star.json", "vary": [
            {"list": [{"faults": []},
                      {"faults": [{"at": "10us", "action": "link_down", "link": ["h0", "h9"]}]}]}]})");
        const CommandResult r = Incsim("sweep " + Quote(dir.File("sweep.json")) + " --dry-run", dir);
        CHECK(r.status == 2);
        CHECK(r.err.find("the run with faults=[{\"action\":\"link_down\"") != std::string::npos);
        CHECK(r.err.find("--set: /faults/0/link/1: unknown node \"h9\"") != std::string::npos);
    }
    const CommandResult version = Incsim("--version", dir);
    CHECK(version.status == 0);
    CHECK(version.out.find(IncsimVersion()) != std::string::npos);
}

TEST_CASE("A trace's header comes from its declaration, and a row must fill every column",
          "[results]")
{
    TempDir dir;
    const TraceSchema trace{"t", "a test trace", {{"a", "int", "first"}, {"b", "int", "second"}}};
    TraceOutputs outputs(dir.Path(), {"t"});
    CsvWriter* csv = outputs.Open(trace);
    REQUIRE(csv != nullptr);
    csv->Row(1, 2);
    CHECK_THROWS_AS(csv->Row(1, 2, 3), std::logic_error);
    CHECK_THROWS_AS(csv->Row(1), std::logic_error);
    outputs.Close();
    CHECK(ReadFile(dir.File("t.csv")) == "a,b\n1,2\n");
    CHECK(outputs.Open(TraceSchema{"u", "", {}}) == nullptr);  // not enabled
}

TEST_CASE("During a run a failed write stops the simulation instead of throwing through ns-3",
          "[trust][output]")
{
    // An exception crossing ns-3's event loop leaks the event it was running (ASan's leak
    // check found it on the ulimit -f path above): the failure waits for the loop to end.
    int stops = 0;
    const DeferredWriteFailures deferred([&] { ++stops; });
    OutputFile full("/dev/full");
    full.Write(std::string(1 << 16, 'x'));
    CHECK_NOTHROW(full.Flush());
    full.Write("more");
    CHECK_NOTHROW(full.Flush());
    CHECK(stops == 1);
    CHECK_THROWS_WITH(deferred.Rethrow(), Catch::Contains("/dev/full: No space left on device"));
    CHECK_THROWS_WITH(full.Close(), Catch::Contains("an earlier write failed"));
}

TEST_CASE("Figures are registered by the protocols, once each, relative to their registry",
          "[trust][figures]")
{
    TempDir dir;
    // Every built-in protocol with an analysis/figures.json contributes its figures.
    const CommandResult builtin = Incsim("reproduce --list", dir);
    CHECK(builtin.status == 0);
    for (const char* figure : {"udp-load-latency", "onepipe-fig8", "gotthard-fig7"})
    {
        CHECK(builtin.out.find(figure) != std::string::npos);
    }
    // A registry's sweep and script are found beside it, wherever incsim runs.
    WriteFile(dir.File("sweep.json"), "not json");
    WriteFile(dir.File("figures.json"), R"({"figures": [
        {"name": "mine", "reproduces": "a test", "sweep": "sweep.json", "script": "plot.py"}]})");
    const CommandResult relative =
        Incsim("reproduce mine --registry " + Quote(dir.File("figures.json")) + " --out " +
                   Quote(dir.File("figs")),
               dir);
    CHECK(relative.status == 2);
    CHECK(relative.err.find(dir.File("sweep.json")) != std::string::npos);
    // A name registered twice is an error naming the place.
    WriteFile(dir.File("twice.json"), R"({"figures": [
        {"name": "mine", "reproduces": "a", "sweep": "s.json", "script": "a.py"},
        {"name": "mine", "reproduces": "b", "sweep": "s.json", "script": "b.py"}]})");
    const CommandResult twice =
        Incsim("reproduce --list --registry " + Quote(dir.File("twice.json")), dir);
    CHECK(twice.status == 2);
    CHECK(twice.err.find("/figures/1/name: figure 'mine' is already registered") !=
          std::string::npos);
}
