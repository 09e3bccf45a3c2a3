#include "tests/fuzz/fuzz-targets.h"

#include "p4/compiler/backend-support.h"
#include "p4/compiler/checker.h"
#include "p4/compiler/cpp-backend.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/lexer.h"
#include "p4/compiler/parser.h"
#include "p4/compiler/preprocess.h"
#include "p4/runtime/entries-file.h"
#include "p4/runtime/error.h"
#include "p4/runtime/stf.h"
#include "p4/runtime/v1model-switch.h"
#include "protocols/builtin-protocols.h"
#include "sim/core/diagnostics.h"
#include "sim/runner/build-topology.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario.h"
#include "sim/topology/routing.h"
#include "sim/topology/topology-file.h"
#include "topologies/register.h"

#include <SwitchPrograms.h>
#include <TestPrograms.h>

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cxxabi.h>

#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <typeinfo>

namespace incsim::fuzz
{
namespace
{

// What each input is called in error messages.
const std::string kScenarioName = "fuzz-scenario.json";
const std::string kTopologyName = "fuzz-topology.json";
const std::string kP4Name = "fuzz.p4";
const std::string kStfName = "fuzz.stf";
const std::string kEntriesName = "fuzz-entries.json";
// Files a scenario names resolve here, which does not exist: a fuzzed path reads nothing.
const std::string kNoDirectory = "/nonexistent-incsim-fuzz";
// Routes are computed for topologies up to this many (node, host) slots: a k=16 fat-tree
// (1.4M). Larger ones are valid but take seconds under ASan, which the fuzzer would take for
// a hang; their sizes are checked by RequireGeneratedSize and EcmpRoutes' own limit.
constexpr size_t kFuzzRouteSlots = 1 << 21;

/// Where a scenario's traces go: one directory per process, reused, removed at exit.
const std::string&
ScratchDirectory()
{
    struct Directory
    {
        Directory()
            : path((std::filesystem::temp_directory_path() /
                    ("incsim-fuzz-" + std::to_string(::getpid())))
                       .string())
        {
            std::filesystem::create_directories(path);
        }
        ~Directory()
        {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
        std::string path;
    };
    static const Directory dir;
    return dir.path;
}

bool
RoutesWithinFuzzBudget(const Topology& topology)
{
    return static_cast<size_t>(topology.NumNodes()) * topology.Hosts().size() <= kFuzzRouteSlots;
}

Outcome
Accepted()
{
    return {true, {}};
}

/// A rejection whose message must begin with the input's name.
Outcome
Rejected(const std::string& name, const std::string& message)
{
    if (message.rfind(name + ":", 0) != 0)
    {
        throw UnlocatedError("error without the input's name: " + message);
    }
    return {false, message};
}

// ---- scenario and topology files

void
RegisterComponents()
{
    static const bool registered = [] {
        // Warnings about odd but valid inputs would only slow the fuzzer down.
        spdlog::set_level(spdlog::level::off);
        RegisterTopologyGenerators();
        RegisterBuiltinProtocols();
        return true;
    }();
    (void)registered;
}

Outcome
ScenarioTarget(std::string_view input)
{
    try
    {
        const Scenario scenario =
            ParseScenario(ParseJsonText(std::string(input), kScenarioName), kScenarioName,
                          kNoDirectory, {});
        const Topology topology = BuildTopology(scenario);
        if (!RoutesWithinFuzzBudget(topology))
        {
            return Accepted();
        }
        const ParamView routing = scenario.Section("routing");
        const RouteMetric metric =
            routing.String("metric") == "delay" ? RouteMetric::Delay : RouteMetric::Hops;
        const EcmpRoutes routes = ComputeEcmpRoutes(topology, metric);
        if (routing.Bool("require_dag"))
        {
            CheckRoutingDag(topology, routes);
        }
        // The rest of `incsim validate`: the ns-3 world, the protocol, faults, traces.
        const Simulation simulation(scenario, ScratchDirectory());
        return Accepted();
    }
    catch (const InputError& error)
    {
        // A topology file is named relative to kNoDirectory, so its errors name that file.
        const std::string what = error.what();
        return what.rfind(kNoDirectory, 0) == 0 ? Outcome{false, what}
                                                : Rejected(kScenarioName, what);
    }
    catch (const ConfigError& error)
    {
        return {false, error.what()};
    }
}

Outcome
TopologyTarget(std::string_view input)
{
    try
    {
        // The defaults of a scenario's /links.
        LinkParams defaults;
        defaults.rateBps = 100'000'000'000;
        defaults.delayNs = 1000;
        defaults.bufferBytes = 512 * 1024;
        const Topology topology = TopologyFromJson(ParseJsonText(std::string(input), kTopologyName),
                                                   kTopologyName, defaults);
        if (RoutesWithinFuzzBudget(topology))
        {
            ComputeEcmpRoutes(topology, RouteMetric::Hops);
            ComputeEcmpRoutes(topology, RouteMetric::Delay);
        }
        return Accepted();
    }
    catch (const InputError& error)
    {
        return Rejected(kTopologyName, error.what());
    }
}

// ---- P4 programs

/// incsim's core.p4 and v1model.p4, run through cpp and lexed once per V1MODEL_VERSION that
/// inputs define (the input itself is not run through cpp). Their tokens point into the
/// prelude's own SourceManager, which lives as long as they do.
struct Prelude
{
    std::shared_ptr<p4::SourceManager> sources = std::make_shared<p4::SourceManager>();
    std::vector<p4::Token> tokens;
};

const Prelude&
ArchitecturePrelude(const std::string& version)
{
    static std::map<std::string, Prelude> preludes;
    if (const auto found = preludes.find(version); found != preludes.end())
    {
        return found->second;
    }
    const Prelude& prelude = preludes[version] = [&] {
        Prelude result;
        p4::Diagnostics diags(result.sources);
        const std::string define =
            version.empty() ? "" : "#define V1MODEL_VERSION " + version + "\n";
        const auto text = p4::PreprocessText(
            "fuzz-prelude.p4", define + "#include <core.p4>\n#include <v1model.p4>\n", diags);
        if (text)
        {
            result.tokens = p4::Lex(*text, "fuzz-prelude.p4", diags);
            result.tokens.pop_back();  // End
        }
        if (!text || diags.HasErrors())
        {
            throw std::runtime_error("cannot preprocess the architecture:\n" + diags.Render());
        }
        return result;
    }();
    return prelude;
}

/// The v1model version the input's `#define V1MODEL_VERSION N` selects: "20200408" for N at
/// or above it (v1model.p4's only gate), else "" (the default), so at most two preludes.
std::string
V1ModelVersion(std::string_view input)
{
    const std::string_view key = "#define V1MODEL_VERSION ";
    const size_t at = input.find(key);
    if (at == std::string_view::npos)
    {
        return "";
    }
    std::string digits;
    for (size_t i = at + key.size(); i < input.size() && digits.size() < 8 &&
                                     input[i] >= '0' && input[i] <= '9';
         ++i)
    {
        digits.push_back(input[i]);
    }
    return !digits.empty() && std::stoul(digits) >= 20200408 ? "20200408" : "";
}

/// The input with each #include line and its V1MODEL_VERSION definition blanked (the prelude
/// stands for them), line numbers kept.
std::string
WithoutIncludes(std::string_view input)
{
    std::string out;
    size_t start = 0;
    while (start <= input.size())
    {
        size_t end = input.find('\n', start);
        if (end == std::string_view::npos)
        {
            end = input.size();
        }
        const std::string_view line = input.substr(start, end - start);
        const size_t first = line.find_first_not_of(" \t");
        const bool include =
            first != std::string_view::npos &&
            (line.substr(first).rfind("#include", 0) == 0 ||
             line.substr(first).rfind("#define V1MODEL_VERSION ", 0) == 0);
        if (!include)
        {
            out.append(line);
        }
        if (end < input.size())
        {
            out.push_back('\n');
        }
        start = end + 1;
    }
    return out;
}

Outcome
P4Target(std::string_view input)
{
    p4::Diagnostics diags;
    const std::string program = WithoutIncludes(input);
    diags.Sources().AddBuffer(kP4Name, program);
    std::vector<p4::Token> tokens = ArchitecturePrelude(V1ModelVersion(input)).tokens;
    std::vector<p4::Token> own = p4::Lex(program, kP4Name, diags);
    tokens.insert(tokens.end(), std::make_move_iterator(own.begin()),
                  std::make_move_iterator(own.end()));
    auto ast = p4::Parse(std::move(tokens), diags);
    if (!diags.HasErrors() && p4::CheckProgram(*ast, diags) &&
        p4::CheckBackendSupport(*ast, diags))
    {
        p4::GenerateCpp(*ast, {"fuzz", kP4Name}, diags);
    }
    if (!diags.HasErrors())
    {
        return Accepted();
    }
    for (const p4::Diagnostic& diagnostic : diags.All())
    {
        if (diagnostic.severity == p4::Severity::Error && diagnostic.location.file == nullptr)
        {
            throw UnlocatedError("P4 error without a file: " + diags.Render(diagnostic));
        }
    }
    return {false, diags.Render()};
}

// ---- STF scripts and entries files

const p4rt::GeneratedProgram&
Program(const std::string& name)
{
    static const std::vector<p4rt::GeneratedProgram> programs = [] {
        std::vector<p4rt::GeneratedProgram> all = p4gen::SwitchPrograms();
        for (auto& program : p4gen::TestPrograms())
        {
            all.push_back(std::move(program));
        }
        return all;
    }();
    return p4rt::FindGeneratedProgram(programs, name);
}

/// The program an STF or entries input runs against: named by a first line
/// "# program: NAME" (removed from the input), else forward.
const p4rt::GeneratedProgram*
ProgramLine(std::string_view& input)
{
    const std::string_view prefix = "# program: ";
    if (input.rfind(prefix, 0) != 0)
    {
        return &Program("forward");
    }
    const size_t end = std::min(input.find('\n'), input.size());
    const std::string name(input.substr(prefix.size(), end - prefix.size()));
    // Blank the line rather than drop it, so that STF line numbers stay those of the file.
    input.remove_prefix(end);
    try
    {
        return &Program(name);
    }
    catch (const p4rt::Error&)
    {
        return nullptr;  // not a compiled-in program: the harness's input, nothing to test
    }
}

Outcome
StfTarget(std::string_view input)
{
    const p4rt::GeneratedProgram* program = ProgramLine(input);
    if (program == nullptr)
    {
        return Rejected(kStfName, kStfName + ":1: unknown program");
    }
    try
    {
        const p4rt::StfScript script = p4rt::ParseStf(std::string(input), kStfName);
        p4rt::V1SwitchTarget target(program->create());
        const p4rt::StfResult result = p4rt::RunStf(script, target);
        return result.Passed() ? Accepted() : Rejected(kStfName, result.Report(kStfName));
    }
    catch (const p4rt::Error& error)
    {
        return Rejected(kStfName, error.what());
    }
}

Outcome
EntriesTarget(std::string_view input)
{
    const p4rt::GeneratedProgram* program = ProgramLine(input);
    if (program == nullptr)
    {
        return Rejected(kEntriesName, kEntriesName + ": unknown program");
    }
    try
    {
        const nlohmann::json doc = ParseJsonText(std::string(input), kEntriesName);
        const auto instance = program->create();
        p4rt::LoadEntriesJson(instance->Control(), doc, kEntriesName);
        return Accepted();
    }
    catch (const InputError& error)
    {
        return Rejected(kEntriesName, error.what());
    }
    catch (const p4rt::Error& error)
    {
        return Rejected(kEntriesName, error.what());
    }
}

} // namespace

const std::map<std::string, Target>&
Targets()
{
    RegisterComponents();
    static const std::map<std::string, Target> targets = {
        {"scenario", ScenarioTarget}, {"topology", TopologyTarget}, {"p4", P4Target},
        {"stf", StfTarget},           {"entries", EntriesTarget},
    };
    return targets;
}

Target
FindTarget(const std::string& name)
{
    const auto& targets = Targets();
    if (const auto found = targets.find(name); found != targets.end())
    {
        return found->second;
    }
    std::string known;
    for (const auto& [targetName, target] : targets)
    {
        known += (known.empty() ? "" : ", ") + targetName;
    }
    throw std::invalid_argument("no fuzz target '" + name + "' (known: " + known + ")");
}

std::string
DescribeException(const std::exception& exception)
{
    const char* mangled = typeid(exception).name();
    int status = 0;
    const std::unique_ptr<char, void (*)(void*)> name(
        abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
    return std::string(status == 0 ? name.get() : mangled) + ": " + exception.what();
}

} // namespace incsim::fuzz
