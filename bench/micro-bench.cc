// incsim_microbench: Google Benchmark micro-benchmarks of the per-packet path, for reading
// the whole-simulation numbers of incsim_bench: what one hop's parts cost on their own.

#include "bench/traffic.h"

#include "sim/core/rng.h"
#include "sim/core/sim-time.h"
#include "sim/net/egress-port.h"
#include "sim/net/frame-sink.h"
#include "sim/net/frame.h"
#include "sim/net/headers.h"
#include "sim/net/link.h"
#include "sim/switch/ecmp-route-installer.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"
#include "sim/topology/routing.h"
#include "sim/topology/topology.h"

#include <ns3/calendar-scheduler.h>
#include <ns3/heap-scheduler.h>
#include <ns3/map-scheduler.h>
#include <ns3/priority-queue-scheduler.h>
#include <ns3/simulator.h>

#include <SwitchPrograms.h>

#include <benchmark/benchmark.h>

#include <vector>

namespace
{

using namespace incsim;

constexpr uint32_t kWireLength = 1066; // the forwarding benchmark's frame

/// A far end that only counts and frees what arrives.
class CountingSink : public FrameSink
{
  public:
    void ReceiveFrame(FramePtr frame, uint32_t port) override { ++received; }
    uint64_t received = 0;
};

FramePtr
UdpFrame(uint32_t srcHost, uint32_t dstHost)
{
    FramePtr frame = FramePool::Instance().Allocate();
    UdpAddress address;
    address.srcHost = srcHost;
    address.dstHost = dstHost;
    address.srcPort = 5000;
    address.dstPort = 5000;
    WriteUdpHeaders(*frame, address, kWireLength - kUdpFrameOverhead, 0);
    return frame;
}

// FramePool: the steady-state allocate/release cycle of every frame.
void
BM_FramePoolAllocateRelease(benchmark::State& state)
{
    for (auto _ : state)
    {
        FramePtr frame = FramePool::Instance().Allocate();
        benchmark::DoNotOptimize(frame.get());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FramePoolAllocateRelease);

// A switch's pipeline, p4/forward.p4 behind P4Pipeline, on a k=8 fat-tree switch: parse, route
// lookup, TTL, ECMP hash, then egress and the deparser with the checksum update.
// Arg: 0 = an edge switch (4-way ECMP up), 1 = a core switch (one port down).
void
BM_ForwardP4Pipeline(benchmark::State& state)
{
    bench::TrafficSpec spec;
    Topology topology = bench::BuildBenchTopology(spec);
    EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    uint32_t node = state.range(0) == 0 ? topology.Switches().front() : topology.Switches().back();
    auto device = ns3::CreateObject<SwitchDevice>();
    device->Configure(node, "bench", topology.NumPorts(node));
    P4Pipeline pipeline(
        *device, p4rt::FindGeneratedProgram(p4gen::SwitchPrograms(), "forward").create(),
        std::make_unique<EcmpRouteInstaller>(node, topology.NumPorts(node), EcmpMode::PerFlow, 1));
    pipeline.InstallRoutes(routes);
    std::vector<FramePtr> frames;
    auto numHosts = static_cast<uint32_t>(topology.Hosts().size());
    for (uint32_t dst = 1; dst < numHosts; ++dst)
    {
        frames.push_back(UdpFrame(0, dst));
    }
    size_t i = 0;
    for (auto _ : state)
    {
        Frame& frame = *frames[i];
        i = i + 1 == frames.size() ? 0 : i + 1;
        frame.data[kIpv4TtlOffset] = 64; // never let the TTL run out
        frame.meta.ingressPort = 0;
        pipeline.Ingress(frame);
        frame.meta.egressPort = frame.meta.egressSpec;
        pipeline.Egress(frame);
        benchmark::DoNotOptimize(frame.meta.egressSpec);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ForwardP4Pipeline)->Arg(0)->Arg(1);

// One hop through EgressPort and Link: enqueue on an idle 100Gbps port, serialise, and deliver
// to the far end, Simulator::Run included. Arg: frames enqueued back to back per iteration
// (1: no queueing, so no TransmissionDone event; >1: the queue drains through events).
void
BM_EgressPortLinkHop(benchmark::State& state)
{
    auto burst = static_cast<uint32_t>(state.range(0));
    auto link = ns3::CreateObject<Link>();
    link->Configure(0, 1000 * kPsPerNs, 0, 1);
    CountingSink near;
    CountingSink far;
    link->Attach(0, &near, 0, 0, 0);
    link->Attach(1, &far, 1, 0, 0);
    auto port = ns3::CreateObject<EgressPort>();
    port->Configure(0, 0, 100'000'000'000ULL, 512 * 1024, 8, nullptr);
    port->ConnectLink(PeekPointer(link), 0);
    for (auto _ : state)
    {
        for (uint32_t i = 0; i < burst; ++i)
        {
            FramePtr frame = FramePool::Instance().Allocate();
            frame->wireLength = kWireLength;
            port->Enqueue(std::move(frame));
        }
        ns3::Simulator::Run();
    }
    state.SetItemsProcessed(static_cast<int64_t>(far.received));
    port->Dispose();
    link->Dispose();
    ns3::Simulator::Destroy();
}
BENCHMARK(BM_EgressPortLinkHop)->Arg(1)->Arg(64);

// The ns-3 event queue alone, in the "hold" model: N events pending; each step removes the
// earliest and inserts one a random time later. incsim at k=8 keeps ~10^3 events pending.
template <typename SchedulerT>
void
BM_SchedulerHold(benchmark::State& state)
{
    auto pending = static_cast<uint32_t>(state.range(0));
    ns3::Ptr<ns3::Scheduler> scheduler = ns3::CreateObject<SchedulerT>();
    Rng rng(1);
    uint32_t uid = 0;
    constexpr uint64_t kSpreadPs = 2'000'000; // events up to 2us ahead, as hops are
    for (uint32_t i = 0; i < pending; ++i)
    {
        scheduler->Insert(ns3::Scheduler::Event{nullptr, {rng.UniformInt(kSpreadPs), uid++, 0}});
    }
    for (auto _ : state)
    {
        ns3::Scheduler::Event event = scheduler->RemoveNext();
        event.key.m_ts += 1 + rng.UniformInt(kSpreadPs);
        event.key.m_uid = uid++;
        scheduler->Insert(event);
    }
    while (!scheduler->IsEmpty())
    {
        scheduler->RemoveNext();
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK_TEMPLATE(BM_SchedulerHold, ns3::MapScheduler)->Arg(64)->Arg(1024)->Arg(16384);
BENCHMARK_TEMPLATE(BM_SchedulerHold, ns3::HeapScheduler)->Arg(64)->Arg(1024)->Arg(16384);
BENCHMARK_TEMPLATE(BM_SchedulerHold, ns3::PriorityQueueScheduler)->Arg(64)->Arg(1024)->Arg(16384);
BENCHMARK_TEMPLATE(BM_SchedulerHold, ns3::CalendarScheduler)->Arg(64)->Arg(1024)->Arg(16384);

} // namespace

int
main(int argc, char** argv)
{
    incsim::EnsurePicosecondResolution();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
    {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
