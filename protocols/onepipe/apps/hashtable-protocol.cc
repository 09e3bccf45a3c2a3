#include "protocols/onepipe/apps/hashtable-protocol.h"

#include "protocols/onepipe/apps/app-setup.h"
#include "protocols/onepipe/apps/app-window.h"

#include "protocols/onepipe/onepipe-traces.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

#include <algorithm>

namespace incsim::onepipe::apps
{

namespace
{
const Choices<HashTableSystem>&
SystemChoices()
{
    static const Choices<HashTableSystem> choices{{"1pipe", HashTableSystem::OnePipe},
                                                  {"baseline", HashTableSystem::Baseline}};
    return choices;
}

/// /protocol/params/placement: true when interleaved.
const Choices<bool>&
PlacementChoices()
{
    static const Choices<bool> choices{{"clients-first", false}, {"interleaved", true}};
    return choices;
}

/// /protocol/params/lookups: true when every replica serves lookups.
const Choices<bool>&
LookupChoices()
{
    static const Choices<bool> choices{{"all-replicas", true}, {"leader", false}};
    return choices;
}
} // namespace

Spec
HashTableProtocol::ParamsSpec()
{
    Spec spec = OnePipeProtocol::ParamsSpec();
    spec.Field("system", Spec::Enum(SystemChoices()),
               "1pipe: an insert writes its entry and CASes its bucket in one scattering to "
               "every replica, no fence (ordering \"total\"); baseline: write, wait for it, "
               "then CAS, at the leader, whose CPU replicates to the followers (ordering "
               "\"none\", no loss)",
               "1pipe")
        .Field("fence", Spec::Bool(),
               "baseline: wait for the entry write before the CAS; false is the negative "
               "control (lookups can follow a pointer to an entry not written yet)",
               true)
        .OptionalField("lookups", Spec::Enum(LookupChoices()),
                       "which replicas serve lookups (default: all-replicas for 1pipe, leader "
                       "for the baseline)")
        .Field("clients", Spec::Integer().Min(1).Max(65535),
               "client processes (see placement)", 16)
        .Field("placement", Spec::Enum(PlacementChoices()),
               "clients-first: processes 0..clients-1 are the clients, the servers follow; "
               "interleaved: clients and servers alternate over the process ids (some "
               "clients next to some servers, so paths differ in length)",
               "clients-first")
        .Field("shards", Spec::Integer().Min(1).Max(65535), "shards of the table", 16)
        .Field("replicas", Spec::Integer().Min(1).Max(16),
               "replicas of each shard, on distinct processes (the first is the baseline's "
               "leader)",
               1)
        .Field("buckets_per_shard", Spec::Integer().Min(1).Max(int64_t{1} << 24),
               "hash buckets (linked lists) per shard", 65536)
        .Field("nic_op_cost", Spec::Duration(),
               "a server NIC's time per one-sided operation it serves (the server's CPU is "
               "not involved)",
               "50ns")
        .Field("replicate_cost", Spec::Duration(),
               "baseline with replicas: the leader CPU's time to ship one applied write to "
               "its followers",
               "1us");
    return spec;
}

Spec
HashTableProtocol::WorkloadSpec()
{
    Spec spec = Spec::Object();
    spec.Field("insert_share", Spec::Number().Min(0).Max(1),
               "probability that an operation inserts a new key (otherwise it looks one up)",
               0.5)
        .Field("preload", Spec::Integer().Min(0).Max(int64_t{1} << 24),
               "keys in the table before the run, on every replica (lookups draw half of "
               "their keys from them, the other half from the latest completed inserts)",
               4096)
        .Field("value_size", Spec::Size().Min(0).Max(1024 * 1024), "bytes of a value", "64B")
        .Field("window", Spec::Integer().Min(1).Max(1024),
               "operations each client keeps in flight (closed loop)", 8);
    AddAppWindowFields(spec, "clients", "operations", "throughput and latency");
    return spec;
}

void
HashTableProtocol::Install(World& world, const ParamView& params, const ParamView& workload)
{
    m_shared = std::make_unique<HashTableShared>();
    HashTableConfig& config = m_shared->config;
    config.system = params.Choice("system", SystemChoices());
    const bool onePipe = config.system == HashTableSystem::OnePipe;
    config.reliable = params.Choice("service", ServiceChoices()) == Service::Reliable;
    if (onePipe)
    {
        if (params.String("ordering") != "total")
        {
            params.Fail("ordering", fmt::format("system \"1pipe\" orders operations by 1Pipe's "
                                                "timestamps: it needs ordering \"total\", not "
                                                "\"{}\"",
                                                params.String("ordering")));
        }
        if (!config.reliable && world.GetScenario().Section("links").Number("loss") > 0)
        {
            throw InputError(world.GetScenario().File(), "/links/loss",
                             "system \"1pipe\" on best-effort 1Pipe does not recover lost "
                             "operations: set the loss to 0 or service \"reliable\"");
        }
    }
    else
    {
        CheckAppTransport(world.GetScenario(), params, false, params.String("system"));
    }
    config.fence = params.Bool("fence");
    if (!config.fence && onePipe)
    {
        params.Fail("fence", "system \"1pipe\" has no fence to remove: fence false is the "
                             "baseline's negative control");
    }
    config.interleaved = params.Choice("placement", PlacementChoices());
    config.readAllReplicas = params.Has("lookups") ? params.Choice("lookups", LookupChoices())
                                                   : onePipe;
    config.clients = static_cast<uint32_t>(params.Int("clients"));
    config.shards = static_cast<uint32_t>(params.Int("shards"));
    config.replicas = static_cast<uint32_t>(params.Int("replicas"));
    config.bucketsPerShard = static_cast<uint64_t>(params.Int("buckets_per_shard"));
    config.nicOpPs = params.DurationNs("nic_op_cost") * kPsPerNs;
    config.replicatePs = params.DurationNs("replicate_cost") * kPsPerNs;
    const unsigned processes = AppProcesses(world, params);
    const unsigned needed = config.clients + config.shards * config.replicas;
    if (processes < needed)
    {
        params.Fail("replicas",
                    fmt::format("{} clients + {} shards x {} replicas need {} processes; the "
                                "run has {} (process_hosts x processes_per_host)",
                                config.clients, config.shards, config.replicas, needed,
                                processes));
    }
    OnePipeProtocol::Install(world, params, workload);
}

void
HashTableProtocol::ReadWorkload(World& world, const ParamView& workload)
{
    HashTableConfig& config = m_shared->config;
    config.insertShare = workload.Number("insert_share");
    config.preload = static_cast<uint64_t>(workload.Int("preload"));
    if (config.insertShare < 1 && config.preload == 0)
    {
        workload.Fail("preload", "lookups need keys to look up before the first insert "
                                 "completes: preload at least 1 key, or insert_share 1");
    }
    config.valueBytes = static_cast<uint32_t>(workload.SizeBytes("value_size"));
    config.window = static_cast<uint32_t>(workload.Int("window"));
    config.measurement = ReadAppWindow(workload, world.DurationPs(), "clients");
    SetWorkloadWindow(config.measurement.MeasuredPs(), 0);
}

void
HashTableProtocol::AttachApplication(World& world, OnePipeEndpoint& process, uint32_t id,
                                     uint32_t /*processes*/)
{
    HashTableConfig& config = m_shared->config;
    const uint32_t servers = config.shards * config.replicas;
    // The first 2k ids alternate client, server; then the remaining clients, then servers.
    const uint32_t k = config.interleaved ? std::min(config.clients, servers) : 0;
    bool client = false;
    uint32_t index = 0;
    if (id < 2 * k)
    {
        client = id % 2 == 0;
        index = id / 2;
    }
    else if (id - 2 * k < config.clients - k)
    {
        client = true;
        index = id - k;
    }
    else
    {
        index = id - config.clients;
    }
    if (!client && index >= servers)
    {
        return; // a process beyond the table's: idle
    }
    if (client)
    {
        m_shared->clientProcess.push_back(id);
    }
    else
    {
        m_shared->serverProcess.resize(servers, 0);
        m_shared->serverProcess[index] = id;
    }
    m_apps.push_back(std::make_unique<HashTableApp>(process, id, client, index, *m_shared,
                                                    world.MakeRng("onepipe_hashtable", id)));
    m_shared->apps.resize(std::max<size_t>(m_shared->apps.size(), id + 1), nullptr);
    m_shared->apps[id] = m_apps.back().get();
}

void
HashTableProtocol::Preload()
{
    const HashTableConfig& config = m_shared->config;
    const uint64_t buckets = uint64_t{config.shards} * config.bucketsPerShard;
    std::vector<uint64_t> heads(buckets, 0);
    for (uint64_t i = 1; i <= config.preload; ++i)
    {
        const uint64_t key = (uint64_t{config.clients + 1} << 40) | i;
        const uint64_t bucket = HtBucketOf(key, buckets);
        const uint32_t entryShard = HtEntryShardOf(key, config.shards);
        const uint64_t pointer = HtPointer(entryShard, config.clients, i);
        for (uint32_t r = 0; r < config.replicas; ++r)
        {
            m_shared->apps[m_shared->Server(entryShard, r)]->PreloadEntry(
                pointer, HashTableApp::Entry{key, heads[bucket]});
            m_shared->apps[m_shared->Server(static_cast<uint32_t>(bucket % config.shards), r)]
                ->PreloadHead(bucket, pointer);
        }
        heads[bucket] = pointer;
    }
}

void
HashTableProtocol::StartApplications()
{
    Preload();
    AppProtocol::StartApplications();
}

void
HashTableProtocol::CheckReplicas(uint64_t& mismatchedShards, uint64_t& lostInserts) const
{
    const HashTableConfig& config = m_shared->config;
    const auto& apps = m_shared->apps;
    mismatchedShards = 0;
    for (uint32_t s = 0; s < config.shards; ++s)
    {
        const HashTableApp& first = *apps[m_shared->Server(s, 0)];
        for (uint32_t r = 1; r < config.replicas; ++r)
        {
            const HashTableApp& other = *apps[m_shared->Server(s, r)];
            if (other.Heads() != first.Heads() || other.Entries() != first.Entries())
            {
                ++mismatchedShards;
                break;
            }
        }
    }
    // Every completed insert is reachable from its bucket on every replica.
    lostInserts = 0;
    const uint64_t buckets = uint64_t{config.shards} * config.bucketsPerShard;
    for (const auto& [key, completedPs] : m_shared->completed)
    {
        const uint64_t bucket = HtBucketOf(key, buckets);
        for (uint32_t r = 0; r < config.replicas; ++r)
        {
            uint64_t pointer = apps[m_shared->Server(static_cast<uint32_t>(bucket % config.shards),
                                                     r)]->Heads()[bucket / config.shards];
            bool found = false;
            while (pointer != 0 && !found)
            {
                const auto& held = apps[m_shared->Server(HtShardOfPointer(pointer), r)]->Entries();
                const auto it = held.find(pointer);
                if (it == held.end())
                {
                    break;
                }
                found = it->second.key == key;
                pointer = it->second.next;
            }
            lostInserts += found ? 0 : 1;
        }
    }
}

void
HashTableProtocol::CollectMetrics(nlohmann::json& metrics) const
{
    OnePipeProtocol::CollectMetrics(metrics);
    const HashTableShared::Results& r = m_shared->results;
    const HashTableConfig& config = m_shared->config;
    const double seconds = m_shared->config.measurement.MeasuredPs() / 1e12;
    const double perClient = seconds > 0 ? 1.0 / seconds / config.clients : 0.0;
    uint64_t mismatched = 0;
    uint64_t lost = 0;
    CheckReplicas(mismatched, lost);
    uint64_t unfinished = 0;
    for (const auto& app : m_apps)
    {
        unfinished += app->InFlight();
    }
    nlohmann::json insert = {{"operations", r.inserts},
                             {"per_client_ops_per_s", double(r.inserts) * perClient},
                             {"cas_retries", r.casRetries}};
    AddLatencyMetrics(insert, r.insertLatencyPs, {50, 95});
    nlohmann::json lookup = {{"operations", r.lookups},
                             {"found", r.found},
                             {"per_client_ops_per_s", double(r.lookups) * perClient}};
    AddLatencyMetrics(lookup, r.lookupLatencyPs, {50, 95});
    metrics["hashtable"] = {
        {"system", std::string(SystemChoices()[static_cast<size_t>(config.system)].first)},
        {"replicas", config.replicas},
        {"insert", insert},
        {"lookup", lookup},
        {"send_failures", r.sendFailures},
        {"unfinished_operations", unfinished},
        {"checks",
         {{"completed_inserts", m_shared->completed.size()},
          {"checked_lookups", r.checkedLookups},
          {"stale_lookups", r.staleLookups},
          {"torn_reads", r.tornReads},
          {"replica_disagreements", r.replicaDisagreements},
          {"mismatched_shards", mismatched},
          {"lost_inserts", lost}}}};
}

void
RegisterHashTableProtocol()
{
    Protocols().Add("onepipe_hashtable",
                    ProtocolInfo{"1Pipe's replicated remote hash table with one-sided "
                                 "operations (SIGCOMM 2021, 7.3.3, Fig. 16) and its "
                                 "fence-and-leader baseline",
                                 &HashTableProtocol::ParamsSpec,
                                 &HashTableProtocol::WorkloadSpec,
                                 [] { return std::make_unique<HashTableProtocol>(); },
                                 OnePipeTraces()});
}

} // namespace incsim::onepipe::apps
