#include "sim/runner/simulation.h"

#include "sim/core/diagnostics.h"
#include "sim/core/output-file.h"
#include "sim/core/sim-time.h"
#include "sim/runner/background-traffic.h"
#include "sim/runner/build-topology.h"
#include "sim/runner/faults.h"
#include "sim/runner/network-metrics.h"
#include "sim/runner/network-tracer.h"
#include "sim/runner/world.h"
#include "sim/scenario/protocol.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace-outputs.h"

#include <ns3/object-factory.h>
#include <ns3/simulator.h>

#include <spdlog/spdlog.h>

#include <chrono>
#include <new>
#include <set>

namespace incsim
{

namespace
{

void
UseScheduler(const std::string& typeName)
{
    ns3::ObjectFactory factory;
    factory.SetTypeId(typeName);
    ns3::Simulator::SetScheduler(factory);
}

std::set<std::string>
EnabledTraces(const Scenario& scenario)
{
    ParamView traces = scenario.Section("outputs").Get("traces");
    std::set<std::string> enabled;
    for (size_t i = 0; i < traces.Size(); ++i)
    {
        enabled.insert(traces.At(i).AsString());
    }
    return enabled;
}

} // namespace

std::string
SchedulerTypeName(const std::string& name)
{
    for (const auto& [scheduler, typeName] : SchedulerChoices())
    {
        if (scheduler == name)
        {
            return typeName;
        }
    }
    throw std::invalid_argument("unknown scheduler \"" + name + "\"");
}

Simulation::Simulation(const Scenario& scenario, const std::string& runDir, bool installProtocol)
    : m_scenario(scenario)
{
    EnsurePicosecondResolution();
    UseScheduler(scenario.Section("simulator").Choice("scheduler", SchedulerChoices()));
    try
    {
        Topology topology = BuildTopology(scenario);
        std::vector<FaultEvent> faults = ResolveFaults(scenario, topology);
        m_traces = std::make_unique<TraceOutputs>(runDir, EnabledTraces(scenario));
        m_world = std::make_unique<World>(scenario, std::move(topology), *m_traces);
        if (installProtocol)
        {
            ParamView protocol = scenario.Section("protocol");
            m_protocol = Protocols().Get(protocol.String("name")).create();
            m_protocol->Install(*m_world, protocol.Get("params"), scenario.Section("workload"));
        }
        m_background =
            std::make_unique<BackgroundTraffic>(*m_world, scenario.Section("background"));
        m_tracer = std::make_unique<NetworkTracer>(*m_world);
        ScheduleFaults(*m_world, faults);
    }
    catch (const InputError& error)
    {
        TearDown();
        // A value that came from --set is blamed on --set, not on the scenario file.
        scenario.RethrowBlamingOverrides(error);
    }
    catch (const std::bad_alloc&)
    {
        TearDown();
        // BuildTopology refuses worlds its estimate says are too large; this is what is left.
        throw ConfigError(scenario.File() + ": ran out of memory building the world; the "
                                            "estimate (README, \"Memory of a built world\") "
                                            "leaves out protocol state, or "
                                            "/simulator/memory_limit was set above what the "
                                            "machine has");
    }
    catch (...)
    {
        TearDown();
        throw;
    }
}

Simulation::~Simulation()
{
    TearDown();
}

void
Simulation::TearDown()
{
    m_tracer.reset();
    m_background.reset();
    m_protocol.reset();
    m_world.reset();
    m_traces.reset();
    ns3::Simulator::Destroy();
}

double
Simulation::Run(ProgressMode progress)
{
    spdlog::info("running {} ({} nodes, {} links) for {}ns",
                 m_scenario.File(),
                 m_world->GetTopology().NumNodes(),
                 m_world->GetTopology().NumLinks(),
                 m_scenario.DurationNs());
    auto start = std::chrono::steady_clock::now();
    {
        ProgressReporter reporter(m_world->DurationPs(), progress);
        const DeferredWriteFailures writeFailures([] { ns3::Simulator::Stop(); });
        ns3::Simulator::Stop(ns3::NanoSeconds(m_scenario.DurationNs()));
        ns3::Simulator::Run();
        m_progressEvents += reporter.Reports();
        writeFailures.Rethrow();
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

uint64_t
Simulation::EventCount() const
{
    return ns3::Simulator::GetEventCount() - m_progressEvents;
}

nlohmann::json
Simulation::Metrics() const
{
    nlohmann::json metrics = {{"network", NetworkMetrics(*m_world)}};
    if (m_protocol)
    {
        nlohmann::json protocolMetrics = nlohmann::json::object();
        m_protocol->CollectMetrics(protocolMetrics);
        metrics[m_scenario.Section("protocol").String("name")] = protocolMetrics;
    }
    if (m_background->Enabled())
    {
        metrics["background"] = m_background->Metrics();
    }
    return metrics;
}

void
Simulation::CloseTraces()
{
    if (m_tracer)
    {
        m_tracer->Close();
        m_tracer.reset();
    }
    WriteLinkTrace(*m_world);
    m_traces->Close();
}

} // namespace incsim
