#ifndef INCSIM_RUNNER_WORLD_H
#define INCSIM_RUNNER_WORLD_H

#include "sim/core/rng.h"
#include "sim/runner/program-loader.h"
#include "sim/runner/routing-controller.h"
#include "sim/topology/routing.h"
#include "sim/topology/topology.h"

#include <ns3/ptr.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace incsim
{

class EgressPort;
class HostNode;
class Link;
class Scenario;
class SwitchDevice;
class TraceOutputs;

/// Everything a scenario simulates: the topology's switches, hosts and links as ns-3 objects,
/// the routes, and the run's trace outputs. Protocols receive the World in Install() and
/// add their switch programs and host endpoints to it.
class World
{
  public:
    using PipelineFactory = incsim::PipelineFactory;
    using PipelineConfigurator = incsim::PipelineConfigurator;

    /// Builds the world for a validated scenario; traces go to `traces`.
    World(const Scenario& scenario, Topology topology, TraceOutputs& traces);
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    const Scenario& GetScenario() const { return m_scenario; }
    const Topology& GetTopology() const { return m_topology; }
    const EcmpRoutes& Routes() const { return m_routing.Routes(); }
    TraceOutputs& Traces() const { return m_traces; }
    uint64_t Seed() const { return m_seed; }
    int64_t DurationPs() const { return m_durationPs; }
    /// UDP payload bytes one frame carries: /links/mtu less the IPv4 and UDP headers.
    uint32_t MaxUdpPayloadBytes() const;
    /// An independent random stream for (component, index), derived from the scenario seed.
    Rng MakeRng(std::string_view component, uint64_t index = 0) const;

    size_t NumHosts() const { return m_hosts.size(); }
    HostNode& Host(uint32_t hostIndex) const { return *m_hosts[hostIndex]; }
    /// The switch at a topology node id.
    SwitchDevice& Switch(uint32_t nodeId) const;
    const std::vector<ns3::Ptr<SwitchDevice>>& Switches() const { return m_switches; }
    Link& GetLink(uint32_t linkId) const { return *m_links[linkId]; }
    EgressPort& PortOf(uint32_t nodeId, uint32_t port) const;

    /// Replaces every switch's program (protocols call this from Install). Routes are
    /// re-installed into the new pipelines.
    void SetPipelineFactory(const PipelineFactory& factory);
    /// The scenario's /switch/program (a P4 program compiled into incsim) with the routes
    /// installed by EcmpRouteInstaller and /switch/entries applied.
    PipelineFactory DefaultPipelineFactory() const;
    /// The same for the compiled-in program `program`, chosen at scenario path `where` (named in
    /// errors), then configured by `configure` (LoadProgram).
    PipelineFactory ProgramPipelineFactory(const std::string& program, const std::string& where,
                                           PipelineConfigurator configure = {}) const;
    /// The P4 programs the switches run now, by name (each once).
    std::vector<const p4rt::ProgramInfo*> ProgramsInUse() const;
    /// Throws ConfigError, naming `who` and a cycle, unless the routes form a DAG.
    void RequireDagRouting(const std::string& who) const;

    // Faults. A link carries traffic when it is administratively up and both ends are up.
    void SetLinkUp(uint32_t linkId, bool up);
    void SetNodeUp(uint32_t nodeId, bool up);
    /// nullopt: every link.
    void SetLossRate(std::optional<uint32_t> linkId, double rate);
    /// Recomputes shortest paths on what is up and installs them everywhere.
    void RecomputeRoutes();

  private:
    void BuildNodes();
    void BuildLinks();
    void ApplyLinkState(uint32_t linkId);
    void InstallRoutes();
    void ScheduleReconvergence();

    const Scenario& m_scenario;
    Topology m_topology;
    TraceOutputs& m_traces;
    uint64_t m_seed;
    int64_t m_durationPs;
    RoutingController m_routing;

    std::vector<ns3::Ptr<SwitchDevice>> m_switches;      // by order in Topology::Switches()
    std::vector<ns3::Ptr<SwitchDevice>> m_switchByNode;  // by node id; null for hosts
    std::vector<ns3::Ptr<HostNode>> m_hosts;             // by host index
    std::vector<ns3::Ptr<Link>> m_links;                 // by link id
    std::vector<std::vector<ns3::Ptr<EgressPort>>> m_ports; // by node id, port

    std::vector<bool> m_linkAdminUp;
    std::vector<bool> m_nodeUp;
};

} // namespace incsim

#endif
