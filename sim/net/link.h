#ifndef INCSIM_NET_LINK_H
#define INCSIM_NET_LINK_H

#include "sim/core/rng.h"
#include "sim/net/drop-reason.h"
#include "sim/net/frame-sink.h"
#include "sim/net/frame.h"
#include "sim/net/ring-buffer.h"

#include <ns3/event-id.h>
#include <ns3/object.h>
#include <ns3/traced-callback.h>

#include <array>
#include <cstdint>

namespace incsim
{

/// A full-duplex point-to-point link. Each direction is a pipe in the style of htsim: frames in
/// flight wait in a FIFO, and only the earliest arrival has a pending simulator event, so a
/// long link with many frames in flight costs one event at a time. The frame object itself is
/// handed to the far end (no copy).
class Link : public ns3::Object
{
  public:
    static ns3::TypeId GetTypeId();

    struct Counters
    {
        /// Frames put on the wire while the link was up (lost ones included).
        uint64_t txFrames = 0;
        uint64_t txBytes = 0; ///< wire bytes, including preamble, FCS and gap
        uint64_t deliveredFrames = 0;
        uint64_t lossDrops = 0;
        uint64_t downDrops = 0;
    };

    Link();
    ~Link() override;

    /// `id` is the topology's link id. Side 0 is the topology's end a, side 1 is end b.
    void Configure(uint32_t id, int64_t delayPs, double lossRate, uint64_t seed);
    /// `rxExtraPs` is the receiver's fixed processing latency (e.g. a switch's ingress
    /// pipeline), folded into the arrival time so that it costs no extra event.
    void Attach(int side, FrameSink* sink, uint32_t nodeId, uint32_t port, int64_t rxExtraPs);

    /// Called by the egress port on `side` once the last bit of `frame` has been serialised
    /// at `lastBitPs`.
    void Transmit(int side, FramePtr frame, uint64_t wireBytes, int64_t lastBitPs);

    void SetUp(bool up);
    bool IsUp() const { return m_up; }
    void SetLossRate(double lossRate);
    double LossRate() const { return m_lossRate; }

    uint32_t Id() const { return m_id; }
    uint32_t NodeAt(int side) const { return m_dir[side].fromNode; }
    uint32_t PortAt(int side) const { return m_dir[side].fromPort; }
    /// Counters of the direction leaving `side`.
    const Counters& GetCounters(int side) const { return m_dir[side].counters; }

  private:
    struct InFlight
    {
        int64_t arrivalPs = 0;
        FramePtr frame;
    };

    /// The direction leaving one side: its frames arrive at `sink` on port `toPort`.
    struct Direction
    {
        FrameSink* sink = nullptr;
        uint32_t toPort = 0;
        uint32_t fromNode = 0;
        uint32_t fromPort = 0;
        int64_t latencyPs = 0; ///< propagation plus receiver processing
        Rng lossRng{0};
        RingBuffer<InFlight> inFlight;
        ns3::EventId event;
        Counters counters;
    };

    void DoDispose() override;
    void Deliver(int dir);
    void DropInFlight(int dir);

    uint32_t m_id = 0;
    int64_t m_delayPs = 0;
    double m_lossRate = 0;
    bool m_up = true;
    std::array<Direction, 2> m_dir;

    /// (frame, from node, from port, reason)
    ns3::TracedCallback<const Frame&, uint32_t, uint32_t, DropReason> m_dropTrace;
};

} // namespace incsim

#endif
