#include "protocols/onepipe/apps/replication-protocol.h"

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
#include <cmath>

namespace incsim::onepipe::apps
{

namespace
{
const Choices<ReplicationSystem>&
SystemChoices()
{
    static const Choices<ReplicationSystem> choices{{"1pipe", ReplicationSystem::OnePipe},
                                                    {"chain", ReplicationSystem::Chain}};
    return choices;
}

/// /protocol/params/retransmit_ts: true keeps the logged timestamp.
const Choices<bool>&
RetransmitTsChoices()
{
    static const Choices<bool> choices{{"logged", true}, {"fresh", false}};
    return choices;
}
} // namespace

Spec
ReplicationProtocol::ParamsSpec()
{
    Spec spec = OnePipeProtocol::ParamsSpec();
    spec.Field("system", Spec::Enum(SystemChoices()),
               "1pipe: one best-effort scattering to every replica, replicas order logs by "
               "(timestamp, client) and reply a checksum, equal checksums = success in 1 RTT "
               "(ordering \"total\", service \"best-effort\"); chain: Ceph's primary-backup, "
               "each copy on disk before the next is sent (ordering \"none\", no loss)",
               "1pipe")
        .Field("clients", Spec::Integer().Min(1).Max(1024),
               "client processes (0..clients-1), one write in flight each; the replicas follow",
               1)
        .Field("replicas", Spec::Integer().Min(1).Max(16), "replicas of the log", 3)
        .Field("disk_write", Spec::Duration(),
               "a replica's disk time per 4 KB entry, one at a time (the default: Intel DC "
               "S3700's typical write latency, docs/onepipe-apps.md)",
               "65us")
        .Field("retry_timeout", Spec::Duration().Min(1),
               "1pipe: replicas that have not accepted by then get the write again", "300us")
        .Field("retransmit_ts", Spec::Enum(RetransmitTsChoices()),
               "1pipe: a retransmission carries the timestamp the others logged it at; fresh "
               "is the negative control (the replicas' logs differ)",
               "logged");
    return spec;
}

Spec
ReplicationProtocol::WorkloadSpec()
{
    Spec spec = Spec::Object();
    spec.Field("write_size", Spec::Size().Min(1).Max(1024 * 1024), "bytes of a write", "4KB")
        .Field("interval", Spec::Duration(),
               "a client's pause after each write (an idle system)", "20us");
    AddAppWindowFields(spec, "clients", "writes", "latencies");
    return spec;
}

void
ReplicationProtocol::Install(World& world, const ParamView& params, const ParamView& workload)
{
    m_shared = std::make_unique<ReplicationShared>();
    ReplicationConfig& config = m_shared->config;
    config.system = params.Choice("system", SystemChoices());
    if (config.system == ReplicationSystem::OnePipe)
    {
        if (params.String("ordering") != "total")
        {
            params.Fail("ordering", fmt::format("system \"1pipe\" orders logs by 1Pipe's "
                                                "timestamps: it needs ordering \"total\", not "
                                                "\"{}\"",
                                                params.String("ordering")));
        }
        if (params.Choice("service", ServiceChoices()) != Service::BestEffort)
        {
            params.Fail("service", "system \"1pipe\" is the paper's 1-RTT replication on "
                                   "best-effort 1Pipe (it handles losses itself): set service "
                                   "\"best-effort\"");
        }
    }
    else
    {
        CheckAppTransport(world.GetScenario(), params, false, params.String("system"));
    }
    config.clients = static_cast<uint32_t>(params.Int("clients"));
    config.replicas = static_cast<uint32_t>(params.Int("replicas"));
    config.diskWritePs = params.DurationNs("disk_write") * kPsPerNs;
    config.retryTimeoutPs = params.DurationNs("retry_timeout") * kPsPerNs;
    config.keepLoggedTs = params.Choice("retransmit_ts", RetransmitTsChoices());
    const unsigned processes = AppProcesses(world, params);
    if (processes < config.clients + config.replicas)
    {
        params.Fail("replicas", fmt::format("{} clients + {} replicas need {} processes; the "
                                            "run has {} (process_hosts x processes_per_host)",
                                            config.clients, config.replicas,
                                            config.clients + config.replicas, processes));
    }
    OnePipeProtocol::Install(world, params, workload);
}

void
ReplicationProtocol::ReadWorkload(World& world, const ParamView& workload)
{
    ReplicationConfig& config = m_shared->config;
    config.writeBytes = static_cast<uint32_t>(workload.SizeBytes("write_size"));
    config.intervalPs = workload.DurationNs("interval") * kPsPerNs;
    config.measurement = ReadAppWindow(workload, world.DurationPs(), "clients");
    SetWorkloadWindow(config.measurement.MeasuredPs(), 0);
}

void
ReplicationProtocol::AttachApplication(World& /*world*/, OnePipeEndpoint& process, uint32_t id,
                                       uint32_t /*processes*/)
{
    const ReplicationConfig& config = m_shared->config;
    if (id >= config.clients + config.replicas)
    {
        return; // beyond the clients and replicas: idle
    }
    const bool client = id < config.clients;
    const uint32_t replica = client ? 0 : id - config.clients;
    m_apps.push_back(std::make_unique<ReplicationApp>(process, id, client, replica, *m_shared));
    if (!client)
    {
        m_shared->replicas.push_back(m_apps.back().get());
    }
}

void
ReplicationProtocol::CollectMetrics(nlohmann::json& metrics) const
{
    OnePipeProtocol::CollectMetrics(metrics);
    const ReplicationShared::Results& r = m_shared->results;
    // Checks: every replica holds the same log, and every successful write is in it.
    uint64_t mismatched = 0;
    uint64_t lost = 0;
    const auto& replicas = m_shared->replicas;
    for (const ReplicationApp* replica : replicas)
    {
        mismatched += replica->Log() == replicas.front()->Log() ? 0 : 1;
        for (const auto& [client, write] : r.successes)
        {
            const auto& log = replica->Log();
            lost += std::any_of(log.begin(), log.end(),
                                [&](const LogEntry& e) {
                                    return e.client == client && e.write == write;
                                })
                        ? 0
                        : 1;
        }
    }
    uint64_t busy = 0;
    for (const auto& app : m_apps)
    {
        busy += app->Busy() ? 1 : 0;
    }
    double sum = 0;
    double squares = 0;
    for (int64_t ps : r.latencyPs)
    {
        sum += ps / 1e6;
        squares += (ps / 1e6) * (ps / 1e6);
    }
    const double n = static_cast<double>(r.latencyPs.size());
    const double mean = n > 0 ? sum / n : 0.0;
    nlohmann::json out = {
        {"system",
         std::string(SystemChoices()[static_cast<size_t>(m_shared->config.system)].first)},
        {"writes", r.latencyPs.size()},
        {"latency_std_us", n > 1 ? std::sqrt(std::max(0.0, squares / n - mean * mean)) : 0.0},
        {"retransmissions", r.retransmissions},
        {"rejections", r.rejections},
        {"checksum_mismatches", r.checksumMismatches},
        {"unresolved_writes", r.unresolved},
        {"checks",
         {{"succeeded", r.succeeded},
          {"mismatched_logs", mismatched},
          {"lost_writes", lost},
          {"unfinished_writes", busy}}}};
    AddLatencyMetrics(out, r.latencyPs, {50, 95});
    metrics["replication"] = out;
}

void
RegisterReplicationProtocol()
{
    Protocols().Add("onepipe_replication",
                    ProtocolInfo{"1-RTT replication on best-effort 1Pipe (SIGCOMM 2021, 2.2.2) "
                                 "against Ceph's primary-backup chain (7.3.4)",
                                 &ReplicationProtocol::ParamsSpec,
                                 &ReplicationProtocol::WorkloadSpec,
                                 [] { return std::make_unique<ReplicationProtocol>(); },
                                 OnePipeTraces()});
}

} // namespace incsim::onepipe::apps
