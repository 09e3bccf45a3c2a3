#include "protocols/onepipe/onepipe-protocol.h"

#include "protocols/onepipe/barrier-directions.h"
#include "protocols/onepipe/onepipe-checker.h"
#include "protocols/onepipe/onepipe-traces.h"
#include "protocols/onepipe/onepipe-wire.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"
#include "sim/net/headers.h"
#include "sim/runner/latency-metrics.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/schema/time-window.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"
#include "sim/trace/trace-outputs.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace incsim::onepipe
{

namespace
{
/// The ports the program keeps a barrier for (a bit each in live_ports and up_ports).
constexpr uint32_t kProgramPorts = contract::MyIngress::port_barrier::kSize;
static_assert(contract::MyIngress::live_ports::kWidth == kProgramPorts &&
              contract::MyIngress::configure::up_ports::kWidth == kProgramPorts);
/// A beacon on the wire: a minimum-size frame plus preamble, FCS and gap.
constexpr double kBeaconWireBytes = kMinFrameBytes + kWireOverheadBytes;

/// Every port of `device` that has a neighbour.
uint32_t
ConnectedPorts(const SwitchDevice& device)
{
    uint32_t connected = 0;
    for (uint32_t port = 0; port < device.NumPorts(); ++port)
    {
        connected |= 1u << port;
    }
    return connected;
}

/// A switch that recovers lost its registers: its control plane writes them as at start (the
/// barrier inputs, a silent host's port excepted, and each port's group) and marks the inputs
/// just heard, so that every neighbour counts until it proves silent (a switch that admitted
/// ports one by one would stamp its hosts' barriers first and block its up ports). Commit
/// inputs are the failure detector's to re-admit.
void
RestoreLivePorts(SwitchDevice* device, uint32_t silentPorts,
                 const std::vector<uint32_t>* portGroups, bool up)
{
    if (!up)
    {
        return;
    }
    p4rt::ControlPlane& control = dynamic_cast<P4Pipeline*>(device->GetPipeline())->Control();
    control.WriteRegister(contract::MyIngress::live_ports::kName, 0,
                          p4rt::BitString(ConnectedPorts(*device) & ~silentPorts));
    for (uint32_t port = 0; port < portGroups->size(); ++port)
    {
        control.WriteRegister(contract::MyIngress::port_group::kName, port,
                              p4rt::BitString((*portGroups)[port]));
    }
    // Heard now (in the pipeline's microseconds), or the next tick would time them all out.
    const uint64_t nowUs = static_cast<uint64_t>(NowPs() / (1000 * kPsPerNs));
    for (uint32_t port = 0; port < device->NumPorts(); ++port)
    {
        control.WriteRegister(contract::MyIngress::last_seen_us::kName, port,
                              p4rt::BitString(nowUs));
    }
}

/// The baseline an ordering installs; none for 1Pipe and the unordered baseline.
std::optional<Baseline>
BaselineOf(Ordering ordering)
{
    switch (ordering)
    {
    case Ordering::Total:
    case Ordering::None:
        return std::nullopt;
    case Ordering::SequencerSwitch:
        return Baseline::SequencerSwitch;
    case Ordering::SequencerHost:
        return Baseline::SequencerHost;
    case Ordering::Token:
        return Baseline::Token;
    case Ordering::Lamport:
        return Baseline::Lamport;
    }
    throw std::logic_error("BaselineOf: unknown ordering");
}

/// Whether hosts without processes beacon ("beacon") or stay silent ("silent").
const Choices<bool>&
IdleHostsBeaconChoices()
{
    static const Choices<bool> choices{{"beacon", true}, {"silent", false}};
    return choices;
}

/// Whether timestamps come from a logical clock ("logical") or the host clock ("physical").
const Choices<bool>&
LogicalClockChoices()
{
    static const Choices<bool> choices{{"physical", false}, {"logical", true}};
    return choices;
}

/// /protocol/params/reliable_delivery: which barrier releases reliable messages (true: the
/// best-effort barrier, the checker's negative control).
const Choices<bool>&
DeliverOnBarrierChoices()
{
    static const Choices<bool> choices{{"commit", false}, {"barrier", true}};
    return choices;
}

/// /protocol/params/retransmit_timer: whether prepare channels adapt their timeout.
const Choices<bool>&
RetransmitTimerChoices()
{
    static const Choices<bool> choices{{"adaptive", true}, {"fixed", false}};
    return choices;
}

/// /protocol/params/controller_mode.
const Choices<ControllerMode>&
ControllerModeChoices()
{
    static const Choices<ControllerMode> choices{{"full", ControllerMode::Full},
                                                 {"skip-discard", ControllerMode::SkipDiscard},
                                                 {"skip-recall", ControllerMode::SkipRecall},
                                                 {"skip-recovery-recalls",
                                                  ControllerMode::SkipRecoveryRecalls}};
    return choices;
}

const Choices<ScatterWorkload::Pattern>&
PatternChoices()
{
    static const Choices<ScatterWorkload::Pattern> choices{
        {"broadcast", ScatterWorkload::Pattern::Broadcast},
        {"unicast", ScatterWorkload::Pattern::Unicast},
        {"scatter", ScatterWorkload::Pattern::Scatter}};
    return choices;
}

} // namespace

const Choices<Ordering>&
OrderingChoices()
{
    static const Choices<Ordering> choices{{"total", Ordering::Total},
                                           {"none", Ordering::None},
                                           {"sequencer-switch", Ordering::SequencerSwitch},
                                           {"sequencer-host", Ordering::SequencerHost},
                                           {"token", Ordering::Token},
                                           {"lamport", Ordering::Lamport}};
    return choices;
}

const Choices<Service>&
ServiceChoices()
{
    static const Choices<Service> choices{{"best-effort", Service::BestEffort},
                                          {"reliable", Service::Reliable}};
    return choices;
}

const Choices<OnePipeProtocol::Incarnation>&
OnePipeProtocol::IncarnationChoices()
{
    static const Choices<Incarnation> choices{
        {"chip", Incarnation::Chip},
        {"switch-cpu", Incarnation::SwitchCpu},
        {"host-representative", Incarnation::HostRepresentative}};
    return choices;
}

Spec
OnePipeProtocol::ParamsSpec()
{
    return Spec::Object()
        .Field("ordering",
               Spec::Enum(OrderingChoices()),
               "total: 1Pipe's total order; none: the unordered baseline (plain forwarding, "
               "delivery on arrival, no beacons); the total-order broadcast baselines of Fig. 8 "
               "(broadcast workloads only): a sequencer in a switch (p4/sequencer.p4 on the "
               "highest-tier switch) or on the last host's NIC, token passing, or Lamport "
               "timestamps with periodic exchange",
               "total")
        .Field("sequencer_cost", Spec::Duration(),
               "sequencer-host: the NIC's time per copy it sends", "10ns")
        .Field("exchange_interval", Spec::Duration().Min(1),
               "lamport: how often every process sends its clock to every other", "10us")
        .OptionalField("process_hosts", Spec::Integer().Min(1),
                       "how many hosts (the first ones) run processes (default: all)")
        .Field("idle_hosts", Spec::Enum(IdleHostsBeaconChoices()),
               "hosts without processes: beacon like every 1Pipe host (barriers span the whole "
               "network), or stay silent: they do not run lib1pipe, so their switch ports are "
               "not barrier (or commit) inputs from the start and barriers cover only the "
               "process hosts (a deployment limited to the participants, as the paper's testbed)",
               "beacon")
        .Field("program", Spec::String(),
               "the switch P4 program (compiled into incsim) that aggregates barriers, with "
               "onepipe.p4's control-plane contract",
               contract::kProgram)
        .Field("incarnation", Spec::Enum(IncarnationChoices()),
               "where switches aggregate barriers: the programmable chip (per packet), the "
               "switch CPU (beacons only, each costing /switches/cpu_service_time), or a host "
               "representative per switch (beacons only, representative_cost each, "
               "representative_delay away); off the chip, hosts take barriers from beacons only",
               "chip")
        .Field("representative_delay", Spec::Duration(),
               "host-representative: one way between a switch and its representative host",
               "1us")
        .Field("representative_cost", Spec::Duration().Min(1),
               "host-representative: the representative's CPU time per beacon received, and per "
               "broadcast",
               "100ns")
        .Field("aggregation", Spec::Bool(),
               "barrier aggregation in the switches; false is the tests' negative control "
               "(packets keep their sender's barrier)",
               true)
        .Field("beacon_interval", Spec::Duration().Min(1), "beacon period of hosts and switches",
               "3us")
        .Field("port_timeout", Spec::Integer().Min(2).Max(1000000),
               "beacon intervals without a packet after which a switch port stops counting", 10)
        .Field("processes_per_host", Spec::Integer().Min(1).Max(kMaxProcessesPerHost),
               "1Pipe processes on every host", 1)
        .Field("clock", Spec::Enum(LogicalClockChoices()),
               "timestamps from the host clock (/clocks), or a logical clock whose speed "
               "follows receivers' feedback with no synchronisation; either reads at least "
               "every barrier its host received",
               "physical")
        .Field("clock_gain", Spec::Number().Min(0).Max(1),
               "logical clock: after feedback delta (ns) the clock runs at 1 - clock_gain x "
               "delta times its oscillator for 1 / clock_gain ns",
               1e-5)
        .Field("service", Spec::Enum(ServiceChoices()),
               "Table 1's service for every process: best-effort (delivery on the best-effort "
               "barrier, losses reported to the sender) or reliable (paper 5.1: prepare with "
               "ACKs and retransmission, delivery on the commit barrier, failures handled by "
               "the controller; with ordering \"none\", the unordered transport's: the same "
               "ACKs and retransmission, delivery on arrival, no failure handling)",
               "best-effort")
        .Field("retransmit_timeout", Spec::Duration().Min(1),
               "reliable: a prepare channel's least retransmission timeout "
               "(retransmit_timer \"fixed\": its only one)",
               "30us")
        .Field("retransmit_timeout_max", Spec::Duration().Min(1),
               "reliable, retransmit_timer \"adaptive\": the largest retransmission timeout, "
               "and the timeout while the sender has measured no round trip (RFC 6298's "
               "conservative initial one; its first sample re-arms the timers)",
               "10ms")
        .Field("retransmit_timer", Spec::Enum(RetransmitTimerChoices()),
               "reliable: adaptive (per channel, from round trips the ACKs' echoed send times "
               "measure, as TCP's: RFC 6298 and 7323; a timer runs from the oldest segment's send) "
               "or fixed (retransmit_timeout, a timeout resends the window: RDMA RC's timer)",
               "adaptive")
        .Field("forward_after", Spec::Integer().Min(0),
               "reliable: retransmission rounds of a prepare channel without an ACK before its "
               "sender asks the controller to forward it (paper 5.2, controller forwarding); 0 "
               "never asks",
               3)
        .Field("commit_interval", Spec::Duration(),
               "reliable: a host sends a commit message when its commit barrier advances, at "
               "most one per this long (beacons carry it too)",
               "1us")
        .Field("reliable_delivery", Spec::Enum(DeliverOnBarrierChoices()),
               "reliable: deliver on the commit barrier; \"barrier\" (the best-effort one) is "
               "the checker's negative control",
               "commit")
        .OptionalField("controller_host", Spec::Integer().Min(0),
                       "reliable: the host (index) of the failure-handling controller, the root "
                       "of its routing graph (default: the last host); faults may not take "
                       "down it, its links or its switches")
        .Field("controller_delay", Spec::Duration(),
               "reliable: one way over the management network, for every message between the "
               "controller and a switch or process",
               "2us")
        .Field("controller_cost", Spec::Duration(),
               "reliable: the controller's CPU time per message it receives or sends, served "
               "one at a time",
               "300ns")
        .Field("determine_wait", Spec::Duration(),
               "reliable: from the first failure report of a round to the controller's "
               "Determine step (the other reports of the same failure arrive meanwhile)",
               "3us")
        .Field("completion_timeout", Spec::Duration(),
               "reliable: the controller declares failed a correct process that has not "
               "completed a failure notice this long after its broadcast (paper 5.2: \"if a "
               "process does not respond to the controller within timeout, it is considered "
               "as failed\"); 0 waits for ever",
               "1ms")
        .OptionalField("unresponsive_process", Spec::Integer().Min(0),
                       "reliable, test only: this process ignores failure notices, as one hung "
                       "while handling one (the completion timeout must declare it failed)")
        .Field("controller_mode", Spec::Enum(ControllerModeChoices()),
               "reliable: how processes answer a failure notice; \"skip-discard\" and "
               "\"skip-recall\" leave out that step, \"skip-recovery-recalls\" has a "
               "recovering process ignore the recalls kept for it: the checker's negative "
               "controls",
               "full")
        .Field("receive_loss", Spec::Number().Min(0).Below(1),
               "probability that lib1pipe drops a 1Pipe packet it receives (data, ACK, "
               "prepare, beacon), at every host, at every host representative, and each "
               "process's beacon to its NIC's representative: the paper's Fig. 9b loss, \"random message drop in lib1pipe receiver\" (link loss is "
               "/links/loss)",
               0.0)
        .Field("ack_timeout", Spec::Duration().Min(1),
               "a message with no ACK after this is reported to the send-failure callback",
               "200us")
        .Field("ack_delay", Spec::Duration(), "receivers batch ACKs to a sender for this long",
               "1us")
        .Field("priority", PrioritySpec(),
               "switch and NIC queue of 1Pipe packets and beacons (they must share one)", 0);
}

Spec
OnePipeProtocol::WorkloadSpec()
{
    return Spec::Object()
        .Field("pattern", Spec::Enum(PatternChoices()),
               "each scattering goes to every other process, one random process, or `fanout` "
               "random processes",
               "broadcast")
        .Field("fanout", Spec::Integer().Min(1), "destinations per scattering (scatter)", 4)
        .Field("message_size", Spec::Size().Min(1).Max(16 * 1024 * 1024),
               "size of each message; fragmented to the MTU", "64B")
        .Field("interval", Spec::Duration().Min(1),
               "mean time between a process's scatterings", "10us")
        .Field("arrivals", Spec::Enum(PoissonArrivalsChoices()), "scattering inter-arrival times",
               "poisson")
        .Field("max_unsent", Spec::Integer().Min(0),
               "scatterings of a process that may wait to leave its host (send CPU cost "
               "unpaid, no token yet, or packets in the NIC); one due beyond that is sent as "
               "soon as one has left: a blocking send, as an RDMA send queue, which keeps a "
               "saturating workload's queues bounded (0: unbounded, open loop)",
               0)
        .Field("start", Spec::Duration(), "when processes start sending", "0ns")
        .OptionalField("stop", Spec::Duration(),
                       "when processes stop sending (default: the end of the run)");
}

void
OnePipeProtocol::ConfigureSwitch(P4Pipeline& pipeline, SwitchDevice& device,
                                 uint32_t upPorts, const std::vector<uint32_t>& portGroups,
                                 uint32_t silentPorts) const
{
    p4rt::ControlPlane& control = pipeline.Control();
    const uint64_t aggregateMode =
        m_incarnation == Incarnation::Chip ? contract::MODE_CHIP : contract::MODE_CPU;
    const uint64_t mode = m_aggregate ? aggregateMode : contract::MODE_OFF;
    const int64_t timeoutNs = m_config.beaconIntervalNs * m_portTimeoutIntervals;
    using configure = contract::MyIngress::configure;
    control.SetDefaultAction(contract::MyIngress::onepipe_config::kName, configure::kName,
                             {{configure::up_ports::kName, p4rt::BitString(upPorts)},
                              {configure::cpu_port::kName, p4rt::BitString(device.CpuPort())},
                              {configure::timeout_us::kName,
                               p4rt::BitString(static_cast<uint64_t>((timeoutNs + 999) / 1000))},
                              {configure::priority::kName, p4rt::BitString(m_config.priority)},
                              {configure::mode::kName, p4rt::BitString(mode)}});
    std::vector<p4rt::Replica> replicas;
    const uint32_t connected = ConnectedPorts(device);
    for (uint32_t port = 0; port < device.NumPorts(); ++port)
    {
        replicas.push_back(p4rt::Replica{port, 0});
    }
    control.SetMulticastGroup(contract::ALL_PORTS_GROUP, std::move(replicas));
    const uint32_t inputs = connected & ~silentPorts;
    control.WriteRegister(contract::MyIngress::live_ports::kName, 0, p4rt::BitString(inputs));
    for (uint32_t port = 0; port < portGroups.size(); ++port)
    {
        control.WriteRegister(contract::MyIngress::port_group::kName, port,
                              p4rt::BitString(portGroups[port]));
    }
    // Best effort takes no commit barrier; the reliable service every connected port's but a
    // silent host's, until the controller removes a failed one.
    control.WriteRegister(contract::MyIngress::commit_live::kName, 0,
                          p4rt::BitString(m_config.reliable ? inputs : 0));
}

void
OnePipeProtocol::InstallBeaconSources(World& world, const ParamView& params,
                                      const std::vector<uint32_t>& upPorts,
                                      const std::vector<std::vector<uint32_t>>& portGroups,
                                      const std::vector<uint32_t>& silentPorts)
{
    if (m_incarnation == Incarnation::Chip)
    {
        for (const auto& device : world.Switches())
        {
            m_generators.push_back(
                std::make_unique<BeaconGenerator>(*device, m_config.beaconIntervalNs));
            m_generators.back()->Start();
            m_portGroups.push_back(portGroups[device->NodeId()]);
            device->TraceConnectWithoutContext(
                "State", ns3::MakeBoundCallback(&RestoreLivePorts, PeekPointer(device),
                                                silentPorts[device->NodeId()],
                                                static_cast<const std::vector<uint32_t>*>(
                                                    &m_portGroups.back())));
        }
        return;
    }
    BeaconProcessorConfig config;
    config.intervalNs = m_config.beaconIntervalNs;
    config.portTimeoutIntervals = m_portTimeoutIntervals;
    config.priority = m_config.priority;
    config.commitInputs = m_config.reliable;
    const bool representative = m_incarnation == Incarnation::HostRepresentative;
    const int64_t representativeCostNs = params.DurationNs("representative_cost");
    config.linkDelayPs = representative ? params.DurationNs("representative_delay") * kPsPerNs : 0;
    config.broadcastDelayPs =
        (representative ? representativeCostNs
                        : world.GetScenario().Section("switch").DurationNs("cpu_service_time")) *
        kPsPerNs;
    // The CPU port serves one beacon per broadcast delay: the switch CPU's service time, or
    // the representative's cost per beacon.
    m_beaconServicePs = config.broadcastDelayPs;
    for (const auto& device : world.Switches())
    {
        if (representative)
        {
            device->SetAttribute("CpuServiceTime",
                                 ns3::TimeValue(ns3::NanoSeconds(representativeCostNs)));
        }
        config.upPorts = upPorts[device->NodeId()];
        config.portGroups = portGroups[device->NodeId()];
        config.silentPorts = silentPorts[device->NodeId()];
        if (representative)
        {
            config.receiveLoss = m_config.receiveLoss;
            config.lossRng = world.MakeRng("onepipe-representative-loss", device->NodeId());
        }
        m_processors.push_back(std::make_unique<BeaconProcessor>(*device, config));
        m_processors.back()->Start();
    }
    WarnIfBeaconProcessorsOverloaded(params.String("incarnation"));
}

void
OnePipeProtocol::WarnIfBeaconProcessorsOverloaded(const std::string& incarnation) const
{
    // Every neighbour sends a port at least one beacon per interval, so a processor serving
    // one beacon at a time needs ports x service time <= interval to keep up; beyond that its
    // queue, and with it the barrier's lag and every delivery's latency, grows without bound.
    const int64_t intervalPs = m_config.beaconIntervalNs * kPsPerNs;
    const BeaconProcessor* worst = nullptr;
    uint32_t overloaded = 0;
    for (const auto& processor : m_processors)
    {
        const int64_t demandPs = processor->NumPorts() * m_beaconServicePs;
        if (demandPs > intervalPs)
        {
            ++overloaded;
            if (worst == nullptr || processor->NumPorts() > worst->NumPorts())
            {
                worst = processor.get();
            }
        }
    }
    if (worst == nullptr)
    {
        return;
    }
    const double needPerUs = worst->NumPorts() * 1e6 / static_cast<double>(intervalPs);
    const double servePerUs = 1e6 / static_cast<double>(m_beaconServicePs);
    spdlog::warn("1Pipe {}: the beacon processor of switch {} needs at least {:.2f} beacons/us "
                 "(one per port per {} ns beacon interval, {} ports) and can serve {:.2f}/us "
                 "({} ns each): overloaded by {:.1f}x{}, so barriers and delivery latency "
                 "grow without bound; lower its service time or raise "
                 "/protocol/params/beacon_interval",
                 incarnation, worst->Device().Name(), needPerUs, m_config.beaconIntervalNs,
                 worst->NumPorts(), servePerUs, m_beaconServicePs / kPsPerNs,
                 needPerUs / servePerUs,
                 overloaded > 1 ? fmt::format(" ({} switches overloaded)", overloaded) : "");
}

OnePipeProtocol::ProcessorLoad
OnePipeProtocol::BusiestBeaconProcessor() const
{
    ProcessorLoad busiest;
    for (const auto& processor : m_processors)
    {
        const double busyPs = static_cast<double>(processor->Device().GetCounters().toCpu) *
                              static_cast<double>(m_beaconServicePs);
        const double load = busyPs / static_cast<double>(m_durationPs);
        if (load > busiest.load)
        {
            busiest = {load, processor.get()};
        }
    }
    return busiest;
}

void
OnePipeProtocol::Install(World& world, const ParamView& params, const ParamView& workload)
{
    m_world = &world;
    const Scenario& scenario = world.GetScenario();
    const std::string& ordering = params.String("ordering");
    m_ordering = ordering;
    const Ordering order = params.Choice("ordering", OrderingChoices());
    m_config.ordered = order == Ordering::Total;
    const std::optional<Baseline> baseline = BaselineOf(order);
    m_aggregate = params.Bool("aggregation");
    m_incarnation = params.Choice("incarnation", IncarnationChoices());
    m_config.barrierInData = m_incarnation == Incarnation::Chip;
    m_config.beaconIntervalNs = params.DurationNs("beacon_interval");
    m_portTimeoutIntervals = params.Int("port_timeout");
    m_config.processesPerHost = static_cast<uint32_t>(params.Int("processes_per_host"));
    m_config.logicalClock = params.Choice("clock", LogicalClockChoices());
    m_config.clockGainPerNs = params.Number("clock_gain");
    m_config.ackTimeoutPs = params.DurationNs("ack_timeout") * kPsPerNs;
    m_config.ackDelayPs = params.DurationNs("ack_delay") * kPsPerNs;
    m_config.priority = static_cast<uint8_t>(params.Int("priority"));
    m_config.reliable = params.Choice("service", ServiceChoices()) == Service::Reliable;
    m_config.deliverOnBarrier = params.Choice("reliable_delivery", DeliverOnBarrierChoices());
    const int64_t retransmitPs = params.DurationNs("retransmit_timeout") * kPsPerNs;
    const int64_t retransmitMaxPs = params.DurationNs("retransmit_timeout_max") * kPsPerNs;
    if (retransmitMaxPs < retransmitPs)
    {
        params.Fail("retransmit_timeout_max", "expected at least retransmit_timeout");
    }
    m_config.retransmit = params.Choice("retransmit_timer", RetransmitTimerChoices())
                              ? RetransmitTimeout::Adaptive(retransmitPs, retransmitMaxPs)
                              : RetransmitTimeout::Fixed(retransmitPs);
    m_config.forwardAfter = static_cast<uint32_t>(params.Int("forward_after"));
    m_config.commitIntervalPs = params.DurationNs("commit_interval") * kPsPerNs;
    m_config.receiveLoss = params.Number("receive_loss");
    const uint32_t controllerHost =
        params.Has("controller_host")
            ? static_cast<uint32_t>(params.Int("controller_host"))
            : static_cast<uint32_t>(world.NumHosts() - 1);
    if (controllerHost >= world.NumHosts())
    {
        params.Fail("controller_host",
                    fmt::format("the topology has {} hosts", world.NumHosts()));
    }
    const uint32_t controllerNode = world.GetTopology().Hosts()[controllerHost];
    if (m_config.reliable)
    {
        CheckReliableSetup(scenario, params, order, world.GetTopology(), controllerNode);
    }
    m_config.maxPayload = world.MaxUdpPayloadBytes();
    if (m_config.maxPayload < Header::kBytes + MessageHeader::kBytes + 1)
    {
        throw InputError(scenario.File(), "/links/mtu",
                         "1Pipe needs room for its 36 bytes of headers and some payload");
    }

    const uint32_t numHosts = static_cast<uint32_t>(world.NumHosts());
    for (uint32_t h = 0; h < numHosts; ++h)
    {
        if (world.Host(h).NumPorts() != 1)
        {
            throw ConfigError(fmt::format("1Pipe: host {} has {} NICs; its barrier and beacons "
                                          "assume one uplink",
                                          world.Host(h).Name(), world.Host(h).NumPorts()));
        }
    }

    const uint32_t processHosts =
        params.Has("process_hosts") ? static_cast<uint32_t>(params.Int("process_hosts")) : numHosts;
    if (processHosts > numHosts)
    {
        params.Fail("process_hosts", fmt::format("the topology has {} hosts", numHosts));
    }
    const uint32_t numProcesses = processHosts * m_config.processesPerHost;
    if (numProcesses < 2)
    {
        params.Fail("process_hosts", "1Pipe needs at least two processes");
    }
    // The first processHosts run processes. The others beacon unless they are silent: they
    // do not run lib1pipe, which registers a host with the controller at start (paper 6.1),
    // so their switch ports are neither live nor commit inputs from the start.
    const uint32_t beaconHosts =
        params.Choice("idle_hosts", IdleHostsBeaconChoices()) ? numHosts : processHosts;
    std::vector<uint32_t> silentPorts(world.GetTopology().NumNodes(), 0);
    for (uint32_t h = beaconHosts; h < numHosts; ++h)
    {
        const Topology::PortPeer& tor = world.GetTopology().Peer(world.Host(h).NodeId(), 0);
        silentPorts[tor.peerNode] |= 1u << tor.peerPort;
    }

    if (m_config.ordered)
    {
        m_upPorts = UpPortMasks(world.GetTopology(), world.Routes(), kProgramPorts);
        const std::vector<std::vector<uint32_t>> portGroups =
            PortGroups(world.GetTopology(), world.Routes(), m_upPorts);
        world.SetPipelineFactory(world.ProgramPipelineFactory(
            params.String("program"), params.Path() + "/program",
            [this, portGroups, silentPorts](P4Pipeline& pipeline, SwitchDevice& device) {
                ConfigureSwitch(pipeline, device, m_upPorts[device.NodeId()],
                                portGroups[device.NodeId()], silentPorts[device.NodeId()]);
            }));
        InstallBeaconSources(world, params, m_upPorts, portGroups, silentPorts);
    }

    m_durationPs = world.DurationPs();
    ReadWorkload(world, workload);
    const ScatterWorkload& traffic = m_traffic;

    m_stats.sendPs.resize(numProcesses);
    Traces traces;
    traces.sends = world.Traces().Open(SendsTrace());
    traces.deliveries = world.Traces().Open(DeliveriesTrace());
    traces.failures = world.Traces().Open(FailuresTrace());
    traces.prepares = world.Traces().Open(PreparesTrace());
    traces.callbacks = world.Traces().Open(CallbacksTrace());

    if (baseline)
    {
        if (traffic.pattern != ScatterWorkload::Pattern::Broadcast)
        {
            workload.Fail("pattern", fmt::format("the {} baseline is a total-order broadcast: "
                                                 "use \"broadcast\"",
                                                 ordering));
        }
        if (traffic.messageBytes + BaselineHeader::kBytes > m_config.maxPayload)
        {
            workload.Fail("message_size",
                          fmt::format("the baselines send a message in one packet: at most {} "
                                      "bytes with this MTU",
                                      m_config.maxPayload - BaselineHeader::kBytes));
        }
        if (scenario.Section("links").Number("loss") > 0)
        {
            throw InputError(scenario.File(), "/links/loss",
                             fmt::format("the {} baseline has no retransmission (the paper "
                                         "compares on a lossless network): set the loss to 0",
                                         ordering));
        }
        m_baselines = std::make_unique<BaselineInstaller>();
        m_baselines->Install(world, *baseline, params, traffic, processHosts,
                             BaselineSetup{numProcesses, m_config.processesPerHost,
                                           m_config.priority, &m_stats, traces});
        return;
    }
    for (uint32_t h = 0; h < beaconHosts; ++h)
    {
        HostNode& node = world.Host(h);
        auto host = ns3::CreateObject<OnePipeHost>();
        host->Configure(node, m_config, &m_stats, world.MakeRng("onepipe-receive-loss", h));
        for (uint32_t p = 0; p < m_config.processesPerHost && h < processHosts; ++p)
        {
            const uint32_t id = h * m_config.processesPerHost + p;
            auto process = ns3::CreateObject<OnePipeEndpoint>();
            node.Bind(static_cast<uint16_t>(kPortBase + p), process);
            process->Configure(*host, id, &m_stats, traces, &m_processes);
            host->AddProcess(PeekPointer(process));
            AttachApplication(world, *process, id, numProcesses);
            m_processes.push_back(process);
        }
        host->Start();
        m_hosts.push_back(host);
    }
    if (m_config.reliable && m_config.ordered)
    {
        InstallFailureHandling(world, params, controllerNode);
    }
    StartApplications();
}

void
OnePipeProtocol::ReadWorkload(World& world, const ParamView& workload)
{
    m_traffic.pattern = workload.Choice("pattern", PatternChoices());
    m_traffic.fanout = static_cast<uint32_t>(workload.Int("fanout"));
    m_traffic.messageBytes = static_cast<uint32_t>(workload.SizeBytes("message_size"));
    m_traffic.meanIntervalPs = static_cast<double>(workload.DurationNs("interval") * kPsPerNs);
    m_traffic.poisson = workload.Choice("arrivals", PoissonArrivalsChoices());
    m_traffic.maxUnsent = static_cast<uint32_t>(workload.Int("max_unsent"));
    const TimeWindow window = ReadTimeWindow(workload, world.DurationPs(), "processes");
    m_traffic.startPs = window.startPs;
    m_traffic.stopPs = window.stopPs;
    m_messageBytes = m_traffic.messageBytes;
    m_activePs = window.ActivePs();
}

void
OnePipeProtocol::AttachApplication(World& world, OnePipeEndpoint& process, uint32_t id,
                                   uint32_t processes)
{
    OnePipeEndpoint* raw = &process;
    ScatterApp::Send send;
    if (m_config.reliable)
    {
        send = [raw](const std::vector<Outgoing>& scattering) { raw->ReliableSend(scattering); };
    }
    else
    {
        send = [raw](const std::vector<Outgoing>& scattering) { raw->UnreliableSend(scattering); };
    }
    m_apps.push_back(std::make_unique<ScatterApp>(id, std::move(send), m_traffic, processes,
                                                  world.MakeRng("onepipe-workload", id)));
    process.SetTransmittedCallback([app = m_apps.back().get()]() { app->Transmitted(); });
}

void
OnePipeProtocol::StartApplications()
{
    for (auto& app : m_apps)
    {
        app->Start();
    }
}

void
OnePipeProtocol::InstallFailureHandling(World& world, const ParamView& params,
                                        uint32_t controllerNode)
{
    ControllerConfig config;
    config.rootNode = controllerNode;
    config.delayPs = params.DurationNs("controller_delay") * kPsPerNs;
    config.costPs = params.DurationNs("controller_cost") * kPsPerNs;
    config.determineWaitPs = params.DurationNs("determine_wait") * kPsPerNs;
    config.processesPerHost = m_config.processesPerHost;
    config.completionTimeoutPs = params.DurationNs("completion_timeout") * kPsPerNs;
    if (params.Has("unresponsive_process"))
    {
        const auto process = static_cast<size_t>(params.Int("unresponsive_process"));
        if (process >= m_processes.size())
        {
            params.Fail("unresponsive_process",
                        fmt::format("expected a process id below {} (the run's processes)",
                                    m_processes.size()));
        }
        m_processes[process]->SetUnresponsive();
    }
    std::vector<OnePipeEndpoint*> processes;
    for (const auto& process : m_processes)
    {
        processes.push_back(PeekPointer(process));
    }
    m_controller = std::make_unique<FailureController>(
        world.GetTopology(), config, std::move(processes), world.Traces().Open(ControllerTrace()));
    const ControllerMode mode = params.Choice("controller_mode", ControllerModeChoices());
    FailureController* controller = m_controller.get();
    for (const auto& process : m_processes)
    {
        process->SetFailureHandling(
            mode,
            [controller](uint32_t id, uint64_t epoch) { controller->SendCompletion(id, epoch); },
            [controller](uint32_t id, std::vector<UndeliveredRecall> recalls) {
                controller->SendUndeliveredRecalls(id, std::move(recalls));
            },
            [controller](const ForwardRequest& request) { controller->SendForward(request); });
    }
    const int64_t intervalPs = m_config.beaconIntervalNs * kPsPerNs;
    const auto& switches = world.Switches();
    for (size_t i = 0; i < switches.size(); ++i)
    {
        SwitchDevice& device = *switches[i];
        CommitInputs* inputs = nullptr;
        if (m_incarnation == Incarnation::Chip)
        {
            m_chipInputs.push_back(
                std::make_unique<ChipCommitInputs>(device, m_upPorts[device.NodeId()]));
            inputs = m_chipInputs.back().get();
        }
        else
        {
            inputs = m_processors[i].get();
        }
        m_controller->AddSwitch(device.NodeId(), *inputs);
        FailureDetector::Callbacks callbacks;
        callbacks.report = [controller](uint32_t node, uint32_t port, uint64_t commit) {
            controller->SendReport(node, port, commit);
        };
        callbacks.repaired = [controller](uint32_t node, uint32_t port, bool) {
            controller->SendRepair(node, port);
        };
        callbacks.readmission = [controller](uint32_t node, uint32_t port, bool done) {
            controller->SendReadmission(node, port, done);
        };
        m_detectors.push_back(
            std::make_unique<FailureDetector>(device, *inputs, intervalPs, std::move(callbacks)));
        m_detectors.back()->Start();
    }
    std::vector<FailureDetector*> byNode(world.GetTopology().NumNodes(), nullptr);
    for (size_t i = 0; i < switches.size(); ++i)
    {
        byNode[switches[i]->NodeId()] = m_detectors[i].get();
    }
    m_controller->SetReadmit([byNode](uint32_t node, uint32_t port) {
        byNode[node]->Readmit(port);
    });
}

void
OnePipeProtocol::CheckReliableSetup(const Scenario& scenario, const ParamView& params,
                                    Ordering ordering, const Topology& topology,
                                    uint32_t controllerNode)
{
    if (ordering == Ordering::None)
    {
        // The unordered baseline's reliable transport (the lock and OCC baselines under loss,
        // docs/onepipe-apps.md): the same per-destination channels with ACKs and
        // retransmission, delivered on arrival; no barrier, so no beacon-timeout detection
        // and no controller.
        if (scenario.Section("faults").Size() > 0)
        {
            throw InputError(scenario.File(), "/faults",
                             "the reliable service with ordering \"none\" has no failure "
                             "handling (no beacons to time out): no faults");
        }
        return;
    }
    if (ordering != Ordering::Total)
    {
        params.Fail("service", fmt::format("the reliable service is 1Pipe's or the unordered "
                                           "transport's: it needs ordering \"total\" or "
                                           "\"none\", not \"{}\"",
                                           params.String("ordering")));
    }
    // The controller handles components going down and coming back (receiver recovery and
    // rejoin); the single controller instance must not fail.
    const std::string& controller = topology.Node(controllerNode).name;
    auto touchesController = [&](const std::string& name) {
        const std::optional<uint32_t> node = topology.FindNode(name);
        return node && (*node == controllerNode || topology.FindLink(*node, controllerNode));
    };
    const ParamView faults = scenario.Section("faults");
    for (size_t i = 0; i < faults.Size(); ++i)
    {
        const ParamView fault = faults.At(i);
        const FaultAction action = fault.Choice("action", FaultActionChoices());
        if (action == FaultAction::NodeCrash && touchesController(fault.String("node")))
        {
            fault.Fail("node", fmt::format("\"{}\" is the failure-handling controller's host "
                                           "\"{}\" or its switch; the single controller must "
                                           "not fail (set protocol.params.controller_host)",
                                           fault.String("node"), controller));
        }
        if (action == FaultAction::LinkDown)
        {
            const ParamView ends = fault.Get("link");
            if (ends.At(0).AsString() == controller || ends.At(1).AsString() == controller)
            {
                fault.Fail("link", fmt::format("a link of the failure-handling controller's "
                                               "host \"{}\"; the single controller must not "
                                               "fail (set protocol.params.controller_host)",
                                               controller));
            }
        }
    }
}

void
OnePipeProtocol::CollectMetrics(nlohmann::json& metrics) const
{
    const size_t processes = m_baselines ? m_baselines->NumProcesses() : m_processes.size();
    // Throughput counts what applications received (after their receive CPU cost), over the
    // time the workload was sending; see docs/traces.md.
    const double activeSeconds = m_activePs / 1e12;
    const double throughput = activeSeconds > 0 ? m_stats.messagesDelivered / activeSeconds : 0.0;
    if (m_stats.messagesDelivered == 0 && m_stats.messagesOffered > 0)
    {
        spdlog::warn("onepipe, ordering {}: no message reached an application in the run "
                     "({} offered, {} sent): its throughput and latency are 0 for want of "
                     "deliveries, not measured",
                     m_ordering, m_stats.messagesOffered, m_stats.messagesSent);
    }
    const ProcessorLoad busiest = BusiestBeaconProcessor();
    if (busiest.load > 1)
    {
        spdlog::warn("1Pipe: the beacon processor of switch {} was offered {:.2f}x the beacons "
                     "it can serve in the run",
                     busiest.processor->Device().Name(), busiest.load);
    }

    // Beacon overhead: beacon bits over capacity, per direction of every link that carries
    // beacons (switch ports from onepipe.p4's counter, host uplinks from the hosts).
    const double seconds = m_durationPs / 1e12;
    uint64_t switchBeacons = 0;
    uint64_t receiveDrops = m_stats.receiveDrops;
    for (const auto& processor : m_processors)
    {
        receiveDrops += processor->ReceiveDrops();
    }
    double overheadSum = 0;
    double overheadMax = 0;
    uint64_t directions = 0;
    auto addDirection = [&](uint64_t beacons, uint64_t rateBps) {
        const double share = beacons * kBeaconWireBytes * 8 / (seconds * rateBps);
        overheadSum += share;
        overheadMax = std::max(overheadMax, share);
        ++directions;
    };
    if (m_config.ordered && seconds > 0)
    {
        for (const auto& device : m_world->Switches())
        {
            auto* pipeline = dynamic_cast<P4Pipeline*>(device->GetPipeline());
            if (pipeline == nullptr || m_incarnation != Incarnation::Chip)
            {
                continue;
            }
            const p4rt::CounterArray& counter =
                pipeline->Control().GetCounter(contract::MyEgress::beacons_sent::kName);
            for (uint32_t port = 0; port < device->NumPorts(); ++port)
            {
                switchBeacons += counter.Packets(port);
                addDirection(counter.Packets(port),
                             m_world->PortOf(device->NodeId(), port).RateBps());
            }
        }
        for (const auto& processor : m_processors)
        {
            for (uint32_t port = 0; port < processor->NumPorts(); ++port)
            {
                switchBeacons += processor->BeaconsSent(port);
                addDirection(processor->BeaconsSent(port),
                             m_world->PortOf(processor->Device().NodeId(), port).RateBps());
            }
        }
        for (const auto& host : m_hosts)
        {
            addDirection(host->BeaconsSent(), host->Host().Port(0).RateBps());
        }
    }

    const PrepareChannels::Channel::Counters prepare = PrepareCounters();
    metrics = {
        {"processes", processes},
        {"messages_offered", m_stats.messagesOffered},
        {"messages_sent", m_stats.messagesSent},
        {"messages_delivered", m_stats.messagesDelivered},
        {"packets_sent", m_stats.packetsSent},
        {"acks_sent", m_stats.acksSent},
        {"delivery_ratio", m_stats.messagesSent
                               ? double(m_stats.messagesDelivered) / m_stats.messagesSent
                               : 0.0},
        {"send_failures",
         {{"timeout", m_stats.failuresTimeout},
          {"nak", m_stats.failuresNak},
          {"nic_full", m_stats.failuresNic},
          {"recalled", m_stats.failuresRecalled}}},
        {"late_drops", m_stats.lateDrops},
        {"incomplete_drops", m_stats.incompleteDrops},
        {"throughput_msgs_per_s", throughput},
        {"throughput_per_process_msgs_per_s",
         processes == 0 ? 0.0 : throughput / static_cast<double>(processes)},
        {"goodput_gbps", throughput * m_messageBytes * 8 / 1e9},
        {"clock_raises", m_stats.clockRaises},
        {"clock_joins", m_stats.clockJoins},
        {"prepare_retransmissions", prepare.retransmitted},
        {"prepare_timeouts", prepare.timeouts},
        {"prepare_spurious_timeouts", prepare.spuriousTimeouts},
        {"prepare_fast_retransmits", prepare.fastRetransmits},
        {"prepare_probes", prepare.probes},
        {"commit_messages", m_stats.commitMessages},
        {"controller_failed_processes", m_controller ? m_controller->FailedProcesses() : 0},
        {"controller_epochs", m_controller ? m_controller->Epochs() : 0},
        {"controller_rejoins", m_controller ? m_controller->Rejoins() : 0},
        {"controller_messages", m_controller ? m_controller->Messages() : 0},
        {"controller_forwards", m_controller ? m_controller->Forwards() : 0},
        {"controller_cpu_us", m_controller ? m_controller->BusyPs() / 1e6 : 0.0},
        {"host_beacons", m_stats.hostBeacons},
        {"receive_drops", receiveDrops},
        {"switch_beacons", switchBeacons},
        {"beacon_overhead_mean", directions ? overheadSum / directions : 0.0},
        {"beacon_overhead_max", overheadMax},
        {"beacon_processor_load_max", busiest.load}};
    AddLatencyMetrics(metrics, m_stats.latenciesPs, {5, 50, 95, 99});
}

PrepareChannels::Channel::Counters
OnePipeProtocol::PrepareCounters() const
{
    PrepareChannels::Channel::Counters total;
    for (const auto& process : m_processes)
    {
        total += process->PrepareCounters();
    }
    return total;
}

void
RegisterOnePipeProtocol()
{
    Protocols().Add("onepipe",
                    ProtocolInfo{"1Pipe best-effort total-order scattering (SIGCOMM 2021)",
                                 &OnePipeProtocol::ParamsSpec,
                                 &OnePipeProtocol::WorkloadSpec,
                                 [] { return std::make_unique<OnePipeProtocol>(); },
                                 OnePipeTraces(),
                                 &CheckRun});
}

} // namespace incsim::onepipe
