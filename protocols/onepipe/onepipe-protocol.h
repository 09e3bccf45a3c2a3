#ifndef INCSIM_ONEPIPE_ONEPIPE_PROTOCOL_H
#define INCSIM_ONEPIPE_ONEPIPE_PROTOCOL_H

#include "protocols/onepipe/baselines/baselines.h"
#include "protocols/onepipe/beacon-generator.h"
#include "protocols/onepipe/beacon-processor.h"
#include "protocols/onepipe/failure-controller.h"
#include "protocols/onepipe/failure-detector.h"
#include "protocols/onepipe/onepipe-endpoint.h"
#include "protocols/onepipe/onepipe-host.h"
#include "protocols/onepipe/scatter-workload.h"
#include "sim/scenario/protocol.h"

#include <ns3/ptr.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace incsim
{
class P4Pipeline;
class Scenario;
class Topology;
}

namespace incsim::onepipe
{

/// /protocol/params/ordering: 1Pipe's total order, the unordered baseline, or one of Fig. 8's
/// total-order broadcast baselines.
enum class Ordering
{
    Total,
    None,
    SequencerSwitch,
    SequencerHost,
    Token,
    Lamport
};
const Choices<Ordering>& OrderingChoices();

/// /protocol/params/service: Table 1's two services.
enum class Service
{
    BestEffort,
    Reliable
};
const Choices<Service>& ServiceChoices();

/// "onepipe": best-effort 1Pipe (Li et al., SIGCOMM 2021, Sec. 4 and 6). Switches run
/// p4/onepipe.p4; in the "chip" incarnation the chip aggregates barriers and a beacon generator
/// per switch ticks it, in "switch-cpu" and "host-representative" a BeaconProcessor behind the
/// CPU port does (Sec. 6.2.2, 6.2.3). Every host runs a OnePipeHost and
/// processes_per_host OnePipeEndpoint processes, each driven by a ScatterApp.
/// With ordering "none" it is the unordered baseline: the same endpoints and traffic over
/// plain forwarding, delivering on arrival; the other orderings install the total-order
/// broadcast baselines (BaselineInstaller) with the same traffic, traces and CPU model.
class OnePipeProtocol : public Protocol
{
  public:
    static Spec ParamsSpec();
    static Spec WorkloadSpec();

    void Install(World& world, const ParamView& params, const ParamView& workload) override;
    void CollectMetrics(nlohmann::json& metrics) const override;

    const Stats& GetStats() const { return m_stats; }
    OnePipeEndpoint& Process(uint32_t id) const { return *m_processes[id]; }
    size_t NumProcesses() const { return m_processes.size(); }

  protected:
    /// Application hooks: a protocol built on 1Pipe's endpoints (docs/onepipe-apps.md) gives
    /// the processes its own traffic. The default is the microbenchmarks' ScatterApp.
    /// Reads /workload (before any process exists).
    virtual void ReadWorkload(World& world, const ParamView& workload);
    /// Gives process `id` (of `processes`) its application.
    virtual void AttachApplication(World& world, OnePipeEndpoint& process, uint32_t id,
                                   uint32_t processes);
    /// After every process and the failure handling are installed.
    virtual void StartApplications();
    /// How long the workload was active (throughput's denominator) and its message size.
    void SetWorkloadWindow(int64_t activePs, uint32_t messageBytes)
    {
        m_activePs = activePs;
        m_messageBytes = messageBytes;
    }

  private:
    enum class Incarnation
    {
        Chip,
        SwitchCpu,
        HostRepresentative
    };
    /// /protocol/params/incarnation.
    static const Choices<Incarnation>& IncarnationChoices();

    /// `silentPorts`: the ports of hosts that do not run lib1pipe (idle_hosts "silent"),
    /// neither live nor commit inputs.
    void ConfigureSwitch(P4Pipeline& pipeline, SwitchDevice& device, uint32_t upPorts,
                         const std::vector<uint32_t>& portGroups, uint32_t silentPorts) const;
    void InstallBeaconSources(World& world, const ParamView& params,
                              const std::vector<uint32_t>& upPorts,
                              const std::vector<std::vector<uint32_t>>& portGroups,
                              const std::vector<uint32_t>& silentPorts);
    /// Warns when an off-chip beacon processor cannot serve even one beacon per port and
    /// interval.
    void WarnIfBeaconProcessorsOverloaded(const std::string& incarnation) const;
    /// The off-chip beacon processor offered the most work: beacons punted to it x its service
    /// time / the run's duration (above 1, overloaded); none on the chip.
    struct ProcessorLoad
    {
        double load = 0;
        const BeaconProcessor* processor = nullptr;
    };
    ProcessorLoad BusiestBeaconProcessor() const;
    /// The reliable service's requirements on the rest of the scenario (InputError).
    static void CheckReliableSetup(const Scenario& scenario, const ParamView& params,
                                   Ordering ordering, const Topology& topology,
                                   uint32_t controllerNode);
    /// Reliable service: the controller, its processes' hooks and a failure detector per switch.
    void InstallFailureHandling(World& world, const ParamView& params, uint32_t controllerNode);
    PrepareChannels::Channel::Counters PrepareCounters() const;

    HostConfig m_config;
    std::string m_ordering;
    /// Off the chip: the CPU-port time per beacon (switch CPU or representative).
    int64_t m_beaconServicePs = 0;
    Incarnation m_incarnation = Incarnation::Chip;
    bool m_aggregate = false;
    int64_t m_portTimeoutIntervals = 0;
    int64_t m_activePs = 0;
    int64_t m_durationPs = 0;
    uint32_t m_messageBytes = 0;
    Stats m_stats;
    std::vector<ns3::Ptr<OnePipeHost>> m_hosts;
    std::vector<ns3::Ptr<OnePipeEndpoint>> m_processes;
    ScatterWorkload m_traffic;
    std::vector<std::unique_ptr<ScatterApp>> m_apps;
    std::vector<std::unique_ptr<BeaconGenerator>> m_generators;
    std::vector<std::unique_ptr<BeaconProcessor>> m_processors;
    std::unique_ptr<BaselineInstaller> m_baselines;
    std::unique_ptr<FailureController> m_controller;
    std::vector<std::unique_ptr<ChipCommitInputs>> m_chipInputs;
    /// Per node, the ports towards a switch of the same or a higher tier.
    std::vector<uint32_t> m_upPorts;
    /// Chip incarnation: each switch's port groups, which its control plane writes again when
    /// it recovers (a deque: the recovery callbacks point into it).
    std::deque<std::vector<uint32_t>> m_portGroups;
    std::vector<std::unique_ptr<FailureDetector>> m_detectors;
    World* m_world = nullptr;
};

/// Adds "onepipe" to Protocols(); idempotent.
void RegisterOnePipeProtocol();

} // namespace incsim::onepipe

#endif
