#ifndef INCSIM_TESTS_UNIT_TEST_SUPPORT_H
#define INCSIM_TESTS_UNIT_TEST_SUPPORT_H

// Shared helpers for the small ns-3 topology tests: build a world from an inline scenario,
// bind recording endpoints, inject frames, run the simulator to a time, and watch drops.

#include "sim/host/endpoint.h"
#include "sim/net/drop-reason.h"
#include "sim/net/frame.h"
#include "sim/scenario/protocol.h"
#include "sim/runner/runner.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario.h"

#include <ns3/ptr.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace incsim
{
class HostNode;
class Protocol;
class Link;
class SwitchDevice;
class World;
} // namespace incsim

namespace incsim::test
{

/// Picosecond resolution (before any ns3::Time exists), and the real generators and
/// protocols registered. Call at the top of every simulation test. Idempotent.
void InitIncsim();

/// Parses an inline scenario; relative paths resolve against the source tree.
Scenario ScenarioFromJson(const std::string& text, const std::vector<std::string>& overrides = {});

/// A fresh directory under the system temp dir, removed with its contents on destruction.
class TempDir
{
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& Path() const { return m_path; }
    std::string File(const std::string& name) const { return m_path + "/" + name; }

  private:
    std::string m_path;
};

/// Runs the scenario document `scenario` (with `--set` style overrides) into `dir`.
RunSummary RunIn(const TempDir& dir, const std::string& scenario,
                 const std::vector<std::string>& overrides = {});

/// A checker's violations, one per line (for INFO).
std::string ViolationText(const CheckReport& report);


std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& text);
bool FileExists(const std::string& path);

/// What a run of the incsim binary printed, and its exit status.
struct CommandResult
{
    int status = -1;
    std::string out;
    std::string err;
};

/// `text` quoted for the shell.
std::string Quote(const std::string& text);

/// Runs the incsim binary with `args` (already quoted for the shell), capturing stdout and
/// stderr (through a file in `scratch`).
CommandResult Incsim(const std::string& args, const TempDir& scratch);

/// Runs the simulator until absolute simulated time `ps` (events at `ps` itself do not run).
void RunUntilPs(int64_t ps);
/// Schedules `f` at absolute simulated time `ps`.
void AtPs(int64_t ps, std::function<void()> f);
constexpr int64_t Us(int64_t us) { return us * 1000000; }
constexpr int64_t Ns(int64_t ns) { return ns * 1000; }

/// A scenario's world built as RunScenario builds it (topology, world, optionally the
/// protocol, the network tracer into a temp dir, the fault timeline), but not run: tests
/// drive the simulator themselves. The destructor tears the world down and destroys the
/// simulator, so tests stay independent.
class TestWorld
{
  public:
    explicit TestWorld(const std::string& scenarioJson,
                       const std::vector<std::string>& overrides = {},
                       bool installProtocol = false);
    ~TestWorld();
    TestWorld(const TestWorld&) = delete;
    TestWorld& operator=(const TestWorld&) = delete;

    World& Get() const { return m_simulation->GetWorld(); }
    World* operator->() const { return &m_simulation->GetWorld(); }
    const Scenario& GetScenario() const { return m_scenario; }
    Protocol* GetProtocol() const { return m_simulation->GetProtocol(); }
    const std::string& RunDir() const { return m_dir.Path(); }

    uint32_t Node(const std::string& name) const;
    SwitchDevice& Switch(const std::string& name) const;
    HostNode& Host(const std::string& name) const;
    uint32_t HostIndex(const std::string& name) const;
    uint32_t LinkId(const std::string& a, const std::string& b) const;
    Link& LinkBetween(const std::string& a, const std::string& b) const;
    /// Port of node `a` that leads to node `b`.
    uint32_t PortTo(const std::string& a, const std::string& b) const;

    /// Flushes and closes the trace files (call before reading them).
    void CloseTraces();

  private:
    TempDir m_dir;
    Scenario m_scenario;
    std::unique_ptr<Simulation> m_simulation;
};

struct ReceivedDatagram
{
    int64_t timePs = 0;
    uint32_t srcHost = 0;
    uint16_t srcPort = 0;
    uint16_t dstPort = 0;
    std::vector<uint8_t> bytes; ///< materialised payload bytes
    uint32_t payloadBytes = 0;
    uint32_t wireLength = 0;
    uint64_t uid = 0;
    uint8_t dscp = 0;
    uint8_t ttl = 0;
    bool ipChecksumOk = false;

    /// The first four payload bytes, big-endian: the tag the test wrote.
    uint32_t Tag() const;
};

/// An endpoint that records every datagram it receives, with its arrival time, and lets the
/// test send.
class RecordingEndpoint : public Endpoint
{
  public:
    static ns3::TypeId GetTypeId();

    bool SendTo(uint32_t dstHost,
                uint16_t dstPort,
                const std::vector<uint8_t>& bytes,
                uint32_t payloadBytes,
                uint8_t priority = 0);
    /// Sends a datagram whose first four payload bytes are `tag`.
    bool SendTagged(uint32_t dstHost, uint16_t dstPort, uint32_t tag, uint32_t payloadBytes,
                    uint8_t priority = 0);
    int64_t LocalNs() const { return LocalTimeNs(); }

    const std::vector<ReceivedDatagram>& Received() const { return m_received; }
    std::vector<uint32_t> Tags() const;

  private:
    void DoReceive(const Datagram& datagram) override;
    std::vector<ReceivedDatagram> m_received;
};

/// Creates a RecordingEndpoint bound to `port` of `host`.
ns3::Ptr<RecordingEndpoint> BindRecorder(HostNode& host, uint16_t port);

/// A UDP frame from host `src` to host `dst` of `wireLength` bytes on the wire (without the
/// 24 bytes of preamble, FCS and gap), with `tag` in its first four payload bytes and the
/// given DSCP, as a host would have sent it.
FramePtr MakeUdpFrame(uint32_t src, uint32_t dst, uint16_t srcPort, uint16_t dstPort,
                      uint32_t wireLength, uint32_t tag, uint8_t dscp = 0);
uint32_t TagOf(const Frame& frame);

/// Every drop in a world, from every trace source that reports drops (switches, hosts,
/// links, egress ports).
class DropRecorder
{
  public:
    struct Drop
    {
        int64_t timePs = 0;
        uint32_t node = 0;
        uint32_t port = 0;
        DropReason reason = DropReason::Count;
        uint32_t srcHost = 0;
        uint32_t dstHost = 0;
        uint32_t tag = 0;
    };

    explicit DropRecorder(World& world);

    const std::vector<Drop>& Drops() const { return m_drops; }
    uint64_t Count(DropReason reason) const;
    uint64_t CountAt(DropReason reason, uint32_t node) const;
    uint64_t CountBetween(DropReason reason, int64_t fromPs, int64_t toPs) const;
    std::array<uint64_t, static_cast<size_t>(DropReason::Count)> ByReason() const;

  private:
    void Record(const Frame& frame, uint32_t node, uint32_t port, DropReason reason);
    std::vector<Drop> m_drops;
};

/// Connects `f` to a trace source with signature (const Frame&, node, port).
void OnFrame(ns3::Object& object,
             const std::string& source,
             std::function<void(const Frame&, uint32_t, uint32_t)> f);

} // namespace incsim::test

#endif
