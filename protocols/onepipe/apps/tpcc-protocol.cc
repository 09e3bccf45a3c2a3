#include "protocols/onepipe/apps/tpcc-protocol.h"

#include "protocols/onepipe/apps/app-setup.h"
#include "protocols/onepipe/apps/app-window.h"
#include "protocols/onepipe/onepipe-traces.h"
#include "protocols/txn/history-checker.h"
#include "protocols/txn/workload-spec.h"
#include "sim/core/json-reader.h"
#include "sim/core/sim-time.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace-outputs.h"

#include <fmt/format.h>
#include <ns3/simulator.h>

#include <algorithm>

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
               "over the unordered transport (ordering \"none\"): best effort without loss, "
               "or with loss on service \"reliable\" (its ACKs and retransmission)",
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
               "transactions each process keeps in flight as an initiator (closed loop)", 4);
    AddAppWindowFields(spec, "initiators", "transactions", "throughput and latency");
    return spec;
}

void
TpccProtocol::Install(World& world, const ParamView& params, const ParamView& workload)
{
    m_shared = std::make_unique<TpccShared>();
    TpccConfig& config = m_shared->config;
    config.system = params.Choice("system", SystemChoices());
    CheckAppTransport(world.GetScenario(), params, config.system == TpccSystem::OnePipe,
                      params.String("system"), true);
    config.retransmits = config.system != TpccSystem::OnePipe &&
                         params.Choice("service", ServiceChoices()) == Service::Reliable;
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
    config.measurement = ReadAppWindow(workload, world.DurationPs(), "initiators");
    SetWorkloadWindow(config.measurement.MeasuredPs(), 0);
    m_shared->clientLog = world.Traces().Open(txn::ClientHistoryTrace());
    m_shared->serverLog = world.Traces().Open(txn::ServerLogTrace());
    m_shared->workload = std::make_unique<txn::TpccWorkload>(m_workloadConfig);
    m_shared->results = TxnResults(m_shared->workload->KindNames().size());
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
    m_apps.push_back(std::make_unique<TpccApp>(process, id, *m_shared,
                                                   world.MakeRng("onepipe_tpcc", id)));
    m_shared->apps[id] = m_apps.back().get();
}

void
TpccProtocol::CloseLogs()
{
    for (auto& app : m_apps)
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
    nlohmann::json tpcc = TxnMetrics(m_shared->results, m_shared->workload->KindNames(),
                                     m_shared->config.measurement.MeasuredPs());
    const TpccShared::Failures& f = m_shared->failures;
    nlohmann::json failures = {{"failed_processes", f.failed},
                               {"callbacks", f.callbackPs.size()},
                               {"recalled_attempts", f.recalledAttempts},
                               {"failed_primaries", f.failedPrimaries},
                               {"affected_transactions", f.affectedLatencyPs.size()}};
    if (!f.callbackPs.empty())
    {
        // When the live initiators stopped sending to the failed replica (R30's "removes").
        const auto [first, last] = std::minmax_element(f.callbackPs.begin(), f.callbackPs.end());
        failures["callback_first_us"] = double(*first) / 1e6;
        failures["callback_last_us"] = double(*last) / 1e6;
    }
    AddLatencyMetrics(failures, f.affectedLatencyPs, {50, 95}); // R31
    nlohmann::json resyncs = nlohmann::json::array(); // R32
    for (const TpccShared::Failures::Resync& r : f.resyncs)
    {
        resyncs.push_back({{"process", r.process},
                           {"rejoined_us", double(r.rejoinedPs) / 1e6},
                           {"resynced_us", double(r.donePs) / 1e6},
                           {"decisions", r.decisions},
                           {"bytes", r.bytes}});
    }
    failures["resyncs"] = resyncs;
    tpcc["failures"] = failures;
    // In flight at the end on the live processes: none once a 1Pipe run settles (lock and OCC
    // may still be retrying their aborts).
    uint64_t unfinished = 0;
    for (const auto& app : m_apps)
    {
        if (std::find(f.failed.begin(), f.failed.end(), app->Id()) == f.failed.end())
        {
            unfinished += app->InFlight();
        }
    }
    tpcc["unfinished_transactions"] = unfinished;
    metrics["tpcc"] = tpcc;
}

CheckReport
CheckTpccRun(const std::string& runDir)
{
    txn::HistoryCheckOptions options;
    // A failed process's initiator never learnt the values of its attempts that the live
    // replicas executed, so it wrote no request for them (docs/onepipe-apps.md).
    const nlohmann::json metrics = ReadJsonFile(runDir + "/metrics.json");
    const auto failed = "/onepipe_tpcc/tpcc/failures/failed_processes"_json_pointer;
    if (metrics.contains(failed))
    {
        for (const nlohmann::json& process : metrics.at(failed))
        {
            options.failedClients.insert(process.get<uint64_t>());
        }
    }
    return txn::CheckHistory(runDir, options);
}

void
RegisterTpccProtocol()
{
    Protocols().Add("onepipe_tpcc",
                    ProtocolInfo{"TPC-C New-Order and Payment as independent transactions on "
                                 "1Pipe (SIGCOMM 2021, 7.3.2), against 2PL and OCC",
                                 &TpccProtocol::ParamsSpec,
                                 &TpccProtocol::WorkloadSpec,
                                 [] { return std::make_unique<TpccProtocol>(); },
                                 AppHistoryTraces(),
                                 &CheckTpccRun});
}

} // namespace incsim::onepipe::apps
