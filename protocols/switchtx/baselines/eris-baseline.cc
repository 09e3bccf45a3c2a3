#include "protocols/switchtx/baselines/eris-baseline.h"

#include "protocols/txn/txn-history.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/net/frame.h"
#include "sim/net/headers.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/world.h"
#include "sim/trace/trace-outputs.h"

#include <fmt/format.h>

namespace incsim::switchtx::eris
{

namespace
{
/// A reply with every operation's result must fit in one frame.
constexpr uint32_t kMaxOps =
    (Frame::kCapacity - kUdpFrameOverhead - ReplyMessage::kFixedBytes) / ReplyMessage::kResultBytes;
static_assert(MaxMessageBytes(kMaxOps) + kUdpFrameOverhead <= Frame::kCapacity);
} // namespace

void
ErisBaseline::AddParams(Spec& spec)
{
    spec.Field("gap_timeout", Spec::Duration().Min(1),
               "eris, eris-server: a shard replica that has a later stamp but not the next one "
               "this long asks the failure coordinator whether that transaction exists "
               "(switchtx-spec [D] 12)",
               "20us")
        .OptionalField("sequencer_server", Spec::String(),
                       "eris, eris-server: the host of the failure coordinator and, in "
                       "eris-server, of the single-thread software sequencer (default: the "
                       "first host)")
        .Field("cpu_eris_execute", Spec::Duration(),
               "CPU time per message: an Eris shard replica executes its part of a sequenced "
               "transaction; one message's work, as every other function but cpu_execute "
               "(docs/switchtx.md, Calibration)",
               "950ns")
        .Field("cpu_sequencer", Spec::Duration(),
               "eris-server: CPU time of the software sequencer per transaction (all its "
               "stamps and copies); 3.4 us caps it near §5.4's 0.29 Mops",
               "3.4us");
}

void
ErisBaseline::Install(World& world, const ParamView& params, const ParamView& workloadParams,
                      bool softwareSequencer, const TimeWindow& window,
                      const txn::Workload* workload)
{
    if (workloadParams.String("kind") != "ycsbt")
    {
        workloadParams.Fail("kind", "Eris runs independent transactions only: it needs "
                                    "transaction chopping for TPC-C (SwitchTx §5.1), so it runs "
                                    "YCSB-T");
    }
    if (workloadParams.Int("ops") > kMaxOps)
    {
        workloadParams.Fail("ops", fmt::format("Eris replies carry every operation's result in "
                                               "one packet: at most {} operations",
                                               kMaxOps));
    }
    const Topology& topology = world.GetTopology();
    const auto hosts = static_cast<uint32_t>(world.NumHosts());
    ErisConfig config;
    config.softwareSequencer = softwareSequencer;
    config.threads = static_cast<uint32_t>(params.Int("threads"));
    config.mpl = static_cast<uint32_t>(params.Int("mpl"));
    config.replication = static_cast<uint32_t>(params.Int("replication"));
    config.timeoutPs = params.DurationNs("timeout") * kPsPerNs;
    config.gapTimeoutPs = params.DurationNs("gap_timeout") * kPsPerNs;
    config.startPs = window.startPs;
    config.stopPs = window.stopPs;
    const auto cost = [&params](const char* key) { return params.DurationNs(key) * kPsPerNs; };
    config.costPs[static_cast<size_t>(ErisFunction::Begin)] = cost("cpu_execute");
    config.costPs[static_cast<size_t>(ErisFunction::Execute)] = cost("cpu_eris_execute");
    config.costPs[static_cast<size_t>(ErisFunction::Reply)] = cost("cpu_reply");
    config.costPs[static_cast<size_t>(ErisFunction::Gap)] = cost("cpu_abort");
    config.costPs[static_cast<size_t>(ErisFunction::Sequence)] = cost("cpu_sequencer");

    const uint64_t shards = uint64_t{hosts} * config.threads;
    if (shards > kMaxShards)
    {
        params.Fail("threads",
                    fmt::format("Eris has one shard per thread: {} servers x {} threads = {} "
                                "shards, but its header carries at most {} stamps (the switch "
                                "parses 40 sequence numbers, SwitchTx §5.2.1)",
                                hosts, config.threads, shards, kMaxShards));
    }
    if (config.replication > hosts)
    {
        params.Fail("replication",
                    fmt::format("{} replicas per shard, but the topology has {} hosts to hold "
                                "them (one server per host)",
                                config.replication, hosts));
    }
    if (hosts < 2)
    {
        throw ConfigError("switchtx: Eris needs at least 2 hosts");
    }
    if (params.Bool("reorder"))
    {
        params.Fail("reorder", "+Reorder sorts SwitchTx's phase messages; Eris has none");
    }
    if (params.Has("sequencer_server"))
    {
        const std::string& name = params.String("sequencer_server");
        const std::optional<uint32_t> node = topology.FindNode(name);
        if (!node || topology.Node(*node).kind != NodeKind::Host)
        {
            params.Fail("sequencer_server", fmt::format("\"{}\" is not a host of the topology",
                                                        name));
        }
        config.coordinatorHost = topology.HostIndex(*node);
    }
    m_activePs = window.ActivePs();

    m_cluster = std::make_unique<ErisCluster>(world, config, workload,
                                              world.Traces().Open(txn::ClientHistoryTrace()),
                                              world.Traces().Open(txn::ServerLogTrace()));
    if (softwareSequencer)
    {
        // The emulated switch (§5.4) is a server: the switches only forward.
        world.SetPipelineFactory(world.DefaultPipelineFactory());
    }
    else
    {
        ErisCluster* cluster = m_cluster.get();
        world.SetPipelineFactory(world.ProgramPipelineFactory(
            contract::kProgram, params.Path(),
            [cluster](P4Pipeline& pipeline, SwitchDevice& device) {
                cluster->ConfigureSwitch(pipeline, device);
            }));
    }
    m_cluster->Start();
}

void
ErisBaseline::CollectMetrics(nlohmann::json& metrics) const
{
    m_cluster->Finish();
    const ErisStats& stats = m_cluster->Stats();
    const ErisConfig& config = m_cluster->Config();
    const double seconds = static_cast<double>(m_activePs) * 1e-12;
    metrics = {{"servers", m_cluster->Hosts()},
               {"threads", config.threads},
               {"shards", m_cluster->Shards()},
               {"attempts", stats.attempts},
               {"committed", stats.committed},
               {"committed_after_stop", stats.committedAfterStop},
               {"throughput_txn_per_s",
                seconds > 0 ? (stats.committed - stats.committedAfterStop) / seconds : 0.0},
               {"client_retransmits", stats.retransmits},
               {"gap_timeouts", stats.gapTimeouts},
               {"gaps_found", stats.gapsFound},
               {"noops", stats.noops},
               {"noop_copies_dropped", stats.droppedNoop},
               {"duplicates", stats.duplicates}};
    if (config.softwareSequencer)
    {
        metrics["sequenced"] = stats.sequenced;
    }
    AddLatencyMetrics(metrics, stats.latenciesPs, {50, 99});
    static constexpr const char* kFunctionNames[] = {"execute", "eris_execute", "reply", "gap",
                                                     "sequence"};
    static_assert(std::size(kFunctionNames) == kErisFunctions);
    for (size_t f = 0; f < kErisFunctions; ++f)
    {
        metrics["cpu_ns_by_function"][kFunctionNames[f]] = static_cast<double>(stats.cpuPs[f]) / 1e3;
        metrics["jobs_by_function"][kFunctionNames[f]] = stats.jobs[f];
    }
    // Every replica's final state, for the checker (history and replicas agree).
    nlohmann::json& replicas = metrics["replicas"];
    replicas = nlohmann::json::array();
    for (uint32_t shard = 0; shard < m_cluster->Shards(); ++shard)
    {
        for (uint32_t r = 0; r < config.replication; ++r)
        {
            const std::map<uint64_t, uint64_t> state = m_cluster->Replica(shard, r).WrittenState();
            replicas.push_back({{"shard", shard},
                                {"replica", r},
                                {"keys", state.size()},
                                {"digest", txn::StateDigest(state)},
                                {"locked", m_cluster->Replica(shard, r).LockedKeys()}});
        }
    }
}

} // namespace incsim::switchtx::eris
