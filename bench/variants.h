#ifndef INCSIM_BENCH_VARIANTS_H
#define INCSIM_BENCH_VARIANTS_H

#include "bench/traffic.h"

#include <nlohmann/json.hpp>

#include <cstdint>

namespace incsim::bench
{

// The three simulators of the forwarding benchmark. Each builds the fat-tree of `spec`, runs
// the same traffic for `simTimeNs`, times Simulator::Run alone and leaves the simulator
// destroyed. All run in one process at ns-3's picosecond resolution, on whatever scheduler
// the "SchedulerType" global value names (ns-3's default, MapScheduler, unless --scheduler).

/// incsim: an in-memory scenario (udp protocol, all-to-all pattern, no traces) through
/// RunScenario; hops are metrics["network"]["frames_delivered"].
VariantResult RunIncsim(const TrafficSpec& spec, int64_t simTimeNs);
/// The scenario document RunIncsim runs.
nlohmann::json IncsimScenario(const TrafficSpec& spec, int64_t simTimeNs);

/// Plain ns-3: InternetStackHelper, PointToPointHelper links with /30 subnets, global routing
/// (Ipv4GlobalRoutingHelper::PopulateRoutingTables, RandomEcmpRouting on), UDP sockets.
VariantResult RunNs3Ip(const TrafficSpec& spec, int64_t simTimeNs);

/// Raw ns-3 point-to-point: devices with a receive callback that forwards by a precomputed
/// (node, destination) table of ECMP ports, with no IP stack.
VariantResult RunRawP2p(const TrafficSpec& spec, int64_t simTimeNs);

} // namespace incsim::bench

#endif
