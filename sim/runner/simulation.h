#ifndef INCSIM_RUNNER_SIMULATION_H
#define INCSIM_RUNNER_SIMULATION_H

#include "sim/runner/progress.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace incsim
{

class BackgroundTraffic;
class NetworkTracer;
class Protocol;
class Scenario;
class TraceOutputs;
class World;

/// The ns-3 TypeId name of a /simulator/scheduler value ("calendar" -> "ns3::CalendarScheduler").
std::string SchedulerTypeName(const std::string& name);

/// One scenario assembled for running: the ns-3 scheduler it asks for, its trace outputs, the
/// world, the protocol, the background traffic, the network tracer and the fault timeline, in
/// that order. RunScenario, tests and benchmarks all build runs through it. Destroying it tears everything down and
/// destroys the ns-3 simulator, so runs in one process stay independent.
class Simulation
{
  public:
    /// Traces go to `runDir`, which must exist. Without `installProtocol` the protocol is not
    /// installed (tests then add their own endpoints and pipelines to the world).
    Simulation(const Scenario& scenario, const std::string& runDir, bool installProtocol = true);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    World& GetWorld() const { return *m_world; }
    /// Null when the protocol was not installed.
    Protocol* GetProtocol() const { return m_protocol.get(); }
    TraceOutputs& Traces() const { return *m_traces; }

    /// Runs the simulator to the scenario's duration; returns the wall time of the run (s).
    double Run(ProgressMode progress);
    /// Events the run executed (ns-3's count less the progress reporter's own).
    uint64_t EventCount() const;
    /// {"network": ..., "<protocol>": ..., "background": ... (when there are flows)}.
    nlohmann::json Metrics() const;
    /// Writes the end-of-run traces (links.csv), stops tracing and closes every trace file.
    void CloseTraces();

  private:
    /// Destroys everything in reverse order of construction, then the ns-3 simulator.
    void TearDown();

    const Scenario& m_scenario;
    std::unique_ptr<TraceOutputs> m_traces;
    std::unique_ptr<World> m_world;
    std::unique_ptr<Protocol> m_protocol;
    std::unique_ptr<BackgroundTraffic> m_background;
    std::unique_ptr<NetworkTracer> m_tracer;
    uint64_t m_progressEvents = 0;
};

} // namespace incsim

#endif
