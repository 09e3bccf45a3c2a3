#include "test-support.h"

#include "protocols/builtin-protocols.h"
#include "sim/core/sim-time.h"
#include "sim/host/host-node.h"
#include "sim/net/egress-port.h"
#include "sim/net/headers.h"
#include "sim/net/link.h"
#include "sim/runner/simulation.h"
#include "sim/runner/world.h"
#include "sim/switch/switch-device.h"
#include "topologies/register.h"

#include <ns3/callback.h>
#include <ns3/simulator.h>

#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <stdlib.h>

namespace incsim::test
{

void
InitIncsim()
{
    EnsurePicosecondResolution();
    RegisterTopologyGenerators();
    RegisterBuiltinProtocols();
}

Scenario
ScenarioFromJson(const std::string& text, const std::vector<std::string>& overrides)
{
    InitIncsim();
    return ParseScenario(nlohmann::json::parse(text), "test.json", INCSIM_SOURCE_DIR, overrides);
}

TempDir::TempDir()
{
    std::string pattern =
        (std::filesystem::temp_directory_path() / "incsim-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
    {
        throw std::runtime_error("mkdtemp failed for " + pattern);
    }
    m_path = pattern;
}

TempDir::~TempDir()
{
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error("cannot read " + path);
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string
Quote(const std::string& text)
{
    std::string quoted = "'";
    for (char c : text)
    {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

CommandResult
Incsim(const std::string& args, const TempDir& scratch)
{
    const std::string errFile = scratch.File("incsim-stderr.txt");
    const std::string command = Quote(INCSIM_BINARY) + " " + args + " 2>" + Quote(errFile);
    CommandResult result;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    {
        result.out.append(buffer, n);
    }
    const int status = pclose(pipe);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.err = ReadFile(errFile);
    return result;
}

void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    if (!(out << text))
    {
        throw std::runtime_error("cannot write " + path);
    }
}

bool
FileExists(const std::string& path)
{
    return std::filesystem::exists(path);
}

void
RunUntilPs(int64_t ps)
{
    ns3::Simulator::Stop(Ps(ps - NowPs()));
    ns3::Simulator::Run();
}

void
AtPs(int64_t ps, std::function<void()> f)
{
    ns3::Simulator::Schedule(Ps(ps - NowPs()), [f = std::move(f)] { f(); });
}

// ---- TestWorld ----

TestWorld::TestWorld(const std::string& scenarioJson,
                     const std::vector<std::string>& overrides,
                     bool installProtocol)
    : m_scenario(ScenarioFromJson(scenarioJson, overrides)),
      m_simulation(std::make_unique<Simulation>(m_scenario, m_dir.Path(), installProtocol))
{
}

TestWorld::~TestWorld() = default;

void
TestWorld::CloseTraces()
{
    m_simulation->CloseTraces();
}

uint32_t
TestWorld::Node(const std::string& name) const
{
    auto node = m_simulation->GetWorld().GetTopology().FindNode(name);
    if (!node)
    {
        throw std::invalid_argument("no node " + name);
    }
    return *node;
}

SwitchDevice&
TestWorld::Switch(const std::string& name) const
{
    return m_simulation->GetWorld().Switch(Node(name));
}

HostNode&
TestWorld::Host(const std::string& name) const
{
    return m_simulation->GetWorld().Host(HostIndex(name));
}

uint32_t
TestWorld::HostIndex(const std::string& name) const
{
    return m_simulation->GetWorld().GetTopology().HostIndex(Node(name));
}

uint32_t
TestWorld::LinkId(const std::string& a, const std::string& b) const
{
    auto link = m_simulation->GetWorld().GetTopology().FindLink(Node(a), Node(b));
    if (!link)
    {
        throw std::invalid_argument("no link " + a + " -- " + b);
    }
    return *link;
}

Link&
TestWorld::LinkBetween(const std::string& a, const std::string& b) const
{
    return m_simulation->GetWorld().GetLink(LinkId(a, b));
}

uint32_t
TestWorld::PortTo(const std::string& a, const std::string& b) const
{
    const LinkInfo& link = m_simulation->GetWorld().GetTopology().Link(LinkId(a, b));
    return link.a == Node(a) ? link.portA : link.portB;
}

// ---- RecordingEndpoint ----

uint32_t
ReceivedDatagram::Tag() const
{
    return bytes.size() >= 4 ? LoadBe32(bytes.data()) : UINT32_MAX;
}

ns3::TypeId
RecordingEndpoint::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("incsim::test::RecordingEndpoint")
                                 .SetParent<Endpoint>()
                                 .SetGroupName("IncsimTest")
                                 .AddConstructor<RecordingEndpoint>();
    return tid;
}

bool
RecordingEndpoint::SendTo(uint32_t dstHost,
                          uint16_t dstPort,
                          const std::vector<uint8_t>& bytes,
                          uint32_t payloadBytes,
                          uint8_t priority)
{
    return Send(dstHost, dstPort, bytes.data(), static_cast<uint32_t>(bytes.size()), payloadBytes,
                priority);
}

bool
RecordingEndpoint::SendTagged(uint32_t dstHost, uint16_t dstPort, uint32_t tag,
                              uint32_t payloadBytes, uint8_t priority)
{
    std::vector<uint8_t> bytes(4);
    StoreBe32(bytes.data(), tag);
    return SendTo(dstHost, dstPort, bytes, payloadBytes, priority);
}

std::vector<uint32_t>
RecordingEndpoint::Tags() const
{
    std::vector<uint32_t> tags;
    for (const auto& d : m_received)
    {
        tags.push_back(d.Tag());
    }
    return tags;
}

void
RecordingEndpoint::DoReceive(const Datagram& datagram)
{
    ReceivedDatagram d;
    d.timePs = NowPs();
    d.srcHost = datagram.srcHost;
    d.srcPort = datagram.srcPort;
    d.dstPort = datagram.dstPort;
    d.bytes.assign(datagram.bytes, datagram.bytes + datagram.materialised);
    d.payloadBytes = datagram.payloadBytes;
    d.wireLength = datagram.frame->wireLength;
    d.uid = datagram.frame->uid;
    const uint8_t* ip = datagram.frame->data + kIpv4Offset;
    d.dscp = static_cast<uint8_t>(ip[1] >> 2);
    d.ttl = ip[8];
    d.ipChecksumOk = Ipv4HeaderChecksum(ip) == LoadBe16(ip + 10);
    m_received.push_back(std::move(d));
}

ns3::Ptr<RecordingEndpoint>
BindRecorder(HostNode& host, uint16_t port)
{
    auto endpoint = ns3::CreateObject<RecordingEndpoint>();
    host.Bind(port, endpoint);
    return endpoint;
}

FramePtr
MakeUdpFrame(uint32_t src, uint32_t dst, uint16_t srcPort, uint16_t dstPort,
             uint32_t wireLength, uint32_t tag, uint8_t dscp)
{
    if (wireLength < kUdpFrameOverhead + 4)
    {
        throw std::invalid_argument("frame too short for a tag");
    }
    FramePtr frame = FramePool::Instance().Allocate();
    UdpAddress address;
    address.srcHost = src;
    address.dstHost = dst;
    address.srcPort = srcPort;
    address.dstPort = dstPort;
    address.dscp = dscp;
    WriteUdpHeaders(*frame, address, wireLength - kUdpFrameOverhead, 4);
    StoreBe32(frame->data + kUdpPayloadOffset, tag);
    frame->createdPs = NowPs();
    return frame;
}

uint32_t
TagOf(const Frame& frame)
{
    return frame.length >= kUdpPayloadOffset + 4 ? LoadBe32(frame.data + kUdpPayloadOffset)
                                                 : UINT32_MAX;
}

// ---- DropRecorder ----

void
OnFrame(ns3::Object& object,
        const std::string& source,
        std::function<void(const Frame&, uint32_t, uint32_t)> f)
{
    bool ok = object.TraceConnectWithoutContext(
        source,
        ns3::Callback<void, const Frame&, uint32_t, uint32_t>(std::move(f)));
    if (!ok)
    {
        throw std::invalid_argument("no trace source " + source);
    }
}

DropRecorder::DropRecorder(World& world)
{
    ns3::Callback<void, const Frame&, uint32_t, uint32_t, DropReason> cb(
        [this](const Frame& frame, uint32_t node, uint32_t port, DropReason reason) {
            Record(frame, node, port, reason);
        });
    const Topology& topology = world.GetTopology();
    for (const auto& device : world.Switches())
    {
        device->TraceConnectWithoutContext("Drop", cb);
    }
    for (uint32_t h = 0; h < world.NumHosts(); ++h)
    {
        world.Host(h).TraceConnectWithoutContext("Drop", cb);
    }
    for (uint32_t id = 0; id < topology.NumLinks(); ++id)
    {
        world.GetLink(id).TraceConnectWithoutContext("Drop", cb);
    }
    for (uint32_t node = 0; node < topology.NumNodes(); ++node)
    {
        for (uint32_t port = 0; port < topology.NumPorts(node); ++port)
        {
            world.PortOf(node, port).TraceConnectWithoutContext("Drop", cb);
        }
    }
}

void
DropRecorder::Record(const Frame& frame, uint32_t node, uint32_t port, DropReason reason)
{
    Drop drop;
    drop.timePs = NowPs();
    drop.node = node;
    drop.port = port;
    drop.reason = reason;
    UdpView udp = ParseUdp(frame);
    drop.srcHost = udp.srcHost;
    drop.dstHost = udp.dstHost;
    drop.tag = TagOf(frame);
    m_drops.push_back(drop);
}

uint64_t
DropRecorder::Count(DropReason reason) const
{
    uint64_t n = 0;
    for (const auto& d : m_drops)
    {
        n += d.reason == reason;
    }
    return n;
}

uint64_t
DropRecorder::CountAt(DropReason reason, uint32_t node) const
{
    uint64_t n = 0;
    for (const auto& d : m_drops)
    {
        n += d.reason == reason && d.node == node;
    }
    return n;
}

uint64_t
DropRecorder::CountBetween(DropReason reason, int64_t fromPs, int64_t toPs) const
{
    uint64_t n = 0;
    for (const auto& d : m_drops)
    {
        n += d.reason == reason && d.timePs >= fromPs && d.timePs < toPs;
    }
    return n;
}

std::array<uint64_t, static_cast<size_t>(DropReason::Count)>
DropRecorder::ByReason() const
{
    std::array<uint64_t, static_cast<size_t>(DropReason::Count)> counts{};
    for (const auto& d : m_drops)
    {
        ++counts[static_cast<size_t>(d.reason)];
    }
    return counts;
}

RunSummary
RunIn(const TempDir& dir, const std::string& scenario, const std::vector<std::string>& overrides)
{
    RunOptions options;
    options.outDir = dir.Path();
    return RunScenario(ScenarioFromJson(scenario, overrides), options);
}

std::string
ViolationText(const CheckReport& report)
{
    std::string text;
    for (const std::string& line : report.violations)
    {
        text += line + "\n";
    }
    return text;
}

} // namespace incsim::test
