// Generated P4 pipelines per packet: parse, ingress, egress and deparse (the whole v1model
// pass, without the traffic manager), for p4/forward.p4 with the routes of a k=8 fat-tree edge
// switch installed by the simulator's route installer, for p4/gotthard.p4 on the same switch
// (contended requests, and the store's answers), for p4/switchtx.p4's gather path (a lock_ok
// counted and consumed, and the last one, which scatters), for p4/onepipe.p4's data path (a 1Pipe
// packet's port barrier recorded, the minimum over the live ports taken and stamped, as on the
// chip), and for a register-heavy count-min sketch (bench/p4/count-min-sketch.p4). Packets cycle
// through 128 prepared frames.

#include "protocols/gotthard/gotthard-wire.h"
#include "protocols/onepipe/onepipe-wire.h"
#include "protocols/switchtx/gas-slice.h"
#include "sim/net/frame.h"
#include "sim/net/headers.h"
#include "sim/switch/ecmp-route-installer.h"
#include "sim/topology/routing.h"

#include "bench/traffic.h"

#include <BenchPrograms.h>
#include <SwitchPrograms.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <memory>
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

/// `name` (a program of p4/) as the first edge switch of the forwarding benchmark's k=8
/// fat-tree, with the routes the simulator installs; `hosts` is the fat-tree's host count.
std::unique_ptr<p4rt::V1Program>
RoutedProgram(const char* name, uint32_t& hosts)
{
    bench::TrafficSpec spec;
    Topology topology = bench::BuildBenchTopology(spec);
    const EcmpRoutes routes = ComputeEcmpRoutes(topology, RouteMetric::Hops);
    const uint32_t node = topology.Switches().front();
    auto program = p4rt::FindGeneratedProgram(p4gen::SwitchPrograms(), name).create();
    EcmpRouteInstaller(node, topology.NumPorts(node), EcmpMode::PerFlow, 1)
        .InstallRoutes(routes, program->Control());
    hosts = static_cast<uint32_t>(topology.Hosts().size());
    return program;
}

/// A UDP frame from host 0 to `dstHost` whose payload is `payload`.
PreparedFrame
UdpFrame(uint32_t dstHost, uint16_t srcPort, uint16_t dstPort, const std::vector<uint8_t>& payload)
{
    FramePtr frame = FramePool::Instance().Allocate();
    UdpAddress address;
    address.srcHost = 0;
    address.dstHost = dstHost;
    address.srcPort = srcPort;
    address.dstPort = dstPort;
    const auto bytes = static_cast<uint32_t>(payload.size());
    WriteUdpHeaders(*frame, address, std::max<uint32_t>(bytes, 64), bytes);
    std::copy(payload.begin(), payload.end(), frame->data + frame->length - bytes);
    return {std::vector<uint8_t>(frame->data, frame->data + frame->length), frame->length};
}

void
BM_ForwardP4Packet(benchmark::State& state)
{
    uint32_t hosts = 0;
    auto program = RoutedProgram("forward", hosts);
    std::vector<PreparedFrame> frames;
    for (uint32_t k = 0; k < kFrames; ++k)
    {
        frames.push_back(UdpFrame(1 + k % (hosts - 1), static_cast<uint16_t>(5000 + k), 7000, {}));
    }
    RunPipeline(state, *program, frames);
}
BENCHMARK(BM_ForwardP4Packet);

/// onepipe.p4 in MODE_CHIP on the edge switch, all ports live, the upper half of them up: 1Pipe
/// data packets from a host towards other hosts, each with a later timestamp, so every packet
/// updates its input port's barrier, runs the comparison trees and is stamped.
void
BM_OnePipeP4Packet(benchmark::State& state)
{
    namespace contract = p4gen::onepipe::contract;
    uint32_t hosts = 0;
    auto program = RoutedProgram("onepipe", hosts);
    using configure = contract::MyIngress::configure;
    const uint32_t ports = 8;
    program->Control().SetDefaultAction(
        contract::MyIngress::onepipe_config::kName, configure::kName,
        {{configure::up_ports::kName, p4rt::BitString(0xF0)},
         {configure::cpu_port::kName, p4rt::BitString(510)},
         {configure::timeout_us::kName, p4rt::BitString(30)},
         {configure::priority::kName, p4rt::BitString(0)},
         {configure::mode::kName, p4rt::BitString(contract::MODE_CHIP)}});
    program->Control().WriteRegister(contract::MyIngress::live_ports::kName, 0,
                                     p4rt::BitString((1u << ports) - 1));
    std::vector<PreparedFrame> frames;
    for (uint32_t k = 0; k < kFrames; ++k)
    {
        std::vector<uint8_t> payload(onepipe::Header::kBytes);
        onepipe::Header header;
        header.messageTs = 1000 + k;
        header.barrier = header.messageTs;
        header.psn = k;
        header.opcode = onepipe::Opcode::Data;
        header.Write(payload.data());
        frames.push_back(UdpFrame(1 + k % (hosts - 1), onepipe::kPortBase,
                                  onepipe::kPortBase, payload));
    }
    RunPipeline(state, *program, frames);
}
BENCHMARK(BM_OnePipeP4Packet);

