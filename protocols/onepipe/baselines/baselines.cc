#include "protocols/onepipe/baselines/baselines.h"

#include "protocols/onepipe/barrier-directions.h"
#include "protocols/onepipe/baselines/baseline-wire.h"
#include "protocols/onepipe/baselines/lamport.h"
#include "protocols/onepipe/baselines/token-ring.h"
#include "sim/core/diagnostics.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/headers.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"

#include <algorithm>

namespace incsim::onepipe
{

void
BaselineInstaller::ConfigureSequencerSwitch(World& world, const BaselineSetup& setup,
                                            const std::string& program, const std::string& where)
{
    const Topology& topology = world.GetTopology();
    // The sequencer: the switch farthest from the hosts (a core switch), lowest id first.
    const std::vector<uint32_t> fromHosts = HopDistances(topology, topology.Hosts());
    uint32_t sequencer = topology.Switches().front();
    for (uint32_t node : topology.Switches())
    {
        if (fromHosts[node] != kUnreached && fromHosts[node] > fromHosts[sequencer])
        {
            sequencer = node;
        }
    }
    // Every other switch: one port towards it, on a shortest path.
    const std::vector<uint32_t> toSequencer = HopDistances(topology, {sequencer});
    std::vector<uint32_t> toward(topology.NumNodes(), 0);
    for (uint32_t node : topology.Switches())
    {
        for (uint32_t port = 0; port < topology.NumPorts(node) && node != sequencer; ++port)
        {
            if (toSequencer[topology.Peer(node, port).peerNode] + 1 == toSequencer[node])
            {
                toward[node] = port;
                break;
            }
        }
    }
    world.SetPipelineFactory(world.ProgramPipelineFactory(
        program, where,
        [&world, setup, sequencer, toward](P4Pipeline& pipeline, SwitchDevice& device) {
            p4rt::ControlPlane& control = pipeline.Control();
            const bool isSequencer = device.NodeId() == sequencer;
            using configure = sequencer_contract::MyIngress::configure;
            control.SetDefaultAction(
                sequencer_contract::MyIngress::sequencer_config::kName, configure::kName,
                {{configure::is_sequencer::kName, p4rt::BitString(isSequencer ? 1 : 0)},
                 {configure::toward_port::kName, p4rt::BitString(toward[device.NodeId()])}});
            if (!isSequencer)
            {
                return;
            }
            std::vector<p4rt::Replica> replicas;
            for (uint32_t process = 0; process < setup.processes; ++process)
            {
                const uint32_t host = process / setup.processesPerHost;
                const auto hops = world.Routes().NextHops(sequencer, host);
                if (hops.size == 0)
                {
                    continue;
                }
                replicas.push_back(p4rt::Replica{hops.data[0], process + 1});
                using receivers = sequencer_contract::MyEgress::receivers;
                using toProcess = sequencer_contract::MyEgress::to_process;
                control.AddEntry(
                    receivers::kName,
                    {{receivers::kKeys[0], p4rt::MatchValue::Exact(p4rt::BitString(process + 1))}},
                    toProcess::kName,
                    {{toProcess::addr::kName, p4rt::BitString(HostIpv4(host))},
                     {toProcess::udp_port::kName,
                      p4rt::BitString(kPortBase + process % setup.processesPerHost)}});
            }
            control.SetMulticastGroup(sequencer_contract::RECEIVERS_GROUP, std::move(replicas));
        }));
}

void
BaselineInstaller::Install(World& world, Baseline baseline, const ParamView& params,
                           const ScatterWorkload& traffic, uint32_t processHosts,
                           const BaselineSetup& setup)
{
    const uint32_t numHosts = static_cast<uint32_t>(world.NumHosts());
    const uint32_t sequencerHost = numHosts - 1;
    if (baseline == Baseline::SequencerSwitch)
    {
        ConfigureSequencerSwitch(world, setup, sequencer_contract::kProgram,
                                 params.Path() + "/ordering");
    }
    else if (baseline == Baseline::SequencerHost)
    {
        m_sequencer = ns3::CreateObject<HostSequencer>();
        world.Host(sequencerHost).Bind(kSequencerPort, m_sequencer);
        m_sequencer->Configure(setup, params.DurationNs("sequencer_cost") * kPsPerNs);
    }
    for (uint32_t h = 0; h < processHosts; ++h)
    {
        for (uint32_t p = 0; p < setup.processesPerHost; ++p)
        {
            const uint32_t id = h * setup.processesPerHost + p;
            ns3::Ptr<OrderedBroadcast> process;
            ns3::Ptr<TokenProcess> token;
            ns3::Ptr<LamportProcess> lamport;
            switch (baseline)
            {
            case Baseline::SequencerSwitch:
            case Baseline::SequencerHost: {
                auto sequenced = ns3::CreateObject<SequencedProcess>();
                // The switch sequencer's detour starts at the first switch: any address does.
                sequenced->SetSequencer(baseline == Baseline::SequencerHost ? sequencerHost : h);
                process = sequenced;
                break;
            }
            case Baseline::Token:
                process = token = ns3::CreateObject<TokenProcess>();
                break;
            case Baseline::Lamport:
                process = lamport = ns3::CreateObject<LamportProcess>();
                break;
            }
            world.Host(h).Bind(static_cast<uint16_t>(kPortBase + p), process);
            process->Configure(id, setup);
            if (token)
            {
                token->Start();
            }
            if (lamport)
            {
                lamport->Start(params.DurationNs("exchange_interval") * kPsPerNs);
            }
            m_processes.push_back(process);
            OrderedBroadcast* raw = PeekPointer(process);
            m_apps.push_back(std::make_unique<ScatterApp>(
                id, [raw](const std::vector<Outgoing>& scattering) { raw->Broadcast(scattering); },
                traffic, setup.processes, world.MakeRng("onepipe-workload", id)));
            process->SetTransmittedCallback([app = m_apps.back().get()]() { app->Transmitted(); });
        }
    }
    for (auto& app : m_apps)
    {
        app->Start();
    }
}

} // namespace incsim::onepipe
