#include "bench/ns3-fabric.h"

#include "sim/topology/topology.h"

#include <ns3/data-rate.h>
#include <ns3/nstime.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/queue-size.h>

namespace incsim::bench
{

uint32_t
DeviceQueuePackets(const TrafficSpec& spec)
{
    return (512 * 1024) / spec.PppFrameBytes();
}

Ns3Fabric
BuildNs3FabricNodes(const Topology& topology)
{
    Ns3Fabric fabric;
    fabric.nodes.Create(static_cast<uint32_t>(topology.NumNodes()));
    fabric.devices.resize(topology.NumNodes());
    for (uint32_t node = 0; node < topology.NumNodes(); ++node)
    {
        fabric.devices[node].resize(topology.NumPorts(node));
    }
    return fabric;
}

void
BuildNs3FabricLinks(Ns3Fabric& fabric, const Topology& topology, const TrafficSpec& spec)
{
    ns3::PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", ns3::DataRateValue(ns3::DataRate(spec.rateBps)));
    p2p.SetChannelAttribute("Delay", ns3::TimeValue(ns3::NanoSeconds(spec.delayNs)));
    p2p.SetQueue("ns3::DropTailQueue<Packet>",
                 "MaxSize",
                 ns3::QueueSizeValue(ns3::QueueSize(ns3::QueueSizeUnit::PACKETS,
                                                    DeviceQueuePackets(spec))));
    for (uint32_t id = 0; id < topology.NumLinks(); ++id)
    {
        const LinkInfo& link = topology.Link(id);
        ns3::NetDeviceContainer pair = p2p.Install(fabric.nodes.Get(link.a), fabric.nodes.Get(link.b));
        fabric.devices[link.a][link.portA] =
            ns3::DynamicCast<ns3::PointToPointNetDevice>(pair.Get(0));
        fabric.devices[link.b][link.portB] =
            ns3::DynamicCast<ns3::PointToPointNetDevice>(pair.Get(1));
    }
}

} // namespace incsim::bench