/// gotthard.p4 in MODE_GOTTHARD with a 65536-slot cache, on the frames of `message(k)` (a
/// request to the store, or the store's response to a client); `counter` reports the share of
/// packets counted by gotthard_events[event].
template <typename MakeMessage>
void
RunGotthard(benchmark::State& state, MakeMessage message, uint32_t event, const char* counter)
{
    uint32_t hosts = 0;
    auto program = RoutedProgram("gotthard", hosts);
    program->Control().SetDefaultAction(
        "MyIngress.gotthard_config", "configure",
        {{"mode", p4rt::BitString(2)}, {"cache_slots", p4rt::BitString(65536)}});
    constexpr uint16_t kClientPort = 0x1000;
    std::vector<PreparedFrame> frames;
    for (uint32_t k = 0; k < kFrames; ++k)
    {
        const gotthard::Message m = message(k);
        std::vector<uint8_t> payload;
        m.Encode(payload);
        frames.push_back(m.header.response
                             ? UdpFrame(hosts - 1, gotthard::kStorePort, kClientPort, payload)
                             : UdpFrame(hosts - 1, kClientPort, gotthard::kStorePort, payload));
    }
    RunPipeline(state, *program, frames);
    const p4rt::CounterArray& events = program->Control().GetCounter("MyIngress.gotthard_events");
    state.counters[counter] = static_cast<double>(events.Packets(event)) /
                              static_cast<double>(state.iterations());
}

/// Assert-and-increment requests (compare, write) on 64 keys: after the first round every
/// request hits its key's pending write and is turned into an abort (the contended path: 20
/// cache lookups, the rewrite).
void
BM_GotthardP4Packet(benchmark::State& state)
{
    RunGotthard(
        state,
        [](uint32_t k) {
            gotthard::Message request;
            request.header.txnId = k + 1;
            request.ops = {{gotthard::OpType::Compare, k % 64, 0},
                           {gotthard::OpType::Write, k % 64, 1}};
            return request;
        },
        0, "aborted");
}
BENCHMARK(BM_GotthardP4Packet);

/// The store's answers (compare and write of one of 64 keys, alternately OK and ABORT) on their
/// way to the client: each updates both operations' cache entries (the response path: 20
/// lookups, the root reads, the register writes).
void
BM_GotthardP4StoreResponse(benchmark::State& state)
{
    RunGotthard(
        state,
        [](uint32_t k) {
            gotthard::Message response;
            response.header.response = true;
            response.header.txnId = k + 1;
            response.header.status = k % 2 == 0 ? gotthard::Status::Ok : gotthard::Status::Abort;
            response.ops = {{gotthard::OpType::Compare, k % 64, k},
                            {gotthard::OpType::Write, k % 64, k}};
            return response;
        },
        5, "updates");
}
BENCHMARK(BM_GotthardP4StoreResponse);

/// switchtx.p4 as switch 1, the root of every tree, on lock_oks of 128 transactions (one slot
/// each, installed: their txn_ids have no bits above the slot index, as the empty owner
/// register); `counter` reports the share of packets counted by switchtx_events[event].
/// Replication happens in the traffic manager, outside this pass: a scatter costs its
/// multicast decision here.
void
RunSwitchtx(benchmark::State& state, uint16_t threshold, uint32_t event, const char* counter)
{
    namespace contract = p4gen::switchtx::contract;
    uint32_t hosts = 0;
    auto program = RoutedProgram(contract::kProgram, hosts);
    using configure = contract::MyIngress::configure;
    program->Control().SetDefaultAction(contract::MyIngress::switchtx_config::kName,
                                        configure::kName,
                                        {{configure::switch_id::kName, p4rt::BitString(1)},
                                         {configure::relay::kName, p4rt::BitString(0)},
                                         {configure::mode::kName, p4rt::BitString(0)}});
    program->Control().SetMulticastGroup(1, {{2, 1}});
    switchtx::GasSlices slices;
    slices.path[0] = {1, threshold, switchtx::GasSlice::kNoParent, 1};
    std::vector<PreparedFrame> frames;
    for (uint32_t k = 0; k < kFrames; ++k)
    {
        std::vector<uint8_t> payload(8 + switchtx::GasSlices::kWireBytes);
        payload[0] = contract::TYPE_LOCK_OK;
        payload[3] = 1;
        payload[6] = static_cast<uint8_t>(k >> 8);
        payload[7] = static_cast<uint8_t>(k);
        switchtx::WriteGasSlices(slices, payload.data() + 8);
        frames.push_back(UdpFrame(hosts - 1, contract::SWITCHTX_PORT, 0x1000, payload));
    }
    RunPipeline(state, *program, frames);
    const p4rt::CounterArray& events =
        program->Control().GetCounter(contract::MyIngress::switchtx_events::kName);
    state.counters[counter] = static_cast<double>(events.Packets(event)) /
                              static_cast<double>(state.iterations());
}

/// A lock_ok below the threshold: owner, aborted and counter read and written, consumed.
void
BM_SwitchtxP4Gather(benchmark::State& state)
{
    RunSwitchtx(state, 0xFFFF, p4gen::switchtx::contract::EVENT_GATHERED, "gathered");
}
BENCHMARK(BM_SwitchtxP4Gather);

/// The last lock_ok of its phase (threshold 1): the counter is reset and the root scatters.
void
BM_SwitchtxP4Scatter(benchmark::State& state)
{
    RunSwitchtx(state, 1, p4gen::switchtx::contract::EVENT_SCATTERED, "scattered");
}
BENCHMARK(BM_SwitchtxP4Scatter);

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
