// Switch device: multicast replication, the CPU port, and pcap output.
//
//        h0   h1   h2   h3
//         \    |    |   /
//          port 0..3 of s0      (star topology: port i leads to h{i})

#include "sim/core/sim-time.h"
#include "sim/host/endpoint.h"
#include "sim/host/host-node.h"
#include "sim/net/headers.h"
#include "sim/runner/runner.h"
#include "sim/runner/world.h"
#include "sim/scenario/scenario.h"
#include "sim/switch/pipeline.h"
#include "sim/switch/switch-device.h"
#include "sim/topology/topology.h"
#include "sim/trace/trace-outputs.h"
#include "protocols/udp/udp-protocol.h"
#include "sim/runner/build-topology.h"
#include "topologies/register.h"

#include <catch2/catch.hpp>
#include <ns3/simulator.h>

#include <filesystem>
#include <fstream>
#include <vector>

using namespace incsim;

namespace
{

struct Arrival
{
    int64_t timePs;
    uint32_t host;
    std::vector<uint8_t> bytes;
};

class RecordingEndpoint : public Endpoint
{
  public:
    std::vector<Arrival>* log = nullptr;
    void SendBytes(uint32_t dst, const std::vector<uint8_t>& bytes)
    {
        Send(dst, 7000, bytes.data(), static_cast<uint32_t>(bytes.size()),
             static_cast<uint32_t>(bytes.size()));
    }

  private:
    void DoReceive(const Datagram& d) override
    {
        log->push_back({NowPs(), HostIndex(), {d.bytes, d.bytes + d.materialised}});
    }
};

/// Replicates everything to multicast group 1, records egress replication ids.
class MulticastPipeline : public SwitchPipeline
{
  public:
    std::vector<uint16_t>* replicas;
    void Ingress(Frame& frame) override { frame.meta.mcastGroup = 1; }
    void Egress(Frame& frame) override { replicas->push_back(frame.meta.replicationId); }
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

Scenario
StarScenario(const std::string& extra = "")
{
    RegisterTopologyGenerators();
    RegisterUdpProtocol();
    EnsurePicosecondResolution();
    std::string text = R"({"duration": "1ms",
        "topology": {"generator": "star", "params": {"hosts": 4}},
        "links": {"rate": "10Gbps", "delay": "1us"},
        "switch": {"cpu_service_time": "2us", "cpu_queue": 2, "pipeline_delay": "0ns"},
        "protocol": {"name": "udp"}, "outputs": {"traces": []})" + extra + "}";
    return ParseScenario(nlohmann::json::parse(text), "star.json", ".", {});
}

struct StarWorld
{
    Scenario scenario = StarScenario();
    TraceOutputs traces{std::filesystem::temp_directory_path().string(), {}};
    World world{scenario, BuildTopology(scenario), traces};
    std::vector<Arrival> log;
    std::vector<ns3::Ptr<RecordingEndpoint>> endpoints;

    StarWorld()
    {
        for (uint32_t h = 0; h < 4; ++h)
        {
            auto endpoint = ns3::CreateObject<RecordingEndpoint>();
            endpoint->log = &log;
            world.Host(h).Bind(7000, endpoint);
            endpoints.push_back(endpoint);
        }
    }
    ~StarWorld() { ns3::Simulator::Destroy(); }
    SwitchDevice& Switch() { return world.Switch(world.GetTopology().Switches()[0]); }
};

} // namespace

TEST_CASE("multicast replicates to every port of the group with distinct replica ids",
          "[switch]")
{
    StarWorld star;
    std::vector<uint16_t> replicas;
    star.world.SetPipelineFactory([&](SwitchDevice&) {
        auto pipeline = std::make_unique<MulticastPipeline>();
        pipeline->replicas = &replicas;
        return pipeline;
    });
    star.Switch().SetMulticastGroup(1, {1, 2, 3});
    std::vector<uint8_t> payload{1, 2, 3, 4, 5, 6, 7, 8};
    ns3::Simulator::Schedule(ns3::MicroSeconds(1), [&] { star.endpoints[0]->SendBytes(1, payload); });
    ns3::Simulator::Run();

    REQUIRE(star.log.size() == 3);
    std::vector<uint32_t> receivers;
    for (const auto& arrival : star.log)
    {
        receivers.push_back(arrival.host);
        CHECK(arrival.bytes == payload);
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
    star.world.SetPipelineFactory([&](SwitchDevice& d) {
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
    // Five frames from five... one host, back to back: two fit the CPU queue (limit 2).
    ns3::Simulator::Schedule(ns3::MicroSeconds(1), [&] {
        for (int i = 0; i < 5; ++i)
        {
            star.endpoints[0]->SendBytes(1, {static_cast<uint8_t>(i)});
        }
    });
    ns3::Simulator::Run();

    REQUIRE(served.size() == 2);
    CHECK(device.Drops()[static_cast<size_t>(DropReason::CpuQueueFull)] == 3);
    // Service is sequential: the second frame finishes one service time after the first.
    CHECK(served[1] - served[0] == 2000 * kPsPerNs);
    REQUIRE(star.log.size() == 2);
    CHECK(star.log[0].host == 2);
    CHECK(star.log[0].bytes == std::vector<uint8_t>{0});
    CHECK(star.log[1].bytes == std::vector<uint8_t>{1});
}

TEST_CASE("pcap files hold every transmitted frame of their port", "[switch][pcap]")
{
    std::string dir = (std::filesystem::temp_directory_path() / "incsim-pcap-test").string();
    std::filesystem::remove_all(dir);
    Scenario scenario = StarScenario(R"(, "workload": {"load": 0.2, "message_size": "3000B"},
        "outputs": {"traces": ["links"], "pcap": true})");
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
