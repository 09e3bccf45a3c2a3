#ifndef INCSIM_NET_EGRESS_PORT_H
#define INCSIM_NET_EGRESS_PORT_H

#include "sim/net/drop-reason.h"
#include "sim/net/frame-sink.h"
#include "sim/net/frame.h"
#include "sim/net/ring-buffer.h"

#include <ns3/event-id.h>
#include <ns3/object.h>
#include <ns3/traced-callback.h>

#include <array>
#include <cstdint>
#include <vector>

namespace incsim
{

class Link;

/// The traffic manager's view of one egress port: strict-priority FIFO queues sharing one
/// byte buffer, and the serialiser that feeds the link. A single FIFO per (port, priority)
/// keeps every (ingress port, egress port, priority) flow in order, which 1Pipe relies on.
///
/// Events: a frame that finds the port idle starts at once; a "transmission done" event is
/// scheduled only while frames wait, so an uncongested hop costs no event here.
class EgressPort : public ns3::Object
{
  public:
    static ns3::TypeId GetTypeId();

    struct Counters
    {
        uint64_t enqueued = 0;
        uint64_t transmitted = 0;
        uint64_t bufferDrops = 0;
        uint64_t maxQueuedBytes = 0;
        uint64_t ecnMarks = 0;
        /// Frames discarded from the queues by Flush (link or node failure), by reason.
        std::array<uint64_t, static_cast<size_t>(DropReason::Count)> flushDrops{};
    };

    EgressPort();
    ~EgressPort() override;

    void Configure(uint32_t nodeId,
                   uint32_t port,
                   uint64_t rateBps,
                   uint64_t bufferBytes,
                   uint32_t priorities,
                   TransmitHook* hook);
    void ConnectLink(Link* link, int side);

    /// Queues the frame at priority frame.meta.priority (clamped to the highest queue).
    /// Returns false if the buffer had no room (the frame is dropped and traced).
    bool Enqueue(FramePtr frame);
    /// Drops everything queued (node crash or link failure).
    void Flush(DropReason reason);

    uint64_t QueuedBytes() const { return m_queuedBytes; }
    /// Time until the port has sent everything it holds now: the frame on the wire and the
    /// queued ones, each with its preamble and gap.
    int64_t BacklogPs() const;
    uint64_t QueuedFrames() const { return m_queuedFrames; }
    uint64_t RateBps() const { return m_rateBps; }
    uint32_t PortNumber() const { return m_port; }
    const Counters& GetCounters() const { return m_counters; }

  private:
    void DoDispose() override;
    void StartNext();
    void ScheduleDone();
    void TransmissionDone();
    int64_t SerialisationPs(uint64_t wireBytes) const;

    uint32_t m_nodeId = 0;
    uint32_t m_port = 0;
    uint64_t m_rateBps = 0;
    uint64_t m_bufferBytes = 0;
    uint64_t m_ecnThresholdBytes = 0;
    TransmitHook* m_hook = nullptr;
    Link* m_link = nullptr;
    int m_side = 0;

    std::vector<RingBuffer<FramePtr>> m_queues; // index = priority
    uint64_t m_queuedBytes = 0;
    uint64_t m_queuedFrames = 0;
    int64_t m_busyUntilPs = 0;
    ns3::EventId m_doneEvent;
    bool m_donePending = false; // cheaper than asking the simulator about m_doneEvent
    Counters m_counters;

    ns3::TracedCallback<const Frame&, uint32_t, uint32_t> m_enqueueTrace;  // frame, node, port
    ns3::TracedCallback<const Frame&, uint32_t, uint32_t> m_transmitTrace; // at first bit
    ns3::TracedCallback<const Frame&, uint32_t, uint32_t, DropReason> m_dropTrace;
};

} // namespace incsim

#endif
