#include "protocols/onepipe/apps/kvs-protocol.h"

#include "protocols/onepipe/apps/app-setup.h"
#include "protocols/onepipe/apps/app-window.h"

#include "protocols/onepipe/onepipe-traces.h"
#include "protocols/txn/history-checker.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace-outputs.h"

#include <fmt/format.h>

#include <ns3/simulator.h>

#include <cmath>

namespace incsim::onepipe::apps
{

namespace
{
const Choices<KvsSystem>&
SystemChoices()
{
    static const Choices<KvsSystem> choices{
        {"1pipe", KvsSystem::OnePipe}, {"farm", KvsSystem::Farm}, {"nontx", KvsSystem::NonTx}};
    return choices;
}

/// /protocol/params/read_only_service: true for best effort.
const Choices<bool>&
ReadOnlyServiceChoices()
{
    static const Choices<bool> choices{{"best-effort", true}, {"reliable", false}};
    return choices;
}

/// Zipf exponent 0 is the uniform distribution.
const Choices<bool>&
DistributionChoices()
{
    static const Choices<bool> choices{{"uniform", false}, {"zipf", true}};
    return choices;
}
} // namespace

Spec
KvsProtocol::ParamsSpec()
{
    Spec spec = OnePipeProtocol::ParamsSpec();
    spec.Field("system", Spec::Enum(SystemChoices()),
               "1pipe: each transaction is one scattering, executed by every server in "
               "timestamp order without locks (needs ordering \"total\" and service "
               "\"reliable\"); farm: the FaRM-like baseline, OCC with two-phase commit "
               "(read, lock, validate, commit) over the unordered transport (ordering "
               "\"none\", no loss); nontx: 1Pipe's messages over the unordered transport, "
               "executed on arrival (ordering \"none\", no loss): the upper bound, and not "
               "serializable",
               "1pipe")
        .Field("read_only_service", Spec::Enum(ReadOnlyServiceChoices()),
               "1pipe: the service of read-only transactions (the paper's best effort; their "
               "servers execute them on the commit barrier with the others)",
               "best-effort")
        .Field("retry_timeout", Spec::Duration().Min(1),
               "1pipe, best-effort reads: an attempt not answered after this is given up and "
               "sent again",
               "500us")
        .Field("backoff", Spec::Duration().Min(1),
               "farm: an aborted attempt retries after a uniform wait up to this, doubling "
               "with each retry up to 64 times it",
               "1us");
    return spec;
}

Spec
KvsProtocol::WorkloadSpec()
{
    Spec spec = Spec::Object();
    spec.Field("keys_per_txn", Spec::Integer().Min(1).Max(txn::MultiKvWorkload::kMaxKeysPerTxn),
               "distinct keys (operations) per transaction", 2)
        .Field("writes", Spec::Number().Min(0).Max(1),
               "probability that an operation writes its key (otherwise it reads it); the "
               "default makes half of 2-key transactions read-only",
               1 - std::sqrt(0.5))
        .Field("keys", Spec::Integer().Min(1).Max(int64_t{1} << 40), "keys in the store",
               1000000)
        .Field("distribution", Spec::Enum(DistributionChoices()),
               "keys drawn uniformly or by Zipf(theta) (YCSB)", "uniform")
        .Field("theta", Spec::Number().Min(0).Max(10), "zipf: the exponent", 0.99)
        .Field("value_size", Spec::Size().Min(0).Max(1024 * 1024),
               "bytes of a value in a message (requests carry written values, answers read "
               "ones)",
               "64B")
        .Field("window", Spec::Integer().Min(1).Max(1024),
               "transactions each process keeps in flight as an initiator (closed loop)", 4);
    AddAppWindowFields(spec, "initiators", "transactions", "throughput, latency and aborts");
    return spec;
}

void
KvsProtocol::Install(World& world, const ParamView& params, const ParamView& workload)
{
    m_shared = std::make_unique<KvsShared>();
    KvsConfig& config = m_shared->config;
    config.system = params.Choice("system", SystemChoices());
    CheckAppTransport(world.GetScenario(), params, config.system == KvsSystem::OnePipe,
                      params.String("system"));
    config.readOnlyBestEffort = params.Choice("read_only_service", ReadOnlyServiceChoices());
    config.retryTimeoutPs = params.DurationNs("retry_timeout") * kPsPerNs;
    config.backoffPs = params.DurationNs("backoff") * kPsPerNs;
    OnePipeProtocol::Install(world, params, workload);
}

void
KvsProtocol::ReadWorkload(World& world, const ParamView& workload)
{
    KvsConfig& config = m_shared->config;
    m_workloadConfig.keysPerTxn = static_cast<uint32_t>(workload.Int("keys_per_txn"));
    m_workloadConfig.writes = workload.Number("writes");
    m_workloadConfig.keys = static_cast<uint64_t>(workload.Int("keys"));
    m_workloadConfig.theta =
        workload.Choice("distribution", DistributionChoices()) ? workload.Number("theta") : 0;
    if (m_workloadConfig.keysPerTxn > m_workloadConfig.keys)
    {
        workload.Fail("keys_per_txn", fmt::format("a transaction's keys are distinct: at most "
                                                  "the {} keys of the store",
                                                  m_workloadConfig.keys));
    }
    config.valueBytes = static_cast<uint32_t>(workload.SizeBytes("value_size"));
    config.window = static_cast<uint32_t>(workload.Int("window"));
    config.measurement = ReadAppWindow(workload, world.DurationPs(), "initiators");
    SetWorkloadWindow(config.measurement.MeasuredPs(), 0);
    m_shared->clientLog = world.Traces().Open(txn::ClientHistoryTrace());
    m_shared->serverLog = world.Traces().Open(txn::ServerLogTrace());
    // Decisions still open when the run ends are written as aborts just before it does.
    ns3::Simulator::Schedule(Ps(std::max<int64_t>(0, world.DurationPs() - 1)),
                             &KvsProtocol::CloseLogs, this);
}

void
KvsProtocol::AttachApplication(World& world, OnePipeEndpoint& process, uint32_t id,
                               uint32_t processes)
{
    if (!m_shared->workload)
    {
        m_workloadConfig.partitions = processes;
        m_shared->workload = std::make_unique<txn::MultiKvWorkload>(m_workloadConfig);
        m_shared->apps.assign(processes, nullptr);
    }
    m_apps.push_back(std::make_unique<KvsApp>(process, id, *m_shared,
                                                 world.MakeRng("onepipe_kvs", id)));
    m_shared->apps[id] = m_apps.back().get();
}

void
KvsProtocol::CloseLogs()
{
    for (auto& app : m_apps)
    {
        app->Log().Close();
    }
}

void
KvsProtocol::CollectMetrics(nlohmann::json& metrics) const
{
    OnePipeProtocol::CollectMetrics(metrics);
    const KvsShared::Results& r = m_shared->results;
    const int64_t measuredPs = m_shared->config.measurement.MeasuredPs();
    const double seconds = measuredPs / 1e12;
    const auto& names = m_shared->workload ? m_shared->workload->KindNames()
                                           : std::vector<std::string>{};
    nlohmann::json kvs = TxnMetrics(r.txns, names, measuredPs);
    const auto commits = kvs.at("commits").get<uint64_t>();
    const size_t processes = m_apps.size();
    kvs["system"] =
        std::string(SystemChoices()[static_cast<size_t>(m_shared->config.system)].first);
    kvs["retry_timeouts"] = r.retryTimeouts;
    kvs["throughput_ops_per_s"] = seconds > 0 ? r.opsCommitted / seconds : 0.0;
    kvs["throughput_per_process_txns_per_s"] =
        seconds > 0 && processes ? commits / seconds / double(processes) : 0.0;
    metrics["kvs"] = kvs;
}

CheckReport
CheckKvsRun(const std::string& runDir)
{
    return txn::CheckHistory(runDir, txn::HistoryCheckOptions{});
}

void
RegisterKvsProtocol()
{
    Protocols().Add("onepipe_kvs",
                    ProtocolInfo{"1Pipe's transactional key-value store (SIGCOMM 2021, 7.3.1) "
                                 "and its FaRM-like and non-transactional baselines",
                                 &KvsProtocol::ParamsSpec,
                                 &KvsProtocol::WorkloadSpec,
                                 [] { return std::make_unique<KvsProtocol>(); },
                                 AppHistoryTraces(),
                                 &CheckKvsRun});
}

} // namespace incsim::onepipe::apps
