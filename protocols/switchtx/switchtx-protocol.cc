#include "protocols/switchtx/switchtx-protocol.h"

#include "protocols/switchtx/admission-control.h"
#include "protocols/switchtx/gas-delivery-trace.h"
#include "protocols/switchtx/in-switch-gas.h"
#include "protocols/switchtx/switchtx-checker.h"
#include "protocols/txn/txn-history.h"
#include "protocols/txn/workload-spec.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/schema/time-window.h"
#include "sim/trace/trace-outputs.h"

#include <fmt/format.h>

namespace incsim::switchtx
{

namespace
{
const Choices<Mode>&
ModeChoices()
{
    static const Choices<Mode> choices{{"fasst", Mode::Fasst},
                                       {"in-server", Mode::InServer},
                                       {"switch", Mode::InSwitch},
                                       {"eris", Mode::Eris},
                                       {"eris-server", Mode::ErisServer}};
    return choices;
}

const Choices<GasScope>&
ScopeChoices()
{
    static const Choices<GasScope> choices{{"tree", GasScope::Tree}, {"root", GasScope::Root}};
    return choices;
}

const Choices<uint8_t>&
SwitchModeChoices()
{
    static const Choices<uint8_t> choices{
        {"normal", contract::MODE_NORMAL},
        {"broken-early-scatter", contract::MODE_EARLY_SCATTER},
        {"broken-ignore-aborted", contract::MODE_IGNORE_ABORTED}};
    return choices;
}

/// switchtx.p4's priority classes are queues 1..3 (docs/switchtx.md, "Priorities").
constexpr int64_t kQueuesNeeded = contract::CLASS_HIGH + 1;

enum class WorkloadKind
{
    Ycsbt,
    Tpcc,
    Gas
};

const Choices<WorkloadKind>&
WorkloadKindChoices()
{
    static const Choices<WorkloadKind> choices{{"ycsbt", WorkloadKind::Ycsbt},
                                               {"tpcc", WorkloadKind::Tpcc},
                                               {"gas", WorkloadKind::Gas}};
    return choices;
}

const Choices<bool>&
AdmissionChoices()
{
    static const Choices<bool> choices{{"static", false}, {"dynamic", true}};
    return choices;
}

const Choices<Fault>&
FaultChoices()
{
    static const Choices<Fault> choices{{"none", Fault::None},
                                        {"backup-skips-install", Fault::BackupSkipsInstall},
                                        {"validator-skips-check", Fault::ValidatorSkipsCheck},
                                        {"lose-first-commit-ok", Fault::LoseFirstCommitOk},
                                        {"recovery-aborts-all", Fault::RecoveryAbortsAll}};
    return choices;
}

/// Server crashes that a run can recover from (docs/switchtx.md "Failures"): a crashed
/// server does not come back, and every shard keeps a live replica. Errors name the fault.
void
CheckServerFaults(World& world, const ClusterConfig& config)
{
    const Topology& topology = world.GetTopology();
    const auto hosts = static_cast<uint32_t>(world.NumHosts());
    const ParamView faults = world.GetScenario().Section("faults");
    std::vector<bool> crashed(hosts, false);
    for (size_t i = 0; i < faults.Size(); ++i)
    {
        const ParamView fault = faults.At(i);
        const std::optional<uint32_t> node =
            fault.Has("node") ? topology.FindNode(fault.String("node")) : std::nullopt;
        if (!node || topology.Node(*node).kind != NodeKind::Host)
        {
            continue;  // a switch's failure and restart are modelled in every mode
        }
        const std::string& name = fault.String("node");
        const uint32_t host = topology.HostIndex(*node);
        if (config.mode == Mode::Eris || config.mode == Mode::ErisServer)
        {
            fault.Fail("node", fmt::format("\"{}\" is a server of the Eris baseline, whose "
                                           "recovery from a server failure (a view change of "
                                           "its replicas) is not modelled",
                                           name));
        }
        if (fault.Choice("action", FaultActionChoices()) != FaultAction::NodeCrash)
        {
            fault.Fail("node", fmt::format("\"{}\" is a switchtx server: a crashed server "
                                           "does not rejoin (as a fresh backup it would need "
                                           "a state transfer, which is not modelled); only "
                                           "switches recover",
                                           name));
        }
        crashed[host] = true;
        for (uint32_t shard = 0; shard < hosts; ++shard)
        {
            bool live = false;
            for (uint32_t r = 0; r < config.replication; ++r)
            {
                live = live || !crashed[(shard + r) % hosts];
            }
            if (!live)
            {
                fault.Fail("node",
                           fmt::format("crashing \"{}\" leaves shard {} with no live replica "
                                       "({} per shard, /protocol/params/replication): its data "
                                       "would be lost",
                                       name, shard, config.replication));
            }
        }
    }
}

/// The per-message CPU cost params, one per function (Fig. 12). The defaults are calibrated
/// once against the paper's FaSST microbenchmark (§2.2, docs/switchtx.md "Calibration"): a
/// transaction's fixed work (its logic and its keys' records) in cpu_execute, one common cost
/// for every message a thread handles. Every mode uses them.
struct CostParam
{
    Function function;
    const char* key;
    const char* doc;
    const char* defaultValue;
};
constexpr CostParam kCostParams[] = {
    {Function::Execute, "cpu_execute", "start an attempt and run its transaction logic",
     "9500ns"},
    {Function::Read, "cpu_read", "serve an execute-phase read request", "950ns"},
    {Function::Lock, "cpu_lock",
     "a lock-phase message: lock the write keys (primary), keep the write data (backup) or "
     "the read set (validator)",
     "950ns"},
    {Function::Validate, "cpu_validate", "validate reads (and version copy, validate & read)",
     "950ns"},
    {Function::CommitBackup, "cpu_commit_backup", "install the write data at a backup",
     "950ns"},
    {Function::CommitPrimary, "cpu_commit_primary", "install in place and unlock at a primary",
     "950ns"},
    {Function::Abort, "cpu_abort", "a fail, abort, fence, decision or timeout", "950ns"},
    {Function::Gather, "cpu_gather",
     "count a phase reply in software: FaSST's client, the in-server gatherer", "950ns"},
    {Function::Reply, "cpu_reply", "the client takes an answer (read reply, commit, data)",
     "950ns"},
};
static_assert(std::size(kCostParams) == kFunctions);
} // namespace

Spec
SwitchTxProtocol::ParamsSpec()
{
    Spec spec = Spec::Object();
    spec.Field("coordination", Spec::Enum(ModeChoices()),
               "who coordinates lock, validate, commit-backup and commit-primary: the client "
               "thread by RPC (fasst, FaSST's server-based coordination), a gather server's "
               "thread running Table 1 in software (in-server, Fig. 11's in-server GaS), or "
               "the switches of a coordination tree running switchtx.p4 (switch; see scope); "
               "or the Eris baseline, with no such phases: independent transactions sequenced "
               "by eris.p4 on the root switch (eris) or by one server thread (eris-server, §5.4)",
               "fasst")
        .OptionalField("scope", Spec::Enum(ScopeChoices()),
                       "switch: which switches gather and scatter: every switch of the tree "
                       "(tree, +Tree-GaS) or its root alone, at the top level, the others "
                       "relaying (root, Fig. 10's +GaS) (default: tree)")
        .OptionalField("switch_mode", Spec::Enum(SwitchModeChoices()),
                       "switch, tests only: normal, or a broken switch for the checker's "
                       "negative controls: broken-early-scatter passes each phase's first "
                       "message on at once; broken-ignore-aborted never drops a message of an "
                       "aborted transaction (default: normal)")
        .OptionalField("gather_server", Spec::String(),
                       "in-server: the host that gathers every transaction (default: each "
                       "transaction's client's own server)")
        .Field("threads", Spec::Integer().Min(1).Max(Cluster::kMaxThreads),
               "worker threads per server, each both client and participant (§5.1: 24)", 24)
        .Field("admission", Spec::Enum(AdmissionChoices()),
               "admission control: static, each thread runs mpl transactions at once (the "
               "baselines, §5.1), or dynamic (+MPL): each thread's MPL follows Listing 1 "
               "(§3.4.2), starting at 1, every mpl_epoch, up to max_mpl",
               "static")
        .Field("mpl", Spec::Integer().Min(1).Max(64),
               "static admission: transactions each thread runs at once (§5.1: 2 for YCSB-T, 1 "
               "for TPC-C); dynamic admission does not read it",
               2)
        .Field("max_mpl", Spec::Integer().Min(1).Max(64),
               "dynamic admission: Listing 1's MAXMPL (switchtx-spec [D] 14: 16); slow_start "
               "starts at its half, and a thread's MPL never exceeds it (its client slots)",
               16)
        .Field("mpl_epoch", Spec::Duration().Min(1),
               "dynamic admission: the epoch at whose end each thread updates its MPL (§3.4.2: "
               "100 ms, for runs of seconds; short simulated runs need a shorter one, e.g. "
               "200us, docs/switchtx.md \"Admission control\")",
               "100ms")
        .Field("replication", Spec::Integer().Min(1).Max(16),
               "replicas per shard: the primary on server i, backups on the next "
               "replication - 1 servers (§5.1: 2)",
               2)
        .Field("reorder", Spec::Bool(),
               "+Reorder: threads drain their queue in batches sorted by priority class "
               "(§3.4.1); otherwise in arrival order",
               false)
        .Field("timeout", Spec::Duration().Min(1),
               "a client that has no outcome this long after the lock phase began resolves "
               "the attempt (§3.5; switchtx-spec [D] 4 suggests 500 us)",
               "500us")
        .Field("rc_retransmit", Spec::Duration().Min(1),
               "the reliable data plane resends unacknowledged messages after this long "
               "(a loss followed by later messages is resent at once, on the receiver's "
               "repeated acknowledgement)",
               "100us")
        .Field("failure_detection", Spec::Duration().Min(1),
               "a server's crash is known to every live server this long after it happens "
               "(a membership service's lease, not simulated otherwise; switchtx-spec §2.6 "
               "gives none), and recovery starts then (docs/switchtx.md \"Failures\")",
               "100us")
        .Field("fault", Spec::Enum(FaultChoices()),
               "injected for tests: backup-skips-install and validator-skips-check are broken "
               "hosts, the checker's negative controls (backups acknowledge commit-backup "
               "without installing; validators accept any read); lose-first-commit-ok loses "
               "the first commit_ok each thread sends (in-server), a loss after the "
               "serialization point; recovery-aborts-all is a recovery after a server crash "
               "that ignores the coordination log and aborts every attempt it resolves",
               "none");
    for (const CostParam& cost : kCostParams)
    {
        spec.Field(cost.key, Spec::Duration(), std::string("CPU time per message: ") + cost.doc,
                   cost.defaultValue);
    }
    eris::ErisBaseline::AddParams(spec);
    return spec;
}

Spec
SwitchTxProtocol::WorkloadSpec()
{
    Spec spec = Spec::Object();
    spec.Field("kind", Spec::Enum(WorkloadKindChoices()),
               "ycsbt: YCSB-T (§5.1); tpcc: TPC-C New-Order and Payment; gas: Fig. 11's GaS "
               "microbenchmark (§5.3.1), each operation a barrier over servers_per_op servers",
               "ycsbt");
    txn::AddYcsbtFields(spec);
    // The paper's TPC-C (§5.1): 24 warehouses per server, every New-Order item remote.
    txn::TpccWorkload::Config tpcc;
    tpcc.warehousesPerPartition = 24;
    tpcc.remoteItems = 1.0;
    txn::AddTpccFields(spec, tpcc);
    spec.OptionalField("servers_per_op", Spec::Integer().Min(2).Max(255),
                       "gas: servers each operation synchronises, the client's own and the "
                       "next ones (§5.3.1: 2 to 8) (default: every server)");
    spec.Field("start", Spec::Duration(), "when clients begin", "0ns")
        .OptionalField("stop", Spec::Duration(),
                       "when clients stop starting transactions and retries: a run that "
                       "leaves a few timeouts after it ends with every attempt settled "
                       "(default: the end of the run)");
    return spec;
}

void
SwitchTxProtocol::Install(World& world, const ParamView& params, const ParamView& workload)
{
    const Topology& topology = world.GetTopology();
    const auto hosts = static_cast<uint32_t>(world.NumHosts());
    ClusterConfig config;
    config.mode = params.Choice("coordination", ModeChoices());
    config.threads = static_cast<uint32_t>(params.Int("threads"));
    config.mpl = static_cast<uint32_t>(params.Int("mpl"));
    config.dynamicMpl = params.Choice("admission", AdmissionChoices());
    config.maxMpl = static_cast<uint32_t>(params.Int("max_mpl"));
    config.epochPs = params.DurationNs("mpl_epoch") * kPsPerNs;
    config.replication = static_cast<uint32_t>(params.Int("replication"));
    config.reorder = params.Bool("reorder");
    config.timeoutPs = params.DurationNs("timeout") * kPsPerNs;
    config.rcRetransmitPs = params.DurationNs("rc_retransmit") * kPsPerNs;
    config.failureDetectionPs = params.DurationNs("failure_detection") * kPsPerNs;
    config.fault = params.Choice("fault", FaultChoices());
    const bool eris = config.mode == Mode::Eris || config.mode == Mode::ErisServer;
    if (eris && config.dynamicMpl)
    {
        params.Fail("admission", "the Eris baseline runs a static MPL (§5.1)");
    }
    if (eris && config.fault != Fault::None)
    {
        params.Fail("fault", "the injected faults break SwitchTx's phases; Eris has none");
    }
    if (config.fault == Fault::LoseFirstCommitOk && config.mode != Mode::InServer)
    {
        params.Fail("fault", "lose-first-commit-ok loses a control message: it needs the "
                             "in-server coordination (FaSST's replies are reliable)");
    }
    for (const CostParam& cost : kCostParams)
    {
        config.costPs[static_cast<size_t>(cost.function)] =
            params.DurationNs(cost.key) * kPsPerNs;
    }
    if (config.replication > hosts)
    {
        params.Fail("replication",
                    fmt::format("{} replicas per shard, but the topology has {} hosts to hold "
                                "them (one server per host)",
                                config.replication, hosts));
    }
    const char* slotsKey = config.dynamicMpl ? "max_mpl" : "mpl";
    const uint64_t slots =
        uint64_t{hosts} * config.threads * (config.dynamicMpl ? config.maxMpl : config.mpl);
    if (slots > (uint64_t{1} << kSlotBits))
    {
        params.Fail(slotsKey, fmt::format("{} hosts x {} threads x {} {} = {} client slots, "
                                          "but txn ids have room for {} (the switch's slot "
                                          "bits)",
                                          hosts, config.threads, slotsKey,
                                          slots / hosts / config.threads, slots,
                                          uint64_t{1} << kSlotBits));
    }
    const ParamView switchSection = world.GetScenario().Section("switch");
    if (!eris && switchSection.Int("priorities") < kQueuesNeeded)
    {
        // Every switch runs switchtx.p4 in SwitchTx's modes: its classes must stay apart.
        switchSection.Fail("priorities",
                           fmt::format("switchtx puts its three priority classes in queues 1 to "
                                       "{}: it needs at least {} queues per port, got {}",
                                       kQueuesNeeded - 1, kQueuesNeeded,
                                       switchSection.Int("priorities")));
    }
    for (const char* key : {"scope", "switch_mode"})
    {
        if (params.Has(key) && config.mode != Mode::InSwitch)
        {
            params.Fail(key, "only the switch coordination has it");
        }
    }
    std::optional<uint32_t> gatherHost;
    if (params.Has("gather_server"))
    {
        const std::string& name = params.String("gather_server");
        const std::optional<uint32_t> node = topology.FindNode(name);
        if (!node || topology.Node(*node).kind != NodeKind::Host)
        {
            params.Fail("gather_server", fmt::format("\"{}\" is not a host of the topology",
                                                     name));
        }
        if (config.mode != Mode::InServer)
        {
            params.Fail("gather_server", "only the in-server coordination has a gather server");
        }
        gatherHost = topology.HostIndex(*node);
    }

    const WorkloadKind kind = workload.Choice("kind", WorkloadKindChoices());
    if (workload.Has("servers_per_op") && kind != WorkloadKind::Gas)
    {
        workload.Fail("servers_per_op", "only the gas workload has it");
    }
    if (kind == WorkloadKind::Tpcc)
    {
        m_workload = std::make_unique<txn::TpccWorkload>(txn::ReadTpccConfig(workload, hosts));
    }
    else if (kind == WorkloadKind::Gas)
    {
        if (config.mode != Mode::InServer && config.mode != Mode::InSwitch)
        {
            workload.Fail("kind", "the gas microbenchmark measures a gather-and-scatter: it "
                                  "needs the in-server or switch coordination");
        }
        const int64_t n = workload.Has("servers_per_op") ? workload.Int("servers_per_op")
                                                         : int64_t{hosts};
        if (n > hosts)
        {
            workload.Fail("servers_per_op",
                          fmt::format("{} servers per operation, but the topology has {} "
                                      "servers",
                                      n, hosts));
        }
        m_workload = std::make_unique<GasWorkload>(hosts, config.threads,
                                                   static_cast<uint32_t>(n));
        config.gasBench = true;
    }
    else
    {
        m_workload = std::make_unique<txn::YcsbtWorkload>(txn::ReadYcsbtConfig(workload, hosts));
    }
    CheckServerFaults(world, config);
    const TimeWindow window = ReadTimeWindow(workload, world.DurationPs(), "clients");
    if (eris)
    {
        m_eris = std::make_unique<eris::ErisBaseline>();
        m_eris->Install(world, params, workload, config.mode == Mode::ErisServer, window,
                        m_workload.get());
        return;
    }
    config.startPs = window.startPs;
    config.stopPs = window.stopPs;
    m_activePs = window.ActivePs();

    // Every switch runs switchtx.p4, which gives SwitchTx messages their priority class. In
    // the switch mode the control plane configures each one (switch id, scatter groups,
    // receivers); otherwise none takes part in a tree (switch id 0).
    if (config.mode == Mode::InSwitch)
    {
        const GasScope scope =
            params.Has("scope") ? params.Choice("scope", ScopeChoices()) : GasScope::Tree;
        const uint8_t switchMode = params.Has("switch_mode")
                                       ? params.Choice("switch_mode", SwitchModeChoices())
                                       : contract::MODE_NORMAL;
        std::unique_ptr<InSwitchGas> gas;
        try
        {
            gas = std::make_unique<InSwitchGas>(
                topology, scope, switchSection.DurationNs("pipeline_delay") * kPsPerNs);
        }
        catch (const ConfigError& error)
        {
            params.Fail("coordination",
                        fmt::format("the in-switch control plane rejects the topology: {}",
                                    error.what()));
        }
        const GasNetwork& network = gas->Network();
        world.SetPipelineFactory(world.ProgramPipelineFactory(
            contract::kProgram, params.Path(),
            [this, &network, switchMode](P4Pipeline& pipeline, SwitchDevice& device) {
                network.Configure(pipeline, device, switchMode);
                m_pipelines.push_back(&pipeline);
            }));
        m_route = std::move(gas);
    }
    else
    {
        world.SetPipelineFactory(world.ProgramPipelineFactory(contract::kProgram, params.Path()));
    }
    if (config.mode == Mode::InServer)
    {
        m_route = std::make_unique<InServerGas>(gatherHost);
    }
    m_cluster = std::make_unique<Cluster>(world, config, m_workload.get(), m_route.get(),
                                          world.Traces().Open(txn::ClientHistoryTrace()),
                                          world.Traces().Open(txn::ServerLogTrace()),
                                          world.Traces().Open(MplTrace()));
    m_cluster->SetGasLog(world.Traces().Open(GasDeliveryTrace()));
    if (config.mode == Mode::InSwitch)
    {
        // §3.5: the control plane takes a crashed coordinator's slots back, writing an owner
        // no attempt has (counter 0), so its later messages are dropped as stale.
        m_cluster->SetSlotRecycler([this](uint32_t slot) {
            for (P4Pipeline* pipeline : m_pipelines)
            {
                pipeline->Control().WriteRegister(contract::MyIngress::slot_owner::kName, slot,
                                                  p4rt::BitString(0));
            }
        });
    }
    m_cluster->Start();
}

void
SwitchTxProtocol::CollectMetrics(nlohmann::json& metrics) const
{
    if (m_eris)
    {
        m_eris->CollectMetrics(metrics);
        return;
    }
    // The run is over: the history's pending decisions are settled (and the traces are still
    // open), the channels' counters added up.
    m_cluster->Finish();
    const ClusterStats& stats = m_cluster->Stats();
    const double seconds = static_cast<double>(m_activePs) * 1e-12;
    metrics = {{"servers", m_cluster->Hosts()},
               {"threads", m_cluster->Config().threads},
               {"attempts", stats.attempts},
               {"committed", stats.committed},
               {"committed_after_stop", stats.committedAfterStop},
               {"throughput_txn_per_s",
                seconds > 0 ? (stats.committed - stats.committedAfterStop) / seconds : 0.0},
               {"aborts_lock", stats.lockFails},
               {"aborts_validate", stats.validateFails},
               {"timeouts", stats.timeouts},
               {"resolved_commit", stats.resolvedCommit},
               {"resolved_abort", stats.resolvedAbort},
               {"lock_holds", stats.lockHolds},
               {"avg_lock_time_ns",
                stats.lockHolds ? static_cast<double>(stats.lockHeldPs) / stats.lockHolds / 1e3
                                : 0.0},
               {"rc_retransmits", stats.rcRetransmits},
               {"stale_control_dropped", stats.staleDropped},
               {"history_pending_at_end", stats.pendingAtEnd},
               {"ungathered", stats.ungathered}};
    if (stats.crashes > 0)
    {
        const auto us = [](int64_t ps) { return static_cast<double>(ps) * 1e-6; };
        metrics["failures"] = {
            {"crashes", stats.crashes},
            {"detection_us", us(stats.lastDetectionPs - stats.lastCrashPs)},
            {"recovery_us", stats.lastRecoveryPs >= stats.lastCrashPs
                                ? us(stats.lastRecoveryPs - stats.lastCrashPs)
                                : 0.0},
            {"first_commit_after_detection_us",
             stats.firstCommitAfterDetectionPs >= stats.lastDetectionPs &&
                     stats.lastDetectionPs >= 0
                 ? us(stats.firstCommitAfterDetectionPs - stats.lastDetectionPs)
                 : -1.0},
            {"promoted_shards", stats.promotedShards},
            {"fenced_keys", stats.fencedKeys},
            {"recovered_commit", stats.recoveredCommit},
            {"recovered_abort", stats.recoveredAbort},
            {"resolved_at_membership", stats.resolvedAtMembership}};
    }
    if (m_cluster->Config().dynamicMpl)
    {
        metrics["mpl"] = {{"epochs", stats.mplEpochs},
                          {"mean", stats.mplEpochs ? static_cast<double>(stats.mplSum) /
                                                         stats.mplEpochs
                                                   : 0.0},
                          {"resets", stats.mplResets},
                          {"decreases", stats.mplDecreases}};
    }
    AddLatencyMetrics(metrics, stats.latenciesPs, {50, 99});
    if (m_cluster->Config().gasBench)
    {
        // Fig. 11: each operation's gather-and-scatter, first gather message to last
        // participant taking the scatter.
        const GasOps& gas = stats.gas;
        nlohmann::json& section = metrics["gas"];
        section = {{"servers_per_op",
                    static_cast<const GasWorkload&>(*m_workload).ServersPerOp()},
                   {"operations", gas.Operations()},
                   {"completed", gas.Completed()},
                   {"receipts", gas.Receipts()},
                   {"surplus", gas.Surplus()},
                   {"early", gas.Early()}};
        AddLatencyMetrics(section, gas.LatenciesPs(), {50, 99});
    }
    // Lock time percentiles (Fig. 1a), under the same rules as latency.
    nlohmann::json lockTimes;
    AddLatencyMetrics(lockTimes, stats.lockTimesPs, {50, 99});
    for (const char* key : {"mean", "p50", "p99"})
    {
        metrics[fmt::format("lock_time_{}_us", key)] = lockTimes[fmt::format("latency_{}_us", key)];
    }
    if (m_cluster->Config().mode == Mode::InServer)
    {
        // The in-server gatherers' Table 1 events, as switch_events counts the switches'.
        GasEngine::Counters total;
        for (uint32_t h = 0; h < m_cluster->Hosts(); ++h)
        {
            const GasEngine::Counters& c = m_cluster->Engine(h).GetCounters();
            total.inits += c.inits;
            total.gathered += c.gathered;
            total.scattered += c.scattered;
            total.toClient += c.toClient;
            total.aborted += c.aborted;
            total.stale += c.stale;
            total.droppedAborted += c.droppedAborted;
            total.early += c.early;
        }
        metrics["gatherer_events"] = {{"init_installed", total.inits},
                                      {"gathered", total.gathered},
                                      {"scattered", total.scattered},
                                      {"to_client", total.toClient},
                                      {"aborted", total.aborted},
                                      {"dropped_stale", total.stale},
                                      {"dropped_aborted", total.droppedAborted},
                                      {"installed_early", total.early}};
    }
    if (!m_pipelines.empty())
    {
        // switchtx.p4's event counter, over every switch (a switch that restarted counts
        // from its restart: counters are state, like the slots).
        static constexpr const char* kEventNames[] = {
            "init_installed", "gathered", "to_parent", "scattered",
            "to_client",      "aborted",  "dropped_stale", "dropped_aborted",
            "installed_early"};
        static_assert(std::size(kEventNames) == contract::EVENT_EARLY + 1);
        for (size_t e = 0; e < std::size(kEventNames); ++e)
        {
            uint64_t total = 0;
            for (P4Pipeline* pipeline : m_pipelines)
            {
                total += pipeline->Control()
                             .GetCounter(contract::MyIngress::switchtx_events::kName)
                             .Packets(e);
            }
            metrics["switch_events"][kEventNames[e]] = total;
        }
    }
    for (size_t f = 0; f < kFunctions; ++f)
    {
        const char* name = FunctionName(static_cast<Function>(f));
        metrics["cpu_ns_by_function"][name] = static_cast<double>(stats.cpuPs[f]) / 1e3;
        metrics["jobs_by_function"][name] = stats.jobs[f];
    }
    // By wire type; segments count under their message's type, acknowledgements under Rc.
    static_assert(static_cast<size_t>(MsgType::Rc) == 0, "kTypeNames[0] is rc_ack");
    static constexpr const char* kTypeNames[] = {
        "rc_ack",     "init",         "lock_ok",      "validate_ok",    "replicate_ok",
        "commit_ok",  "fail",         "version_copy_ok", "read",        "lock_request",
        "write_data", "abort",        "read_data"};
    for (size_t t = 0; t < std::size(kTypeNames); ++t)
    {
        metrics["packets_by_type"][kTypeNames[t]] = stats.packetsByType[t];
    }
    const std::vector<std::string>& kinds = m_workload->KindNames();
    for (size_t k = 0; k < kinds.size(); ++k)
    {
        metrics["kinds"][kinds[k]]["committed"] = stats.committedByKind[k];
    }
    // Every replica's final state, for the checker (history and replicas agree), with where
    // it lives, whether that server is alive and whether it is the shard's primary now.
    nlohmann::json& replicas = metrics["replicas"];
    replicas = nlohmann::json::array();
    const Placement& placement = m_cluster->GetPlacement();
    for (uint32_t shard = 0; shard < m_cluster->Hosts(); ++shard)
    {
        for (uint32_t r = 0; r < m_cluster->Config().replication; ++r)
        {
            const std::map<uint64_t, uint64_t> state =
                m_cluster->Replica(shard, r).WrittenState();
            const uint32_t host = placement.HostOf(shard, r);
            replicas.push_back({{"shard", shard},
                                {"replica", r},
                                {"host", host},
                                {"alive", !m_cluster->Crashed(host)},
                                {"primary", placement.primaryReplica[shard] == r},
                                {"keys", state.size()},
                                {"digest", txn::StateDigest(state)},
                                {"locked", m_cluster->Replica(shard, r).LockedKeys()}});
        }
    }
}

namespace
{
std::vector<TraceSchema>
Traces()
{
    std::vector<TraceSchema> traces = txn::HistoryTraces();
    traces.push_back(GasDeliveryTrace());
    traces.push_back(MplTrace());
    return traces;
}
} // namespace

void
RegisterSwitchTxProtocol()
{
    Protocols().Add("switchtx",
                    ProtocolInfo{"SwitchTx in-network transaction coordination (PVLDB 2022) on "
                                 "the hosts, with its FaSST and in-server GaS baselines",
                                 &SwitchTxProtocol::ParamsSpec, &SwitchTxProtocol::WorkloadSpec,
                                 [] { return std::make_unique<SwitchTxProtocol>(); },
                                 Traces(), &CheckRun});
}

} // namespace incsim::switchtx
