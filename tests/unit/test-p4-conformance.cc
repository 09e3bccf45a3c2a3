// Every STF script also passes on the simulated switch: the same generated program behind
// P4Pipeline in an ns-3 SwitchDevice (traffic manager, multicast, clones, resubmit,
// recirculation, deparsing into frames) emits what the timing-free v1model target emits.

#include "sim/core/sim-time.h"
#include "sim/net/egress-port.h"
#include "sim/runner/world.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/switch-device.h"
#include "test-support.h"
#include "p4-test-support.h"

#include "p4/runtime/stf.h"

#include <SwitchPrograms.h>
#include <TestPrograms.h>
#include <ns3/simulator.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>

using namespace incsim;
using namespace incsim::test;

namespace
{

// 32 hosts: STF scripts use ports up to 20 (and mirror to 9 and 10).
const char* kStar = R"({"duration": "1s",
    "topology": {"generator": "star", "params": {"hosts": 32}},
    "links": {"rate": "10Gbps", "delay": "1us"},
    "switch": {"pipeline_delay": "0ns"},
    "protocol": {"name": "udp"}, "outputs": {"traces": []}})";

/// An StfTarget whose switch is the simulated one: packets enter a port of s0 and the
/// simulator runs until the network is idle; what each port transmits is the output.
class SimulatedSwitchTarget : public p4rt::StfTarget
{
  public:
    explicit SimulatedSwitchTarget(const p4rt::GeneratedProgram& program)
        : m_world(kStar)
    {
        m_world->SetPipelineFactory([&program](SwitchDevice& device) {
            return std::make_unique<P4Pipeline>(device, program.create());
        });
        SwitchDevice& device = m_world.Switch("s0");
        m_pipeline = dynamic_cast<P4Pipeline*>(device.GetPipeline());
        for (uint32_t port = 0; port < device.NumPorts(); ++port)
        {
            OnFrame(m_world->PortOf(device.NodeId(), port), "Transmit",
                    [this](const Frame& frame, uint32_t, uint32_t p) {
                        m_outputs.push_back(
                            {p, std::vector<uint8_t>(frame.data, frame.data + frame.length)});
                        m_transmitPs.push_back(NowPs());
                    });
        }
        // Packets to the CPU port come out of the switch CPU, as that port's output.
        device.SetCpuHandler([this, cpuPort = device.CpuPort()](FramePtr frame) {
            m_outputs.push_back(
                {cpuPort, std::vector<uint8_t>(frame->data, frame->data + frame->length)});
            m_transmitPs.push_back(NowPs());
        });
    }

    p4rt::ControlPlane& Control() override { return m_pipeline->Control(); }

    void InjectPacket(uint32_t port, const std::vector<uint8_t>& data) override
    {
        FramePtr frame = FramePool::Instance().Allocate();
        REQUIRE(data.size() <= Frame::kCapacity);
        std::memcpy(frame->data, data.data(), data.size());
        frame->length = static_cast<uint32_t>(data.size());
        frame->wireLength = frame->length;
        m_world.Switch("s0").ReceiveFrame(std::move(frame), port);
        ns3::Simulator::Run();
    }

    std::vector<p4rt::StfOutputPacket> Drain() override { return std::exchange(m_outputs, {}); }

    /// When each packet so far started leaving its port.
    const std::vector<int64_t>& TransmitTimes() const { return m_transmitPs; }

  private:
    TestWorld m_world;
    P4Pipeline* m_pipeline = nullptr;
    std::vector<p4rt::StfOutputPacket> m_outputs;
    std::vector<int64_t> m_transmitPs;
};

void
RunOnSimulatedSwitch(const p4rt::GeneratedProgram& program, const std::string& script)
{
    INFO(script);
    SimulatedSwitchTarget target(program);
    const p4rt::StfResult result = p4rt::RunStf(p4rt::ParseStfFile(script), target);
    INFO(result.Report(script));
    CHECK(result.Passed());
}

} // namespace

TEST_CASE("the STF scripts pass on the simulated switch too", "[p4][switch][stf]")
{
    namespace fs = std::filesystem;
    const std::string dir = p4test::P4TestDir();
    size_t scripts = 0;
    for (const auto& program : p4gen::TestPrograms())
    {
        const std::string stf =
            dir + "/programs/" + fs::path(program.info.source).stem().string() + ".stf";
        RunOnSimulatedSwitch(program, stf);
        ++scripts;
    }
    for (const auto& program : p4gen::SwitchPrograms())
    {
        for (const auto& entry : fs::directory_iterator(dir + "/stf/" + program.info.name))
        {
            RunOnSimulatedSwitch(program, entry.path().string());
            ++scripts;
        }
    }
    CHECK(scripts >= 19);
}

TEST_CASE("an egress-to-egress clone to the port it leaves by queues behind the original",
          "[p4][switch][stf]")
{
    const auto program = p4rt::FindGeneratedProgram(p4gen::TestPrograms(),
                                                    "clone_resubmit_recirculate");
    // Op 2 clones from egress to session 6; here session 6 is the packet's own port 1.
    const char* kScript = R"(
mirroring_add 6 1
packet 4 02 00 5A 10 EE EE EE 20 EE EE EE C0DE
expect 1 02 00 5A 11 00 00 01 21 00 00 00 C0DE$
expect 1 02 00 5A 11 00 02 01 22 00 00 00 C0DE$
)";
    SimulatedSwitchTarget target(program);
    const p4rt::StfResult result = p4rt::RunStf(p4rt::ParseStf(kScript, "e2e-same-port"), target);
    INFO(result.Report("e2e-same-port"));
    CHECK(result.Passed());
    // One link, one frame at a time: the copy starts after the original's serialisation
    // ((13 + 24) bytes at 10 Gbps = 29.6 ns).
    REQUIRE(target.TransmitTimes().size() == 2);
    CHECK(target.TransmitTimes()[1] - target.TransmitTimes()[0] >= 29600);
}
