// Sweep files: expansion into the exact run set (grid, zip, list, repetitions and seeds),
// errors that name the file and the JSON path, and runs that several sweeps share.

#include "sim/core/diagnostics.h"
#include "tools/experiment/results-db.h"
#include "tools/experiment/sweep-spec.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

using namespace incsim;
using namespace incsim::experiment;
using nlohmann::json;

namespace
{

SweepSpec
Parse(const std::string& text)
{
    return ParseSweep(json::parse(text), "sweeps/test.json");
}

std::string
ErrorOf(const std::string& text)
{
    try
    {
        Parse(text);
    }
    catch (const InputError& error)
    {
        return error.what();
    }
    return "no error";
}

/// A run as "path=value,...|rep" for set comparisons.
std::string
Key(const PlannedRun& run)
{
    std::string key;
    for (const auto& [path, value] : run.point)
    {
        key += path + "=" + value.dump() + ",";
    }
    return key + "|" + std::to_string(run.repetition);
}

} // namespace

TEST_CASE("a grid multiplies out, a zip pairs, a list names points, factors multiply",
          "[sweep]")
{
    const SweepSpec sweep = Parse(R"({"name": "s", "scenario": "../base.json",
        "vary": [{"grid": {"a": [1, 2], "b": ["x", "y", "z"]}},
                 {"zip": {"c": [10, 20], "d": [true, false]}},
                 {"list": [{"e": 1}, {"e": 2, "f": "g"}]}],
        "repetitions": 2})");
    CHECK(sweep.scenarioPath == "sweeps/../base.json");
    CHECK(sweep.parameters == std::vector<std::string>{"a", "b", "c", "d", "e", "f"});
    const std::vector<PlannedRun> runs = ExpandSweep(sweep);
    REQUIRE(runs.size() == 2 * 3 * 2 * 2 * 2);
    std::set<std::string> keys;
    for (const PlannedRun& run : runs)
    {
        keys.insert(Key(run));
    }
    CHECK(keys.size() == runs.size());  // no duplicates
    // The first factor varies slowest, repetitions fastest.
    CHECK(Key(runs[0]) == "a=1,b=\"x\",c=10,d=true,e=1,|0");
    CHECK(Key(runs[1]) == "a=1,b=\"x\",c=10,d=true,e=1,|1");
    CHECK(Key(runs[2]) == "a=1,b=\"x\",c=10,d=true,e=2,f=\"g\",|0");
    CHECK(Key(runs[4]) == "a=1,b=\"x\",c=20,d=false,e=1,|0");
    CHECK(Key(runs.back()) == "a=2,b=\"z\",c=20,d=false,e=2,f=\"g\",|1");
    // Zip pairs element by element: never c=10 with d=false.
    for (const PlannedRun& run : runs)
    {
        CHECK((run.point[2].second == 10) == (run.point[3].second == true));
    }
}

TEST_CASE("repetitions get derived seeds, the same at every point", "[sweep]")
{
    const SweepSpec sweep = Parse(R"({"name": "s", "scenario": "b.json", "seed": 7,
        "set": {"duration": "1ms"}, "vary": [{"grid": {"workload.load": [0.1, 0.2]}}],
        "repetitions": 3})");
    const std::vector<PlannedRun> runs = ExpandSweep(sweep);
    REQUIRE(runs.size() == 6);
    CHECK(runs[0].seed == 7);
    CHECK(runs[1].seed == RepetitionSeed(7, 1));
    CHECK(runs[1].seed != runs[2].seed);
    CHECK(runs[1].seed < (uint64_t{1} << 53));
    for (size_t i = 0; i < 3; ++i)
    {
        CHECK(runs[i].seed == runs[i + 3].seed);  // common random numbers across points
    }
    // Overrides: the fixed set, the point, then the seed, as `incsim run --set` takes them.
    CHECK(runs[4].overrides ==
          std::vector<std::string>{"duration=\"1ms\"", "workload.load=0.2",
                                   "seed=" + std::to_string(RepetitionSeed(7, 1))});
    // Adding repetitions keeps the existing seeds.
    const SweepSpec more = Parse(R"({"name": "s", "scenario": "b.json", "seed": 7,
        "repetitions": 5})");
    CHECK(ExpandSweep(more)[2].seed == runs[2].seed);
}

TEST_CASE("bad sweep files are reported with the file and JSON path", "[sweep]")
{
    CHECK(ErrorOf(R"({"scenario": "b.json"})") == "sweeps/test.json: /name: required key is missing");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json", "repeats": 2})") ==
          "sweeps/test.json: /repeats: unknown key (expected one of: metrics, name, "
          "repetitions, scenario, seed, set, timeout, vary)");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json", "vary": [{"cube": {"a": [1]}}]})") ==
          "sweeps/test.json: /vary/0/cube: unknown factor (expected grid, zip or list)");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json",
                      "vary": [{"zip": {"a": [1, 2], "b": [1]}}]})") ==
          "sweeps/test.json: /vary/0/zip/b: a zip needs lists of equal length: 1 values here, "
          "2 for \"a\"");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json", "vary": [{"grid": {"a": []}}]})") ==
          "sweeps/test.json: /vary/0/grid/a: expected a non-empty array of values, got []");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json",
                      "vary": [{"grid": {"a": [1]}}, {"list": [{"a": 2}]}]})") ==
          "sweeps/test.json: /vary/1/list/0/a: \"a\" is already varied by /vary/0");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json", "set": {"a": 1},
                      "vary": [{"grid": {"a": [1]}}]})") ==
          "sweeps/test.json: /vary/0/grid/a: \"a\" is both fixed in /set and varied");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json", "vary": [{"grid": {"seed": [1]}}]})") ==
          "sweeps/test.json: /vary/0/grid/seed: the seed is the sweep's: use \"seed\" and "
          "\"repetitions\" at the top level");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json", "repetitions": 0})") ==
          "sweeps/test.json: /repetitions: expected an integer from 1 to 100000, got 0");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json", "timeout": "soon"})") ==
          "sweeps/test.json: /timeout: expected a positive duration like \"600s\", got \"soon\"");
    CHECK(ErrorOf(R"({"name": "s", "scenario": "b.json", "metrics": ["ok", 3]})") ==
          "sweeps/test.json: /metrics/1: expected a metric path such as "
          "\"udp.latency_p99_us\", got 3");
}

TEST_CASE("a run shared by two sweeps carries both sweeps' parameters", "[sweep][results]")
{
    const std::string path = std::filesystem::temp_directory_path() / "incsim-shared-run.sqlite";
    std::filesystem::remove(path);
    {
        ResultsDb db(path);
        RunRecord run;
        run.sweep = "first";
        run.runId = "r1";
        run.status = "ok";
        run.params = {{"load", 0.5}};
        db.RecordRun(run);
        // The second sweep varies a parameter the first one fixed; it finds the run finished.
        db.AddToSweep("second", "r1", {{"ratio", 2}});
        const auto rows = db.Query("SELECT load, ratio, params FROM runs WHERE run_id = 'r1'");
        REQUIRE(rows.size() == 2);
        CHECK(rows[1][0] == "0.5");
        CHECK(rows[1][1] == "2");
        CHECK(json::parse(rows[1][2]) == json{{"load", 0.5}, {"ratio", 2}});
        const auto sweeps =
            db.Query("SELECT sweep FROM sweep_runs WHERE run_id = 'r1' ORDER BY sweep");
        CHECK(sweeps.size() == 3);
    }
    std::filesystem::remove(path);
}
