#include "test-support.h"

#include "sim/core/diagnostics.h"
#include "sim/runner/runner.h"
#include "sim/runner/validation.h"
#include "sim/scenario/scenario.h"
#include "sim/schema/schema.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace incsim;

namespace
{

enum class Colour
{
    Red,
    Green
};

const Choices<Colour>&
ColourChoices()
{
    static const Choices<Colour> choices{{"red", Colour::Red}, {"green", Colour::Green}};
    return choices;
}

std::string
Source(const std::string& relative)
{
    return std::string(INCSIM_SOURCE_DIR) + "/" + relative;
}

/// A /faults entry of scenarios/quickstart.json for each action: what each needs besides
/// "at" and "action".
const std::map<std::string, std::string>&
FaultBodies()
{
    static const std::map<std::string, std::string> bodies{
        {"link_down", R"("link": ["a0_0", "c0"])"},
        {"link_up", R"("link": ["a0_0", "c0"])"},
        {"node_crash", R"("node": "a0_0")"},
        {"node_recover", R"("node": "a0_0")"},
        {"loss_rate", R"("rate": 0.01)"},
    };
    return bodies;
}

using Case = std::tuple<std::string, std::string, std::string>; // base ("": any), path, value

/// What a value needs besides itself to make a scenario that can run.
const std::map<Case, std::vector<std::string>>&
Extras()
{
    static const std::map<Case, std::vector<std::string>> extras{
        // The total-order broadcast baselines order broadcasts only.
        {{"", "/protocol/params/ordering", "sequencer-switch"}, {"/workload/pattern=broadcast"}},
        {{"", "/protocol/params/ordering", "sequencer-host"}, {"/workload/pattern=broadcast"}},
        {{"", "/protocol/params/ordering", "token"}, {"/workload/pattern=broadcast"}},
        {{"", "/protocol/params/ordering", "lamport"}, {"/workload/pattern=broadcast"}},
        // The locality workload splits clients between two sites.
        {{"scenarios/gotthard/microbench.json", "/workload/kind", "locality"},
         {"/topology/params/layout=two-edge", R"(/protocol/params/switches=["G1", "G2", "S"])"}},
        {{"scenarios/gotthard/aws.json", "/workload/kind", "locality"},
         {"/topology/params/site_hosts=[4, 1, 0, 4, 0]"}},
        {{"", "/topology/params/layout", "two-edge"},
         {R"(/protocol/params/switches=["G1", "G2", "S"])"}},
        // Without a preset, the sites and their delays are given.
        {{"", "/topology/params/preset", "none"},
         {R"(/topology/params={"preset": "none", "sites": ["OR", "CA", "VA"],
             "one_way_delay": [["0ns", "10ms", "37ms"], ["10ms", "0ns", "37ms"],
                               ["37ms", "37ms", "0ns"]],
             "site_hosts": [8, 0, 1], "links": [["OR", "CA"], ["CA", "VA"]]})"}},
    };
    return extras;
}

/// Assembles `base` with `overrides` as `incsim validate` does; a failure names the case.
/// Counts the cases in `assembled`.
void
RequireAssembles(const std::string& base, const std::vector<std::string>& overrides,
                 size_t& assembled)
{
    INFO(base << " with " << overrides.front());
    ++assembled;
    try
    {
        const Scenario scenario = LoadScenario(Source(base), overrides);
        ValidateByAssembly(scenario);
    }
    catch (const std::logic_error& error)
    {
        FAIL_CHECK("unmapped choice: " << error.what());
    }
    catch (const std::exception& error)
    {
        FAIL_CHECK("the case does not assemble (give it extras): " << error.what());
    }
}

} // namespace

TEST_CASE("a Choices table makes its Enum spec and maps every value it accepts", "[choices]")
{
    const Spec spec = Spec::Object().Field("colour", Spec::Enum(ColourChoices()), "", "red");
    REQUIRE(spec.EnumFields() ==
            std::vector<std::pair<std::string, std::vector<std::string>>>{
                {"/colour", {"red", "green"}}});
    const nlohmann::json resolved = spec.Resolve({{"colour", "green"}}, "f.json", "");
    CHECK(ParamView(&resolved, "f.json", "").Choice("colour", ColourChoices()) == Colour::Green);
    CHECK_THROWS_AS(spec.Resolve({{"colour", "blue"}}, "f.json", ""), InputError);
}

TEST_CASE("a value the spec accepts but the table lacks is a logic error, not a default",
          "[choices]")
{
    const Spec spec = Spec::Object().Field("colour", Spec::Enum({"red", "green", "blue"}), "",
                                           "red");
    const nlohmann::json resolved = spec.Resolve({{"colour", "blue"}}, "f.json", "/x");
    const ParamView view(&resolved, "f.json", "/x");
    CHECK_THROWS_WITH(view.Choice("colour", ColourChoices()),
                      Catch::Contains("/x/colour is \"blue\""));
}

