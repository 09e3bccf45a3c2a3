// Generated P4 pipelines per packet: parse, ingress, egress and deparse (the whole v1model
// pass, without the traffic manager), for p4/forward.p4 with the routes of a k=8 fat-tree edge
// switch installed by the simulator's route installer, and for a register-heavy count-min
// sketch (bench/p4/count-min-sketch.p4). Packets cycle through 128 prepared frames.

#include "sim/net/frame.h"
#include "sim/net/headers.h"
#include "sim/switch/ecmp-route-installer.h"
#include "sim/topology/routing.h"

#include "bench/traffic.h"

#include <BenchPrograms.h>
#include <SwitchPrograms.h>
#include <benchmark/benchmark.h>

#include <cstring>
#include <optional>
#include <vector>

namespace
{

using namespace incsim;

constexpr size_t kFrames = 128;

struct PreparedFrame
{
    std::vector<uint8_t> bytes;
    uint32_t length = 0;
};

/// Runs every frame through parse, ingress, egress and deparse; reports ns per packet.
void
RunPipeline(benchmark::State& state, p4rt::V1Program& program,
            const std::vector<PreparedFrame>& frames)
{
    std::vector<uint64_t> pipelineState(program.StateSize() / 8);
    uint8_t buffer[Frame::kCapacity];
    size_t i = 0;
    for (auto _ : state)
    {
        const PreparedFrame& frame = frames[i++ % frames.size()];
        std::memcpy(buffer, frame.bytes.data(), frame.length);
        p4rt::V1Metadata md;
        md.ingressPort = 1;
        md.packetLength = frame.length;
        program.Parse(buffer, frame.length, pipelineState.data(), md);
        program.Ingress(pipelineState.data(), md);
        md.egressPort = md.egressSpec;
        program.Egress(pipelineState.data(), md);
        const std::optional<uint32_t> length =
            program.Deparse(pipelineState.data(), buffer, frame.length, Frame::kCapacity);
        benchmark::DoNotOptimize(length);
        benchmark::DoNotOptimize(buffer[22]);
    }
    state.SetItemsProcessed(state.iterations());
}

void
BM_ForwardP4Packet(benchmark::State& state)
{
    bench::TrafficSpec spec;
    Topology topology = bench::BuildBenchTopology(spec);
    const EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    const uint32_t node = topology.Switches().front();
    auto program = p4rt::FindGeneratedProgram(p4gen::SwitchPrograms(), "forward").create();
    EcmpRouteInstaller(node, topology.NumPorts(node), EcmpMode::PerFlow, 1)
        .InstallRoutes(routes, program->Control());
    std::vector<PreparedFrame> frames;
    const auto hosts = static_cast<uint32_t>(topology.Hosts().size());
    for (uint32_t k = 0; k < kFrames; ++k)
    {
        FramePtr frame = FramePool::Instance().Allocate();
        UdpAddress address;
        address.srcHost = 0;
        address.dstHost = 1 + k % (hosts - 1);
        address.srcPort = static_cast<uint16_t>(5000 + k);
        address.dstPort = 7000;
        WriteUdpHeaders(*frame, address, 64, 0);
        frames.push_back({std::vector<uint8_t>(frame->data, frame->data + frame->length),
                          frame->length});
    }
    RunPipeline(state, *program, frames);
}
BENCHMARK(BM_ForwardP4Packet);

void
BM_CountMinSketchP4Packet(benchmark::State& state)
{
    auto program = p4rt::FindGeneratedProgram(p4gen::BenchPrograms(), "count_min_sketch").create();
    std::vector<PreparedFrame> frames;
    for (uint32_t k = 0; k < kFrames; ++k)
    {
        PreparedFrame frame;
        frame.bytes.assign(14 + 12 + 16, 0);
        frame.bytes[12] = 0x88;
        frame.bytes[13] = 0xb5;
        const uint32_t key = 0x0a000000u + k * 7919u;
        for (int b = 0; b < 4; ++b)
        {
            frame.bytes[14 + b] = static_cast<uint8_t>(key >> (24 - 8 * b));
        }
        frame.length = static_cast<uint32_t>(frame.bytes.size());
        frames.push_back(frame);
    }
    RunPipeline(state, *program, frames);
}
BENCHMARK(BM_CountMinSketchP4Packet);

} // namespace
