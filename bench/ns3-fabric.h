#ifndef INCSIM_BENCH_NS3_FABRIC_H
#define INCSIM_BENCH_NS3_FABRIC_H

#include "bench/traffic.h"

#include <ns3/node-container.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/ptr.h>

#include <cstdint>
#include <vector>

namespace incsim::bench
{

/// A Topology mirrored in stock ns-3: one ns3::Node per topology node (same index) and one
/// PointToPointHelper link per topology link, so devices[node][port] is the device on the
/// topology's port. Both ns-3 references build their network this way.
struct Ns3Fabric
{
    ns3::NodeContainer nodes;
    std::vector<std::vector<ns3::Ptr<ns3::PointToPointNetDevice>>> devices; // [node][port]
};

/// Packets per device queue: about incsim's 512KiB egress buffer in frames of this size.
uint32_t DeviceQueuePackets(const TrafficSpec& spec);

/// Creates the nodes; the IP reference installs its Internet stack before the links.
Ns3Fabric BuildNs3FabricNodes(const Topology& topology);
/// Adds a point-to-point link (rate, delay, DropTail queue) per topology link.
void BuildNs3FabricLinks(Ns3Fabric& fabric, const Topology& topology, const TrafficSpec& spec);

} // namespace incsim::bench

#endif
