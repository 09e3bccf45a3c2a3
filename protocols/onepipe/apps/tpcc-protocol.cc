#include "protocols/onepipe/apps/tpcc-protocol.h"

#include "protocols/onepipe/apps/app-setup.h"
#include "protocols/onepipe/onepipe-traces.h"
#include "protocols/txn/history-checker.h"
#include "protocols/txn/workload-spec.h"
#include "sim/core/sim-time.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/schema/time-window.h"
#include "sim/trace/trace-outputs.h"

#include <fmt/format.h>
#include <ns3/simulator.h>

namespace incsim::onepipe::apps
{

namespace
{
const Choices<TpccSystem>&
SystemChoices()
{
    static const Choices<TpccSystem> choices{{"1pipe", TpccSystem::OnePipe},
                                             {"lock", TpccSystem::Lock},
                                             {"occ", TpccSystem::Occ},
                                             {"nontx", TpccSystem::NonTx}};
    return choices;
}

/// The paper's New-Order and Payment only (TPC-C's 45 : 43).
txn::TpccWorkload::Config
Defaults()
{
    txn::TpccWorkload::Config config;
    config.newOrder = 45.0 / 88.0;
    config.payment = 43.0 / 88.0;
    return config;
}
} // namespace

Spec
TpccProtocol::ParamsSpec()
{
    Spec spec = OnePipeProtocol::ParamsSpec();
    spec.Field("system", Spec::Enum(SystemChoices()),
               "1pipe: one reliable scattering of the transaction to every replica of every "
               "shard it touches, executed in timestamp order, never aborted (needs ordering "
               "\"total\" and service \"reliable\"); lock: two-phase locking (no wait) and "
               "two-phase commit; occ: read, then lock and validate, then commit; both ship "
               "the writes to the backups before releasing the locks; nontx: 1Pipe's "
               "scattering executed on arrival (not serializable); lock, occ and nontx run "
               "over the unordered transport (ordering \"none\", no loss)",
               "1pipe")
        .Field("shards", Spec::Integer().Min(1).Max(64),
               "warehouse shards (one warehouse each; the paper's 4)", 4)
        .Field("replicas", Spec::Integer().Min(1).Max(9),
               "replicas of each shard, on distinct processes (the first is the primary)", 3)
        .Field("backoff", Spec::Duration().Min(1),
               "lock, occ: an aborted attempt retries after a uniform wait up to this, "
               "doubling with each retry up to 64 times it",
               "1us");
    return spec;
}

Spec
TpccProtocol::WorkloadSpec()
{
    Spec spec = Spec::Object();
    txn::AddTpccFields(spec, Defaults());
    spec.Field("op_size", Spec::Size().Min(1).Max(4096),
               "bytes per operation in messages that carry operations (key and value)", "16B")
        .Field("window", Spec::Integer().Min(1).Max(1024),
               "transactions each process keeps in flight as an initiator (closed loop)", 4)
        .Field("start", Spec::Duration(), "when initiators start", "0ns")
        .OptionalField("measure_from", Spec::Duration(),
                       "when throughput and latency start counting, up to stop (default: "
                       "start)")
        .OptionalField("stop", Spec::Duration(),
                       "when initiators stop starting transactions (default: the end of the "
                       "run)");
    return spec;
}

void
TpccProtocol::Install(World& world, const ParamView& params, const ParamView& workload)
{
    m_shared = std::make_unique<TpccShared>();
    TpccConfig& config = m_shared->config;
    config.system = params.Choice("system", SystemChoices());
    CheckAppTransport(world.GetScenario(), params, config.system == TpccSystem::OnePipe,
                      params.String("system"));
    config.shards = static_cast<uint32_t>(params.Int("shards"));
    config.replicas = static_cast<uint32_t>(params.Int("replicas"));
    config.backoffPs = params.DurationNs("backoff") * kPsPerNs;
    const unsigned processes = AppProcesses(world, params);
    if (processes < config.shards * config.replicas)
    {
        params.Fail("replicas",
                    fmt::format("{} shards x {} replicas need {} processes on distinct "
                                "processes; the run has {} (process_hosts x "
                                "processes_per_host)",
                                config.shards, config.replicas, config.shards * config.replicas,
                                processes));
    }
    m_workloadConfig = txn::ReadTpccConfig(workload, config.shards);
    OnePipeProtocol::Install(world, params, workload);
}

void
TpccProtocol::ReadWorkload(World& world, const ParamView& workload)
{
    TpccConfig& config = m_shared->config;
    config.window = static_cast<uint32_t>(workload.Int("window"));
    config.opBytes = static_cast<uint32_t>(workload.SizeBytes("op_size"));
    const TimeWindow window = ReadTimeWindow(workload, world.DurationPs(), "initiators");
    config.startPs = window.startPs;
    config.stopPs = window.stopPs;
    config.measureFromPs = window.startPs;
    if (workload.Has("measure_from"))
    {
        config.measureFromPs = workload.DurationNs("measure_from") * kPsPerNs;
        if (config.measureFromPs < window.startPs || config.measureFromPs >= window.stopPs)
        {
            workload.Fail("measure_from", "must be at or after start and before stop");
        }
    }
    m_activePs = window.stopPs - config.measureFromPs;
    SetWorkloadWindow(m_activePs, 0);
    m_shared->clientLog = world.Traces().Open(txn::ClientHistoryTrace());
    m_shared->serverLog = world.Traces().Open(txn::ServerLogTrace());
    m_shared->workload = std::make_unique<txn::TpccWorkload>(m_workloadConfig);
    const size_t kinds = 3; // payment, order_status, new_order (TpccWorkload::Kind)
    m_shared->results.commits.assign(kinds, 0);
    m_shared->results.aborts.assign(kinds, 0);
    m_shared->results.latencyPs.assign(kinds, {});
    ns3::Simulator::Schedule(Ps(std::max<int64_t>(0, world.DurationPs() - 1)),
                             &TpccProtocol::CloseLogs, this);
}

void
TpccProtocol::AttachApplication(World& world, OnePipeEndpoint& process, uint32_t id,
                                uint32_t processes)
{
    if (m_shared->apps.empty())
    {
        m_shared->processes = processes;
        m_shared->apps.assign(processes, nullptr);
    }
    m_tpccApps.push_back(std::make_unique<TpccApp>(process, id, *m_shared,
                                                   world.MakeRng("onepipe_tpcc", id)));
    m_shared->apps[id] = m_tpccApps.back().get();
}

void
TpccProtocol::StartApplications()
{
    for (auto& app : m_tpccApps)
    {
        app->Start();
    }
}

void
TpccProtocol::CloseLogs()
{
    for (auto& app : m_tpccApps)
    {
        if (app->Log() != nullptr)
        {
            app->Log()->Close();
        }
    }
}

void
TpccProtocol::CollectMetrics(nlohmann::json& metrics) const
{
    OnePipeProtocol::CollectMetrics(metrics);
    const TpccShared::Results& r = m_shared->results;
    const double seconds = m_activePs / 1e12;
    uint64_t commits = 0;
    uint64_t aborts = 0;
    std::vector<int64_t> all;
    nlohmann::json kinds = nlohmann::json::object();
    const auto& names = m_shared->workload->KindNames();
    for (size_t k = 0; k < names.size(); ++k)
    {
        commits += r.commits[k];
        aborts += r.aborts[k];
        all.insert(all.end(), r.latencyPs[k].begin(), r.latencyPs[k].end());
        nlohmann::json kind = {{"commits", r.commits[k]}, {"aborts", r.aborts[k]}};
        AddLatencyMetrics(kind, r.latencyPs[k], {50, 95});
        kinds[names[k]] = kind;
    }
    nlohmann::json tpcc = {
        {"commits", commits},
        {"aborts", aborts},
        {"abort_rate", commits + aborts ? double(aborts) / double(commits + aborts) : 0.0},
        {"throughput_txns_per_s", seconds > 0 ? commits / seconds : 0.0},
        {"kinds", kinds}};
    AddLatencyMetrics(tpcc, all, {50, 95, 99});
    metrics["tpcc"] = tpcc;
}

CheckReport
CheckTpccRun(const std::string& runDir)
{
    return txn::CheckHistory(runDir, txn::HistoryCheckOptions{});
}

void
RegisterTpccProtocol()
{
    std::vector<TraceSchema> traces = OnePipeTraces();
    for (const TraceSchema& trace : txn::HistoryTraces())
    {
        traces.push_back(trace);
    }
    Protocols().Add("onepipe_tpcc",
                    ProtocolInfo{"TPC-C New-Order and Payment as independent transactions on "
                                 "1Pipe (SIGCOMM 2021, 7.3.2), against 2PL and OCC",
                                 &TpccProtocol::ParamsSpec,
                                 &TpccProtocol::WorkloadSpec,
                                 [] { return std::make_unique<TpccProtocol>(); },
                                 traces,
                                 &CheckTpccRun});
}

} // namespace incsim::onepipe::apps