TEST_CASE("Spec::EnumFields walks nested objects, arrays and chosen dependent fields",
          "[choices]")
{
    test::InitIncsim();
    const Scenario scenario = LoadScenario(Source("scenarios/quickstart.json"));
    std::map<std::string, std::vector<std::string>> fields;
    for (auto& [path, values] : Scenario::DocumentSpec().EnumFields(&scenario.Resolved()))
    {
        fields[path] = values;
    }
    CHECK(fields.at("/routing/metric") == std::vector<std::string>{"hops", "delay"});
    CHECK(fields.count("/faults/0/action") == 1);
    CHECK(fields.at("/workload/pattern") ==
          std::vector<std::string>{"uniform", "permutation", "all-to-all"});
    CHECK(fields.count("/outputs/progress") == 1);
    // Registry enums (the generator, the protocol, trace names) are looked up by name.
    CHECK(fields.count("/topology/generator") == 0);
    CHECK(fields.count("/protocol/name") == 0);
    CHECK(fields.count("/outputs/traces/0") == 0);
    // Without a resolved document, dependent fields are left out.
    bool workload = false;
    for (const auto& field : Scenario::DocumentSpec().EnumFields())
    {
        workload |= field.first.rfind("/workload", 0) == 0;
    }
    CHECK_FALSE(workload);
}

// Every value of every Enum field of the core sections, of each protocol's params and
// workload and of each generator's params reaches the code that reads it: the scenario,
// changed to that value, assembles (topology, routes, faults, programs, protocol) with no
// std::logic_error from an unmapped choice. The bases cover every protocol and every
// generator with an Enum param.
TEST_CASE("every Enum value of the scenario's sections maps to what the code does",
          "[choices]")
{
    test::InitIncsim();
    const std::vector<std::string> bases{
        "scenarios/quickstart.json",
        "scenarios/onepipe/idle-latency.json",
        "scenarios/gotthard/microbench.json",
        "scenarios/gotthard/aws.json",
    };
    std::set<std::string> covered;
    size_t assembled = 0;
    for (const std::string& base : bases)
    {
        const Scenario scenario = LoadScenario(Source(base));
        for (const auto& [path, values] : Scenario::DocumentSpec().EnumFields(&scenario.Resolved()))
        {
            covered.insert(path);
            if (path == "/faults/0/action")
            {
                if (base != "scenarios/quickstart.json")
                {
                    continue;
                }
                std::set<std::string> known;
                for (const auto& [action, body] : FaultBodies())
                {
                    known.insert(action);
                }
                REQUIRE(std::set<std::string>(values.begin(), values.end()) == known);
                for (const std::string& action : values)
                {
                    RequireAssembles(base,
                                     {R"(/faults=[{"at": "10us", "action": ")" + action + "\", " +
                                      FaultBodies().at(action) + "}]"},
                                     assembled);
                }
                continue;
            }
            for (const std::string& value : values)
            {
                std::vector<std::string> overrides{path + "=" + value};
                auto extra = Extras().find({base, path, value});
                if (extra == Extras().end())
                {
                    extra = Extras().find({"", path, value});
                }
                if (extra != Extras().end())
                {
                    overrides.insert(overrides.end(), extra->second.begin(), extra->second.end());
                }
                RequireAssembles(base, overrides, assembled);
            }
        }
    }
    INFO(assembled << " cases");
    CHECK(assembled >= 90);
    for (const char* path : {"/simulator/scheduler", "/routing/ecmp", "/outputs/progress",
                             "/protocol/params/ordering", "/protocol/params/incarnation",
                             "/protocol/params/mode", "/workload/kind", "/workload/arrivals",
                             "/topology/params/layout", "/topology/params/preset"})
    {
        CHECK(covered.count(path) == 1);
    }
}

// /outputs/progress is read when a run starts, after assembly: each value runs.
TEST_CASE("every progress mode runs", "[choices]")
{
    test::InitIncsim();
    for (const auto& [name, mode] : ProgressModeChoices())
    {
        test::TempDir dir;
        const Scenario scenario = LoadScenario(
            Source("scenarios/quickstart.json"),
            {"/outputs/progress=" + name, "/duration=20us", "/faults=[]"});
        RunOptions options;
        options.outDir = dir.Path();
        CHECK_NOTHROW(RunScenario(scenario, options));
    }
}

TEST_CASE("ReadDistribution refuses a shape it does not know rather than read a constant",
          "[choices]")
{
    // Only Resolve makes such a value; reading one unresolved is a programming error.
    const nlohmann::json section = {{"offset", {{"dist", "pareto"}, {"value", "1us"}}}};
    const ParamView view(&section, "f.json", "/clocks");
    CHECK_THROWS_AS(ReadDistribution(view, "offset"), std::logic_error);
}
