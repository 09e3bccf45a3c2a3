#include "protocols/gotthard/gotthard-protocol.h"

#include "protocols/gotthard/gotthard-checker.h"
#include "protocols/txn/kv-workload.h"
#include "protocols/txn/tpcc-workload.h"
#include "protocols/txn/txn-history.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/world.h"
#include "sim/schema/time-window.h"
#include "sim/host/host-node.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"
#include "sim/trace/trace-outputs.h"

#include <fmt/format.h>

#include <set>
#include <utility>

namespace incsim::gotthard
{

namespace
{
/// gotthard.p4's MODE_* constants, by the scenario's names (/protocol/params/mode).
const Choices<uint64_t>&
ModeChoices()
{
    static const Choices<uint64_t> choices{{"gotthard", contract::MODE_GOTTHARD},
                                           {"read-cache", contract::MODE_READ_CACHE},
                                           {"forward", contract::MODE_FORWARD},
                                           {"broken-ok-writes", contract::MODE_BROKEN_OK_WRITES}};
    return choices;
}

enum class WorkloadKind
{
    Counter,
    Zipf,
    Locality,
    Tpcc
};

const Choices<WorkloadKind>&
WorkloadKindChoices()
{
    static const Choices<WorkloadKind> choices{{"counter", WorkloadKind::Counter},
                                               {"zipf", WorkloadKind::Zipf},
                                               {"locality", WorkloadKind::Locality},
                                               {"tpcc", WorkloadKind::Tpcc}};
    return choices;
}

/// The microbenchmark workload of `kind`; the locality workload needs exactly two groups.
std::unique_ptr<txn::Workload>
MakeMicroWorkload(const ParamView& workload, WorkloadKind kind, std::vector<uint32_t> groupOf)
{
    txn::KvWorkload::Config config;
    config.writes = workload.Number("writes");
    config.keys = kind == WorkloadKind::Counter ? 1 : static_cast<uint64_t>(workload.Int("keys"));
    config.distribution = txn::KvWorkload::Distribution::Zipf;
    config.theta = workload.Number("zipf");
    config.locality = kind == WorkloadKind::Locality;
    config.localFraction = workload.Number("locality");
    if (config.locality)
    {
        std::set<int> groups;  // ordered as topology groups, which may be negative
        for (uint32_t group : groupOf)
        {
            groups.insert(static_cast<int>(group));
        }
        if (groups.size() != 2)
        {
            workload.Fail("kind", fmt::format("the locality workload needs clients at exactly "
                                              "two sites (topology groups); they are at {}",
                                              groups.size()));
        }
        if (config.keys < 2)
        {
            workload.Fail("keys", "the locality workload splits the keys in two: at least 2");
        }
        const int first = *groups.begin();
        for (uint32_t& group : groupOf)
        {
            group = static_cast<int>(group) == first ? 0 : 1;
        }
    }
    return std::make_unique<txn::KvWorkload>(config, std::move(groupOf));
}

constexpr uint64_t kCacheMax = contract::GOTTHARD_CACHE_MAX;
static_assert(contract::MyIngress::cache_key::kSize == kCacheMax);
constexpr uint16_t kClientPort = 0x1000;
} // namespace

Spec
GotthardProtocol::ParamsSpec()
{
    return Spec::Object()
        .Field("mode", Spec::Enum(ModeChoices()),
               "what the Gotthard switches do: optimistic abort, the on-path read cache "
               "baseline, plain forwarding, or (the checker's negative control) answer OK to "
               "writes without the store",
               "gotthard")
        .RequiredField("store", Spec::String(), "the host that runs the store; the other hosts "
                                                "are clients")
        .RequiredField("switches", Spec::Array(Spec::String()).MinItems(1),
                       "the switches that run p4/gotthard.p4 (the others run forward.p4)")
        .Field("cache_slots", Spec::Integer().Min(1).Max(static_cast<int64_t>(kCacheMax)),
               "entries of each switch's cache (a register array indexed by a hash of the key)",
               static_cast<int64_t>(kCacheMax))
        .Field("request_timeout", Spec::Duration().Min(1),
               "a client sends its request again (as a retransmission) after this long "
               "without an answer",
               "1s")
        .Field("think_time", Spec::Duration(),
               "a client's pause between a commit and its next transaction", "0ns");
}

Spec
GotthardProtocol::WorkloadSpec()
{
    return Spec::Object()
        .Field("kind", Spec::Enum(WorkloadKindChoices()),
               "counter: one key (the paper's microbenchmark); zipf: `keys` keys with Zipf "
               "popularity; locality: the keys split between the two client sites, with "
               "`locality` of each site's clients on their own half; tpcc: TPC-C Payment and "
               "Order-Status on key/value records at the paper's reduced scale (docs/txn.md says "
               "what is modelled)",
               "counter")
        .Field("writes", Spec::Number().Min(0).Max(1),
               "fraction of transactions that assert-and-increment (the others read)", 0.2)
        .Field("keys", Spec::Integer().Min(1).Max(1 << 30), "zipf and locality: number of keys",
               10)
        .Field("zipf", Spec::Number().Min(0).Max(10),
               "zipf and locality: Zipf exponent of key popularity (0: uniform)", 0)
        .Field("locality", Spec::Number().Min(0).Max(1),
               "locality: share of each site's clients that use their own site's keys", 1.0)
        .Field("payment", Spec::Number().Min(0).Max(1),
               "tpcc: share of Payment transactions, the rest Order-Status (default TPC-C's "
               "43 : 4)",
               43.0 / 47.0)
        .Field("districts", Spec::Integer().Min(1).Max(10), "tpcc: districts of the warehouse",
               2)
        .Field("customers", Spec::Integer().Min(1).Max(3000), "tpcc: customers per district",
               10)
        .Field("start", Spec::Duration(), "when clients begin", "0ns")
        .OptionalField("stop", Spec::Duration(),
                       "when clients stop starting transactions (default: the end of the run)");
}

void
GotthardProtocol::Install(World& world, const ParamView& params, const ParamView& workload)
{
    m_world = &world;
    const Topology& topology = world.GetTopology();
    const std::string& storeName = params.String("store");
    const std::optional<uint32_t> storeNode = topology.FindNode(storeName);
    if (!storeNode || topology.Node(*storeNode).kind != NodeKind::Host)
    {
        params.Get("store").Fail("", fmt::format("\"{}\" is not a host of the topology",
                                                 storeName));
    }
    const uint32_t storeHost = topology.HostIndex(*storeNode);

    std::set<uint32_t> gotthardSwitches;
    const ParamView switches = params.Get("switches");
    for (size_t i = 0; i < switches.Size(); ++i)
    {
        const std::string& name = switches.At(i).AsString();
        const std::optional<uint32_t> node = topology.FindNode(name);
        if (!node || topology.Node(*node).kind != NodeKind::Switch)
        {
            switches.Fail(std::to_string(i),
                          fmt::format("\"{}\" is not a switch of the topology", name));
        }
        gotthardSwitches.insert(*node);
    }

    const uint64_t mode = params.Choice("mode", ModeChoices());
    const uint64_t slots = static_cast<uint64_t>(params.Int("cache_slots"));
    const World::PipelineFactory gotthardFactory = world.ProgramPipelineFactory(
        contract::kProgram, params.Path() + "/switches",
        [this, mode, slots](P4Pipeline& pipeline, SwitchDevice&) {
            using configure = contract::MyIngress::configure;
            pipeline.Control().SetDefaultAction(
                contract::MyIngress::gotthard_config::kName, configure::kName,
                {{configure::mode::kName, p4rt::BitString(mode)},
                 {configure::cache_slots::kName, p4rt::BitString(slots)}});
            m_pipelines.push_back(&pipeline);
        });
    const World::PipelineFactory plain = world.DefaultPipelineFactory();
    world.SetPipelineFactory([gotthardSwitches, gotthardFactory, plain](SwitchDevice& device) {
        return gotthardSwitches.count(device.NodeId()) ? gotthardFactory(device) : plain(device);
    });

    // Clients: every other host, in host order; their group is their site (topology group).
    std::vector<uint32_t> clientHosts;
    std::vector<uint32_t> groupOf;
    for (uint32_t h = 0; h < world.NumHosts(); ++h)
    {
        if (h != storeHost)
        {
            clientHosts.push_back(h);
            groupOf.push_back(static_cast<uint32_t>(topology.Node(topology.Hosts()[h]).group));
        }
    }
    if (clientHosts.empty())
    {
        throw ConfigError("gotthard: the topology has no host besides the store");
    }
    if (clientHosts.size() > kMaxClients)
    {
        throw ConfigError(fmt::format("gotthard: {} clients, but transaction ids have room for "
                                      "{} (the client's share of the 64-bit txn_id)",
                                      clientHosts.size(), kMaxClients));
    }

    const WorkloadKind kind = workload.Choice("kind", WorkloadKindChoices());
    if (kind == WorkloadKind::Tpcc)
    {
        txn::TpccWorkload::Config config = txn::TpccWorkload::GotthardScale();
        config.districts = static_cast<uint32_t>(workload.Int("districts"));
        config.customers = static_cast<uint32_t>(workload.Int("customers"));
        config.payment = workload.Number("payment");
        m_workload = std::make_unique<txn::TpccWorkload>(config);
    }
    else
    {
        m_workload = MakeMicroWorkload(workload, kind, std::move(groupOf));
    }
    m_stats.kinds.resize(m_workload->KindNames().size());

    ClientConfig client;
    client.storeHost = storeHost;
    client.timeoutPs = params.DurationNs("request_timeout") * kPsPerNs;
    client.thinkPs = params.DurationNs("think_time") * kPsPerNs;
    const TimeWindow window = ReadTimeWindow(workload, world.DurationPs(), "clients");
    client.startPs = window.startPs;
    client.stopPs = window.stopPs;
    m_activePs = window.ActivePs();

    CsvWriter* storeLog = world.Traces().Open(txn::ServerLogTrace());
    CsvWriter* clientLog = world.Traces().Open(txn::ClientHistoryTrace());

    m_store = ns3::CreateObject<GotthardStore>();
    world.Host(storeHost).Bind(kStorePort, m_store);
    m_store->Configure(storeLog, storeHost);
    for (size_t c = 0; c < clientHosts.size(); ++c)
    {
        auto endpoint = ns3::CreateObject<GotthardClient>();
        world.Host(clientHosts[c]).Bind(kClientPort, endpoint);
        endpoint->Configure(static_cast<uint32_t>(c), client, m_workload.get(),
                            world.MakeRng("gotthard-client", c), &m_stats, clientLog);
        endpoint->Start();
        m_clients.push_back(endpoint);
    }
}

void
GotthardProtocol::CollectMetrics(nlohmann::json& metrics) const
{
    const double seconds = static_cast<double>(m_activePs) * 1e-12;
    uint64_t switchAborts = 0;
    uint64_t switchOks = 0;
    for (P4Pipeline* pipeline : m_pipelines)
    {
        const p4rt::CounterArray& events =
            pipeline->Control().GetCounter(contract::MyIngress::gotthard_events::kName);
        switchAborts += events.Packets(contract::EVENT_SWITCH_ABORT);
        switchOks += events.Packets(contract::EVENT_SWITCH_OK);
    }
    uint64_t committed = 0;
    uint64_t afterStop = 0;
    std::vector<int64_t> latenciesPs;
    for (const KindStats& kind : m_stats.kinds)
    {
        committed += kind.committed;
        afterStop += kind.committedAfterStop;
        latenciesPs.insert(latenciesPs.end(), kind.latenciesPs.begin(), kind.latenciesPs.end());
    }
    const GotthardStore::Counters& store = m_store->GetCounters();
    metrics = {{"clients", m_clients.size()},
               {"committed", committed},
               {"committed_writes", m_stats.committedWrites},
               {"committed_after_stop", afterStop},
               {"throughput_txn_per_s", seconds > 0 ? (committed - afterStop) / seconds : 0.0},
               {"attempts", m_stats.attempts},
               {"switch_aborts", m_stats.switchAborts},
               {"store_aborts", m_stats.storeAborts},
               {"switch_answers", m_stats.switchAnswers},
               {"timeouts", m_stats.timeouts},
               {"switch_answers_ignored", m_stats.switchAnswersIgnored},
               {"abandoned", m_stats.abandoned},
               {"store_commits", store.commits},
               {"store_aborted", store.aborts},
               {"store_duplicates", store.duplicates},
               {"store_stale", store.stale},
               {"switch_abort_packets", switchAborts},
               {"switch_ok_packets", switchOks}};
    metrics["store_keys"] = m_store->Values().size();
    metrics["store_digest"] = txn::StateDigest(
        std::map<uint64_t, uint64_t>(m_store->Values().begin(), m_store->Values().end()));
    const std::vector<std::string>& names = m_workload->KindNames();
    for (size_t k = 0; k < names.size(); ++k)
    {
        const KindStats& kind = m_stats.kinds[k];
        nlohmann::json& entry = metrics["kinds"][names[k]];
        entry = {{"committed", kind.committed},
                 {"throughput_txn_per_s",
                  seconds > 0 ? (kind.committed - kind.committedAfterStop) / seconds : 0.0}};
        AddLatencyMetrics(entry, kind.latenciesPs, {50, 99});
    }
    // Enough percentiles for the latency CDF of the paper's Fig. 9.
    AddLatencyMetrics(metrics, std::move(latenciesPs),
                      {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99});
}

void
RegisterGotthardProtocol()
{
    Protocols().Add("gotthard",
                    ProtocolInfo{"Gotthard optimistic abort for geo-distributed OCC "
                                 "transactions (USI TR 2016-05), with its forward and "
                                 "read-cache baselines",
                                 &GotthardProtocol::ParamsSpec,
                                 &GotthardProtocol::WorkloadSpec,
                                 [] { return std::make_unique<GotthardProtocol>(); },
                                 txn::HistoryTraces(),
                                 &CheckRun});
}

} // namespace incsim::gotthard
