// Every STF script also passes on the simulated switch: the same generated program behind
// P4Pipeline in an ns-3 SwitchDevice (traffic manager, multicast, clones, resubmit,
// recirculation, deparsing into frames) emits what the timing-free v1model target emits.

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
                    });
        }
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

  private:
    TestWorld m_world;
    P4Pipeline* m_pipeline = nullptr;
    std::vector<p4rt::StfOutputPacket> m_outputs;
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
