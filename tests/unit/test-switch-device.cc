// Switch device: multicast replication, the CPU port, and pcap output.
//
//        h0   h1   h2   h3
//         \    |    |   /
//          port 0..3 of s0      (star topology: port i leads to h{i})

#include "test-support.h"

#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/headers.h"
#include "sim/runner/runner.h"
#include "sim/runner/world.h"
#include "sim/switch/pipeline.h"
#include "sim/switch/switch-device.h"

#include <catch2/catch.hpp>
#include <ns3/simulator.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

using namespace incsim;
using namespace incsim::test;

namespace
{

/// Replicates everything to multicast group 1 (ports 1, 2, 3 with replica ids 1, 2, 3),
/// records egress replication ids.
class MulticastPipeline : public SwitchPipeline
{
  public:
    std::vector<uint16_t>* replicas;
    std::vector<p4rt::Replica> group{{1, 1}, {2, 2}, {3, 3}};
    void Ingress(Frame& frame) override { frame.meta.mcastGroup = 1; }
    void Egress(Frame& frame) override { replicas->push_back(frame.meta.replicationId); }
    const std::vector<p4rt::Replica>* MulticastGroup(uint16_t id) const override
    {
        return id == 1 ? &group : nullptr;
    }
    std::string Name() const override { return "test-multicast"; }
};

/// Sends everything to the CPU.
class ToCpuPipeline : public SwitchPipeline
{
  public:
    uint32_t cpuPort;
    void Ingress(Frame& frame) override { frame.meta.egressSpec = cpuPort; }
    std::string Name() const override { return "test-to-cpu"; }
};

const char* kStar = R"({"duration": "1ms",
    "topology": {"generator": "star", "params": {"hosts": 4}},
    "links": {"rate": "10Gbps", "delay": "1us"},
    "switch": {"cpu_service_time": "2us", "cpu_queue": 2, "pipeline_delay": "0ns"},
    "protocol": {"name": "udp"}, "outputs": {"traces": []}})";

struct StarWorld
{
    TestWorld world{kStar};
    std::vector<ns3::Ptr<RecordingEndpoint>> endpoints;

    StarWorld()
    {
        for (uint32_t h = 0; h < 4; ++h)
        {
            endpoints.push_back(BindRecorder(world->Host(h), 7000));
        }
    }
    SwitchDevice& Switch() { return world.Switch("s0"); }
    void Send(uint32_t src, uint32_t dst, const std::vector<uint8_t>& bytes)
    {
        endpoints[src]->SendTo(dst, 7000, bytes, static_cast<uint32_t>(bytes.size()));
    }
};

} // namespace

TEST_CASE("multicast replicates to every port of the group with distinct replica ids",
          "[switch]")
{
    StarWorld star;
    std::vector<uint16_t> replicas;
    star.world->SetPipelineFactory([&](SwitchDevice&) {
        auto pipeline = std::make_unique<MulticastPipeline>();
        pipeline->replicas = &replicas;
        return pipeline;
    });
    std::vector<uint8_t> payload{1, 2, 3, 4, 5, 6, 7, 8};
    AtPs(Us(1), [&] { star.Send(0, 1, payload); });
    ns3::Simulator::Run();

    std::vector<uint32_t> receivers;
    for (uint32_t h = 0; h < 4; ++h)
    {
        for (const auto& datagram : star.endpoints[h]->Received())
        {
            receivers.push_back(h);
            CHECK(datagram.bytes == payload);
        }
    }
    std::sort(receivers.begin(), receivers.end());
    CHECK(receivers == std::vector<uint32_t>{1, 2, 3});
    std::sort(replicas.begin(), replicas.end());
    CHECK(replicas == std::vector<uint16_t>{1, 2, 3});
}

TEST_CASE("the CPU port serves frames after the CPU service time, bounded by its queue",
          "[switch]")
{
    StarWorld star;
    SwitchDevice& device = star.Switch();
    star.world->SetPipelineFactory([&](SwitchDevice& d) {
        auto pipeline = std::make_unique<ToCpuPipeline>();
        pipeline->cpuPort = d.CpuPort();
        return pipeline;
    });
    std::vector<int64_t> served;
    device.SetCpuHandler([&](FramePtr frame) {
        served.push_back(NowPs());
        // Packet-out to h2, bypassing the pipeline (which would send it back to the CPU).
        device.SendFromCpu(std::move(frame), 2);
    });
    // Five frames from h0, back to back: two fit the CPU queue (limit 2).
    AtPs(Us(1), [&] {
        for (int i = 0; i < 5; ++i)
        {
            star.Send(0, 1, {static_cast<uint8_t>(i)});
        }
    });
    ns3::Simulator::Run();

    REQUIRE(served.size() == 2);
    CHECK(device.Drops()[static_cast<size_t>(DropReason::CpuQueueFull)] == 3);
    // Service is sequential: the second frame finishes one service time after the first.
    CHECK(served[1] - served[0] == 2000 * kPsPerNs);
    const auto& atH2 = star.endpoints[2]->Received();
    REQUIRE(atH2.size() == 2);
    CHECK(star.endpoints[1]->Received().empty());
    CHECK(atH2[0].bytes == std::vector<uint8_t>{0});
    CHECK(atH2[1].bytes == std::vector<uint8_t>{1});
}

TEST_CASE("pcap files hold every transmitted frame of their port", "[switch][pcap]")
{
    TempDir temp;
    std::string dir = temp.Path();
    Scenario scenario = ScenarioFromJson(kStar, {R"(workload={"load": 0.2, "message_size": "3000B"})",
                                                 R"(outputs={"traces": ["links"], "pcap": true})"});
    RunOptions options;
    options.outDir = dir;
    options.progress = ProgressMode::Never;
    RunScenario(scenario, options);

    // Count the records of s0's port 1 and compare with the link trace's tx_frames.
    std::ifstream pcap(dir + "/pcap/s0-1.pcap", std::ios::binary);
    REQUIRE(pcap);
    uint32_t magic = 0;
    pcap.read(reinterpret_cast<char*>(&magic), 4);
    CHECK(magic == 0xa1b2c3d4);
    pcap.seekg(24);
    uint64_t records = 0;
    uint32_t header[4];
    while (pcap.read(reinterpret_cast<char*>(header), sizeof(header)))
    {
        CHECK(header[2] >= kMinFrameBytes); // captured length
        pcap.seekg(header[2], std::ios::cur);
        ++records;
    }
    std::ifstream links(dir + "/links.csv");
    std::string line;
    uint64_t txFrames = 0;
    while (std::getline(links, line))
    {
        if (line.find(",s0,1,h1,") != std::string::npos)
        {
            // link,from,from_port,to,to_port,rate_bps,delay_ns,tx_frames,...
            size_t pos = 0;
            for (int field = 0; field < 7; ++field)
            {
                pos = line.find(',', pos) + 1;
            }
            txFrames = std::stoull(line.substr(pos));
        }
    }
    CHECK(records > 10);
    CHECK(records == txFrames);
}
