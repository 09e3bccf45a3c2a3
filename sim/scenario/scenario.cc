#include "sim/scenario/scenario.h"

#include "sim/core/rng.h"
#include "sim/scenario/protocol.h"
#include "sim/topology/routing.h"
#include "sim/topology/topology-file.h"
#include "sim/topology/topology-registry.h"
#include "sim/trace/trace-schema.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>

namespace incsim
{

using nlohmann::json;

namespace
{

const std::string kOverrideFile = "--set";

Spec
GeneratorParams(const std::string& name)
{
    const auto& generator = TopologyGenerators().Get(name);
    return generator.params ? generator.params() : Spec::Object();
}

Spec
ProtocolParams(const std::string& name)
{
    const auto& protocol = Protocols().Get(name);
    return protocol.params ? protocol.params() : Spec::Object();
}

Spec
ProtocolWorkload(const std::string& name)
{
    const auto& protocol = Protocols().Get(name);
    return protocol.workload ? protocol.workload() : Spec::Object();
}

Spec
TopologySpec()
{
    return Spec::Object()
        .OptionalField("generator",
                       Spec::Enum(TopologyGenerators().Names()).KnownAs("topology generator"),
                       "Built-in generator that builds the topology.")
        .DependentField("params",
                        "generator",
                        GeneratorParams,
                        "Parameters of the generator.")
        .OptionalField("file",
                       Spec::String().NamesFile(),
                       "Topology JSON file (docs/topology-file.md), relative to the scenario's "
                       "directory.")
        .ExactlyOneOf({"generator", "file"});
}

Spec
LinksSpec()
{
    return Spec::Object()
        .Field("rate", Spec::Rate().Above(0), "Line rate of every link.", "100Gbps")
        .Field("delay", Spec::Duration(), "Propagation delay of every link.", "1us")
        .Field("buffer", Spec::Size().Above(0), "Egress buffer per port.", "512KiB")
        .Field("loss",
               LossRateSpec(),
               "Probability that a packet is lost on a link, below 1: a link that loses every "
               "packet is a failed link, which a `link_down` fault models (routes then avoid "
               "it).",
               0)
        .Field("mtu", Spec::Size().Min(64).Max(9216), "Largest frame on a link.", "1500B");
}

Spec
SwitchSpec()
{
    return Spec::Object()
        .Field("priorities", Spec::Integer().Min(1).Max(8), "Priority queues per port.", 8)
        .Field("cpu_service_time",
               Spec::Duration(),
               "Time the switch CPU port spends per packet.",
               "2us")
        .Field("cpu_queue",
               Spec::Integer().Min(1),
               "Packets the switch CPU port queues before dropping.",
               1024)
        .Field("pipeline_delay",
               Spec::Duration(),
               "Ingress-to-egress latency of the switch chip.",
               "400ns")
        .Field("ecn_threshold",
               Spec::Size(),
               "Bytes queued at a port behind a departing frame above which the switch marks "
               "an ECN-capable frame Congestion Experienced (RFC 3168; DCTCP's marking "
               "threshold K); 0B: no marking.",
               "0B")
        .Field("program",
               Spec::String(),
               "P4 program every switch runs: one compiled in from p4/*.p4 (`incsim list`). "
               "Routes go into its ipv4_route/ecmp tables (see p4/forward.p4).",
               "forward")
        .OptionalField("entries",
                       Spec::String().NamesFile(),
                       "JSON file of table entries, multicast groups, clone sessions and "
                       "register values (docs/entries.md) loaded into every switch's "
                       "program; relative to the scenario file. The route tables are the "
                       "simulator's and are rewritten on every route change.");
}

Spec
HostsSpec()
{
    return Spec::Object()
        .Field("cores", Spec::Integer().Min(1), "CPU cores per host.", 4)
        .Field("message_cost",
               Spec::Duration(),
               "CPU service time per message handled by an endpoint.",
               "0ns")
        .Field("nic_buffer", Spec::Size().Above(0), "Transmit buffer of the NIC.", "4MiB");
}

Spec
BackgroundSpec()
{
    return Spec::Object()
        .Field("flows_per_host",
               Spec::Integer().Min(0).Max(1024),
               "Long-lived flows each host sends, each to a random other host; 0 for none.",
               0)
        .Field("max_window",
               Spec::Size().Min(4096),
               "Receive window of a flow: the largest congestion window.",
               "1MiB")
        .Field("initial_window", Spec::Integer().Min(1).Max(1000),
               "Initial congestion window, in segments.", 10)
        .Field("min_rto", Spec::Duration().Above(0), "Smallest retransmission timeout.", "1ms")
        .Field("nic_limit",
               Spec::Size().Above(0),
               "Background data a host keeps queued in its NICs, like Linux's TCP small queues.",
               "64KiB")
        .Field("congestion_control", Spec::Enum(DctcpChoices()),
               "reno: slow start, additive increase, halving on loss (the transport below); "
               "dctcp: the same, with segments sent ECN-capable and the window cut once per "
               "round trip by the fraction of them switches marked (RFC 8257; switches mark "
               "above /switch/ecn_threshold).",
               "reno")
        .Field("dctcp_gain", Spec::Number().Above(0).Max(1),
               "dctcp: weight g of the newest window in the marked fraction's moving average "
               "(RFC 8257's default, 1/16).",
               0.0625)
        .Field("priority", PrioritySpec(), "Switch and NIC queue of background packets.", 0)
        .Field("port", Spec::Integer().Min(1).Max(65535),
               "UDP port of the background transport on every host.", 7000)
        .Field("start", Spec::Duration(), "When flows start sending, before the end of the run.",
               "0ns")
        .OptionalField("stop", Spec::Duration(),
                       "When flows stop sending new data, after start (default and latest: the "
                       "end of the run).");
}

Spec
SimulatorSpec()
{
    return Spec::Object().Field(
        "scheduler",
        Spec::Enum(SchedulerChoices()),
        "ns-3 event scheduler. All order simultaneous events by insertion, so results do not "
        "depend on the choice; calendar was fastest on incsim's per-packet event mix.",
        "calendar")
        .OptionalField("memory_limit",
                       Spec::Size().Above(0),
                       "Largest memory the world may take. Before building it, incsim estimates "
                       "its memory from the topology's size (README, \"Memory of a built "
                       "world\") and refuses a world above this limit (default: the memory "
                       "available on this machine, MemAvailable or the cgroup's limit); set it "
                       "to build a larger world anyway.");
}

Spec
RoutingSpec()
{
    return Spec::Object()
        .Field("metric",
               Spec::Enum(RouteMetricChoices()),
               "Shortest paths by hop count or by total link delay.",
               "hops")
        .Field("ecmp",
               Spec::Enum(EcmpModeChoices()),
               "How traffic is spread over equal-cost paths.",
               "per-flow")
        .Field("reconverge_delay",
               Spec::Duration(),
               "After a link or node fault, the time until routes are recomputed on the "
               "surviving graph.",
               "1ms")
        .Field("require_dag",
               Spec::Bool(),
               "Fail unless the routes form a directed acyclic graph.",
               false);
}

Spec
ClocksSpec()
{
    return Spec::Object()
        .Field("offset",
               Spec::Distribution(SpecKind::Duration),
               "Initial clock offset of each host.",
               "0ns")
        .Field("drift_ppm",
               Spec::Distribution(SpecKind::Number),
               "Clock drift of each host, in parts per million.",
               0)
        .Field("sync_period",
               Spec::Duration(),
               "Interval between clock synchronisations; \"0ns\" never synchronises.",
               "0ns")
        .Field("residual_skew",
               Spec::Distribution(SpecKind::Duration),
               "Offset left right after each synchronisation.",
               "0ns");
}

Spec
ProtocolSpec()
{
    return Spec::Object()
        .RequiredField("name",
                       Spec::Enum(Protocols().Names()).KnownAs("protocol"),
                       "Protocol under test.")
        .DependentField("params", "name", ProtocolParams, "Parameters of the protocol.");
}

Spec
FaultSpec()
{
    const std::vector<std::string> linkActions{"link_down", "link_up"};
    return Spec::Object()
        .RequiredField("at", Spec::Duration(), "Simulated time of the fault.")
        .RequiredField(
            "action",
            Spec::Enum(FaultActionChoices()),
            "What happens.")
        .OptionalField("link",
                       Spec::Array(Spec::String()).MinItems(2).MaxItems(2),
                       "Names of the two nodes at the ends of the link; for `loss_rate`, "
                       "absent means every link.")
        .OptionalField("node", Spec::String(), "Name of the node.")
        .OptionalField("rate", Spec::Number().Min(0).Max(1), "New loss rate.")
        .OnlyWhen("link", "action", {"link_down", "link_up", "loss_rate"})
        .RequiredWhen("link", "action", linkActions)
        .OnlyWhen("node", "action", {"node_crash", "node_recover"})
        .RequiredWhen("node", "action", {"node_crash", "node_recover"})
        .OnlyWhen("rate", "action", {"loss_rate"})
        .RequiredWhen("rate", "action", {"loss_rate"});
}

/// /outputs for `protocol`: its traces are the core ones plus those the protocol declares,
/// so that a trace nobody would write is an error rather than a missing file.
Spec
OutputsSpec(const std::string& protocol)
{
    std::vector<std::string> traces;
    for (const TraceSchema& trace : CoreTraces())
    {
        traces.push_back(trace.name);
    }
    std::string own;
    for (const TraceSchema& trace : Protocols().Get(protocol).traces)
    {
        if (std::find(traces.begin(), traces.end(), trace.name) == traces.end())
        {
            traces.push_back(trace.name);
            own += (own.empty() ? "" : ", ") + trace.name;
        }
    }
    // The default: a protocol's per-message trace when it has one, and the link counters.
    json defaults = json::array();
    if (std::find(traces.begin(), traces.end(), "messages") != traces.end())
    {
        defaults.push_back("messages");
    }
    defaults.push_back("links");
    return Spec::Object()
        .Field("traces",
               Spec::Array(Spec::Enum(traces).KnownAs(protocol + " trace")),
               "Trace files to write: the network's (packets, links, queues)" +
                   (own.empty() ? std::string(".") : " and " + protocol + "'s (" + own + ")."),
               defaults)
        .Field("queue_sample_interval",
               Spec::Duration().Above(0),
               "Sampling interval of the queue trace.",
               "10us")
        .Field("pcap", Spec::Bool(), "Write pcap files of every link.", false)
        .Field("progress",
               Spec::Enum(ProgressModeChoices()),
               "Progress display; \"auto\" shows it on a terminal.",
               "auto");
}

// ---- --set overrides ----

std::string
EscapePointerToken(const std::string& key)
{
    std::string out;
    for (char c : key)
    {
        out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return out;
}

std::string
ToPointer(const std::vector<std::string>& tokens, size_t count)
{
    std::string pointer;
    for (size_t i = 0; i < count && i < tokens.size(); ++i)
    {
        pointer += "/" + EscapePointerToken(tokens[i]);
    }
    return pointer;
}

/// "links.delay" or "/links/delay" -> {"links", "delay"}.
std::vector<std::string>
SplitOverridePath(const std::string& path)
{
    std::vector<std::string> tokens;
    if (path.empty())
    {
        return tokens;
    }
    bool pointer = path[0] == '/';
    char sep = pointer ? '/' : '.';
    size_t start = pointer ? 1 : 0;
    while (true)
    {
        size_t end = path.find(sep, start);
        std::string token = path.substr(start, end == std::string::npos ? end : end - start);
        if (pointer)
        {
            // JSON pointer unescaping: ~1 is '/', ~0 is '~'.
            std::string unescaped;
            for (size_t i = 0; i < token.size(); ++i)
            {
                bool escape = token[i] == '~' && i + 1 < token.size() &&
                              (token[i + 1] == '0' || token[i + 1] == '1');
                if (escape)
                {
                    unescaped += token[i + 1] == '0' ? '~' : '/';
                    ++i;
                }
                else
                {
                    unescaped += token[i];
                }
            }
            token = unescaped;
        }
        tokens.push_back(token);
        if (end == std::string::npos)
        {
            return tokens;
        }
        start = end + 1;
    }
}

std::optional<size_t>
ParseIndex(const std::string& token)
{
    if (token.empty() || token.size() > 9 ||
        !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        return std::nullopt;
    }
    return std::stoul(token);
}

std::string
Got(const json& value)
{
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

/// The value of an override: JSON when the text is JSON, else the text as a string ("2us").
/// JSON with a duplicate key or a number out of range is an error, not a string.
json
OverrideValue(const std::string& text, const std::string& pointer)
{
    try
    {
        return ParseJsonText(text, kOverrideFile);
    }
    catch (const JsonSyntaxError&)
    {
        json value = text;
        try
        {
            value.dump(); // the resolved scenario is written out as JSON, which must be UTF-8
        }
        catch (const json::type_error&)
        {
            throw InputError(kOverrideFile, pointer, "the value is not valid UTF-8");
        }
        return value;
    }
    catch (const JsonTextError& error)
    {
        throw InputError(kOverrideFile, pointer + error.JsonPath(), error.Message());
    }
}

/// Applies one override to `document` and returns the pointer of the outermost value it
/// created or replaced, so that validation errors there can be blamed on --set.
std::string
ApplyOverride(json& document, const std::string& override)
{
    size_t equals = override.find('=');
    if (equals == std::string::npos)
    {
        std::string pointer = ToPointer(SplitOverridePath(override), SIZE_MAX);
        throw InputError(kOverrideFile, pointer,
                         "expected PATH=VALUE, got " + Got(json(override)));
    }
    std::string pathText = override.substr(0, equals);
    std::string valueText = override.substr(equals + 1);
    std::vector<std::string> tokens = SplitOverridePath(pathText);
    if (tokens.empty())
    {
        throw InputError(kOverrideFile, "",
                         "expected PATH=VALUE with a non-empty PATH, got " + Got(json(override)));
    }
    for (size_t i = 0; i < tokens.size(); ++i)
    {
        if (tokens[i].empty())
        {
            throw InputError(kOverrideFile, ToPointer(tokens, i + 1),
                             "empty key in path " + Got(json(pathText)));
        }
    }

    json value = OverrideValue(valueText, ToPointer(tokens, tokens.size()));

    json* current = &document;
    std::string blamed;
    for (size_t i = 0; i < tokens.size(); ++i)
    {
        const std::string& token = tokens[i];
        bool last = i + 1 == tokens.size();
        std::string pointer = ToPointer(tokens, i + 1);
        if (current->is_object())
        {
            if (!current->contains(token) && blamed.empty())
            {
                blamed = pointer;
            }
            if (last)
            {
                (*current)[token] = value;
            }
            else if (!current->contains(token))
            {
                (*current)[token] = json::object();
            }
            current = &(*current)[token];
        }
        else if (current->is_array())
        {
            auto index = ParseIndex(token);
            if (!index)
            {
                throw InputError(kOverrideFile, pointer,
                                 "expected an array index, got " + Got(json(token)));
            }
            if (*index >= current->size())
            {
                throw InputError(kOverrideFile, pointer,
                                 "index " + token + " is past the end of the array (" +
                                     std::to_string(current->size()) + " items)");
            }
            if (last)
            {
                (*current)[*index] = value;
            }
            current = &(*current)[*index];
        }
        else
        {
            throw InputError(kOverrideFile, pointer,
                             "cannot set a key inside " + Got(*current) + " at " +
                                 (i == 0 ? std::string("/") : ToPointer(tokens, i)));
        }
    }
    return blamed.empty() ? ToPointer(tokens, tokens.size()) : blamed;
}

bool
IsWithin(const std::string& path, const std::string& prefix)
{
    return path == prefix || (path.size() > prefix.size() &&
                              path.compare(0, prefix.size(), prefix) == 0 &&
                              path[prefix.size()] == '/');
}

} // namespace

// ---- Scenario ----

const Choices<bool>&
DctcpChoices()
{
    static const Choices<bool> choices{{"reno", false}, {"dctcp", true}};
    return choices;
}

const Choices<std::string>&
SchedulerChoices()
{
    static const Choices<std::string> choices{{"calendar", "ns3::CalendarScheduler"},
                                              {"heap", "ns3::HeapScheduler"},
                                              {"map", "ns3::MapScheduler"},
                                              {"priority-queue", "ns3::PriorityQueueScheduler"}};
    return choices;
}

const Choices<FaultAction>&
FaultActionChoices()
{
    static const Choices<FaultAction> choices{{"link_down", FaultAction::LinkDown},
                                              {"link_up", FaultAction::LinkUp},
                                              {"node_crash", FaultAction::NodeCrash},
                                              {"node_recover", FaultAction::NodeRecover},
                                              {"loss_rate", FaultAction::LossRate}};
    return choices;
}

const Choices<ProgressMode>&
ProgressModeChoices()
{
    static const Choices<ProgressMode> choices{{"auto", ProgressMode::Auto},
                                               {"always", ProgressMode::Always},
                                               {"never", ProgressMode::Never}};
    return choices;
}

Spec
PrioritySpec()
{
    return Spec::Integer().Min(0).Max(7).BelowValueAt("/switch/priorities");
}

Spec
Scenario::DocumentSpec()
{
    return Spec::Object()
        .Field("name", Spec::String(), "Short name of the scenario, used in reports.", "")
        .Field("description", Spec::String(), "Free text.", "")
        .Field("seed",
               Spec::Integer().Min(0),
               "Seed of every random stream in the run.",
               1)
        .RequiredField("duration", Spec::Duration().Above(0), "Simulated time to run.")
        .RequiredField("topology", TopologySpec(), "The network: a generator or a file.")
        .Field("links", LinksSpec(), "Defaults for every link.", json::object())
        .Field("switch", SwitchSpec(), "Switch model.", json::object())
        .Field("hosts", HostsSpec(), "Host model.", json::object())
        .Field("routing", RoutingSpec(), "How routes are computed.", json::object())
        .Field("clocks", ClocksSpec(), "Host clock offsets and drift.", json::object())
        .RequiredField("protocol", ProtocolSpec(), "The protocol under test.")
        .DependentField("workload",
                        "protocol/name",
                        ProtocolWorkload,
                        "Traffic the protocol's endpoints generate.")
        .Field("background",
               BackgroundSpec(),
               "Background bulk flows over a TCP-like transport, next to any protocol.",
               json::object())
        .Field("faults",
               Spec::Array(FaultSpec()),
               "Scheduled faults, applied in time order.",
               json::array())
        .DependentField("outputs", "protocol/name", OutputsSpec, "Files the run writes.")
        .Field("simulator", SimulatorSpec(), "The discrete-event engine.", json::object());
}

uint64_t
Scenario::Seed() const
{
    return m_resolved->at("seed").get<uint64_t>();
}

int64_t
Scenario::DurationNs() const
{
    return Section("duration").AsDurationNs();
}

std::string
Scenario::ResolvePath(const std::string& path) const
{
    return path.empty() || path[0] == '/' ? path : m_baseDir + "/" + path;
}

ParamView
Scenario::Section(const std::string& name) const
{
    return ParamView(&m_resolved->at(name), m_file, "/" + name);
}

Scenario
ParseScenario(const nlohmann::json& document,
              const std::string& file,
              const std::string& baseDir,
              const std::vector<std::string>& overrides)
{
    json edited = document;
    std::vector<std::string> overridden;
    for (const auto& override : overrides)
    {
        overridden.push_back(ApplyOverride(edited, override));
    }

    Scenario scenario;
    scenario.m_file = file;
    scenario.m_baseDir = baseDir.empty() ? "." : baseDir;
    scenario.m_overridden = std::move(overridden);
    try
    {
        scenario.m_resolved =
            std::make_unique<json>(Scenario::DocumentSpec().Resolve(edited, file, ""));
    }
    catch (const InputError& error)
    {
        scenario.RethrowBlamingOverrides(error);
    }
    return scenario;
}

void
Scenario::RethrowBlamingOverrides(const InputError& error) const
{
    if (error.File() == m_file)
    {
        for (const auto& pointer : m_overridden)
        {
            if (IsWithin(error.JsonPath(), pointer))
            {
                throw InputError(kOverrideFile, error.JsonPath(), error.Message());
            }
        }
    }
    throw;
}

std::string
Scenario::Identity() const
{
    const auto fileIdentity = [this](const std::string& path, const std::string& text) {
        const std::string resolved = ResolvePath(text);
        std::ifstream in(resolved, std::ios::binary);
        if (!in)
        {
            try
            {
                throw InputError(m_file, path, "cannot read \"" + resolved + "\"");
            }
            catch (const InputError& error)
            {
                RethrowBlamingOverrides(error);
            }
        }
        std::ostringstream bytes;
        bytes << in.rdbuf();
        return json{{"file_fnv1a", fmt::format("{:016x}", Fnv1a(bytes.str()))}};
    };
    const json canonical = DocumentSpec().Canonical(*m_resolved, fileIdentity);
    return fmt::format("{:016x}", Fnv1a(canonical.dump()));
}

Scenario
LoadScenario(const std::string& path, const std::vector<std::string>& overrides)
{
    json document = ReadJsonFile(path);
    std::string baseDir = std::filesystem::path(path).parent_path().string();
    return ParseScenario(document, path, baseDir.empty() ? "." : baseDir, overrides);
}

Scenario
LoadRunScenario(const std::string& runDir)
{
    return LoadScenario(runDir + "/scenario.resolved.json");
}

std::string
ScenarioReferenceMarkdown()
{
    return Scenario::DocumentSpec().Markdown("Reference");
}

} // namespace incsim
