#ifndef INCSIM_SWITCH_SWITCH_DEVICE_H
#define INCSIM_SWITCH_SWITCH_DEVICE_H

#include "sim/net/drop-reason.h"
#include "sim/net/frame-sink.h"
#include "sim/net/frame.h"
#include "sim/net/ring-buffer.h"
#include "sim/switch/pipeline.h"

#include <ns3/event-id.h>
#include <ns3/nstime.h>
#include <ns3/object.h>
#include <ns3/ptr.h>
#include <ns3/traced-callback.h>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace incsim
{

class EgressPort;

/// A switching chip with N front-panel ports on point-to-point links: ingress pipeline,
/// traffic manager (per-egress-port strict-priority FIFO queues, multicast replication),
/// egress pipeline, and a CPU port served by the switch CPU with a per-packet service time.
///
/// Frame path: link -> ReceiveFrame -> pipeline Ingress -> EgressPort queue(s) -> pipeline
/// Egress at dequeue -> link. The ingress-to-queue latency (PipelineDelay) is folded into the
/// incoming links' latency, so it costs no event.
class SwitchDevice : public ns3::Object, public FrameSink, public TransmitHook
{
  public:
    static ns3::TypeId GetTypeId();

    struct Counters
    {
        uint64_t received = 0;
        uint64_t forwarded = 0;
        uint64_t toCpu = 0;
        std::array<uint64_t, static_cast<size_t>(DropReason::Count)> drops{};
    };

    /// Called with each frame the CPU has finished processing.
    using CpuHandler = std::function<void(FramePtr frame)>;

    SwitchDevice();
    ~SwitchDevice() override;

    void Configure(uint32_t nodeId, std::string name, uint32_t numPorts);
    void SetPipeline(std::unique_ptr<SwitchPipeline> pipeline);
    SwitchPipeline* GetPipeline() const { return m_pipeline.get(); }

    uint32_t NodeId() const { return m_nodeId; }
    const std::string& Name() const { return m_name; }
    uint32_t NumPorts() const { return static_cast<uint32_t>(m_ports.size()); }
    uint32_t CpuPort() const { return m_cpuPort; }
    uint32_t Priorities() const { return m_priorities; }
    ns3::Time PipelineDelay() const { return m_pipelineDelay; }
    EgressPort& Port(uint32_t port) const;
    void SetPort(uint32_t port, ns3::Ptr<EgressPort> egress);

    void SetMulticastGroup(uint16_t group, std::vector<uint32_t> ports);
    void SetCpuHandler(CpuHandler handler) { m_cpuHandler = std::move(handler); }
    /// Packet-in from the CPU: the frame runs through the ingress pipeline as if it had
    /// arrived on the CPU port.
    void InjectFromCpu(FramePtr frame);
    /// Packet-out from the CPU straight to an egress queue, bypassing ingress.
    void SendFromCpu(FramePtr frame, uint32_t port);

    /// Crash (false) or recover (true). A crash drops everything queued and the pipeline's
    /// soft state; the caller takes the attached links down.
    void SetUp(bool up);
    bool IsUp() const { return m_up; }
    void SetPortUp(uint32_t port, bool up);

    void ReceiveFrame(FramePtr frame, uint32_t port) override;
    bool PrepareTransmit(Frame& frame, uint32_t port) override;

    const Counters& GetCounters() const { return m_counters; }

  private:
    void DoDispose() override;
    void Dispatch(FramePtr frame);
    void Drop(const Frame& frame, uint32_t port, DropReason reason);
    void CpuServiceDone();

    uint32_t m_nodeId = 0;
    std::string m_name;
    uint32_t m_priorities = 8;
    uint32_t m_cpuPort = 255;
    ns3::Time m_cpuServiceTime;
    uint32_t m_cpuQueueLimit = 1024;
    ns3::Time m_pipelineDelay;
    bool m_up = true;

    std::unique_ptr<SwitchPipeline> m_pipeline;
    std::vector<ns3::Ptr<EgressPort>> m_ports;
    std::map<uint16_t, std::vector<uint32_t>> m_multicastGroups;

    CpuHandler m_cpuHandler;
    RingBuffer<FramePtr> m_cpuQueue;
    ns3::EventId m_cpuEvent;

    Counters m_counters;

    ns3::TracedCallback<const Frame&, uint32_t, uint32_t> m_receiveTrace; // frame, node, port
    ns3::TracedCallback<const Frame&, uint32_t, uint32_t, DropReason> m_dropTrace;
};

} // namespace incsim

#endif
