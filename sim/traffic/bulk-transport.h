#ifndef INCSIM_TRAFFIC_BULK_TRANSPORT_H
#define INCSIM_TRAFFIC_BULK_TRANSPORT_H

#include "sim/host/endpoint.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace incsim
{

/// Settings shared by every host's bulk transport, filled from /background (whose spec holds
/// the defaults) and /links/mtu.
struct BulkTransportConfig
{
    uint32_t segmentBytes = 0;       ///< payload per data segment (MSS)
    uint32_t maxWindowSegments = 0;  ///< receive window, in segments
    uint32_t initialWindow = 0;      ///< segments
    int64_t minRtoPs = 0;
    uint64_t nicLimitBytes = 0;      ///< data the host keeps queued in its NICs
    int64_t startPs = 0;
    int64_t stopPs = 0;                ///< no new data after this (retransmissions go on)
    uint8_t priority = 0;
    /// DCTCP (RFC 8257): segments are sent ECN-capable, receivers echo CE marks in their ACKs,
    /// and once per window the sender cuts cwnd by alpha / 2, alpha the moving average (gain
    /// `dctcpGain`) of the fraction of segments marked. False: loss-based only.
    bool dctcp = false;
    double dctcpGain = 0;
};

struct BulkTransportStats
{
    uint64_t segmentsSent = 0;
    uint64_t retransmissions = 0;
    uint64_t fastRetransmits = 0;
    uint64_t timeouts = 0;
    uint64_t ecnEchoes = 0; ///< ACKs that echoed a CE mark
    uint64_t bytesDelivered = 0; ///< in order, at receivers
};

/// A host's long-lived bulk flows over a TCP-like window transport, plus the receiving side of
/// flows towards this host: slow start, congestion avoidance, SACK-based fast recovery, and RTO
/// with backoff. Segments and ACKs are UDP datagrams on one port. Every data segment is ACKed
/// with the cumulative point, the segment that arrived (a one-segment SACK block) and its send
/// time (for RTT samples). The sender keeps a scoreboard of selectively acknowledged segments:
/// a segment with three or more acknowledged above it is lost, and recovery halves the window
/// and keeps FACK's estimate of the data in flight (sent beyond the highest acknowledged
/// segment, plus retransmissions) below it, retransmissions first. Resending after a timeout
/// skips what the receiver holds.
/// Like Linux's TCP small queues, a host hands data to its NICs only while they hold less than
/// `nicLimitBytes`, so windows queue in the network rather than the NIC. Flows share the NIC
/// round-robin, a segment at a time.
class BulkTransport : public Endpoint
{
  public:
    static ns3::TypeId GetTypeId();

    /// Bytes of the transport's header at the start of every UDP payload.
    static constexpr uint32_t kHeaderBytes = 32;

    void Configure(const BulkTransportConfig& config, BulkTransportStats* stats);
    /// A flow from this host to `dstHost`; `flowId` is unique in the run.
    void AddFlow(uint32_t flowId, uint32_t dstHost);
    /// Prepares to receive flow `flowId`.
    void ExpectFlow(uint32_t flowId);
    void Start();

  private:
    struct Sender
    {
        uint32_t id = 0;
        uint32_t dst = 0;
        uint64_t una = 0;            ///< oldest unacknowledged segment
        uint64_t next = 0;           ///< next segment to send
        uint64_t high = 0;           ///< one past the highest segment ever sent
        uint64_t highestSacked = 0;  ///< one past the highest segment acknowledged
        uint64_t recover = 0;        ///< `high` when fast recovery began
        uint64_t retransmitNext = 0; ///< in recovery: holes below this were retransmitted
        std::vector<uint8_t> sacked; ///< scoreboard: ring over [una, una + size)
        double cwnd = 0;             ///< segments
        double ssthresh = 0;
        bool inRecovery = false;
        uint64_t retransmittedOut = 0; ///< retransmissions not yet acknowledged
        int64_t srttPs = 0;
        int64_t rttvarPs = 0;
        int64_t rtoPs = 0;
        uint32_t backoff = 0;
        int64_t rtoDeadlinePs = -1; ///< -1: no timer
        ns3::EventId rtoEvent;
        double alpha = 0;             ///< DCTCP: estimated fraction of marked segments
        uint64_t windowEnd = 0;       ///< DCTCP: `high` when the current observation window began
        uint64_t ackedInWindow = 0;   ///< DCTCP: segments newly acknowledged in the window
        uint64_t markedInWindow = 0;  ///< DCTCP: of those, acknowledged with a CE echo
    };
    struct Receiver
    {
        uint64_t next = 0;             ///< next in-order segment
        std::vector<uint8_t> received; ///< ring over [next, next + size): arrived out of order
    };

    void DoReceive(const Datagram& datagram) override;
    void DoCrash() override;
    void DoRecover() override;

    void TrySend();
    bool CanSend(const Sender& flow) const;
    void SendSegment(Sender& flow, uint64_t segment);
    void OnAck(Sender& flow, uint64_t ack, uint64_t arrived, int64_t echoPs, bool ecnEcho);
    /// DCTCP's per-window update: alpha, and the cut when anything was marked.
    void UpdateDctcp(Sender& flow, uint64_t newlyAcked, bool ecnEcho);
    bool IsSacked(const Sender& flow, uint64_t segment) const;
    uint64_t FackWindow(const Sender& flow) const;
    void MarkAcknowledged(Sender& flow, uint64_t segment);
    /// In recovery: retransmits the first lost segment not yet retransmitted; true if it did.
    bool RetransmitNextLoss(Sender& flow);
    void OnData(uint32_t flowId, uint32_t srcHost, uint64_t segment, int64_t echoPs, bool ce);
    void UpdateRtt(Sender& flow, int64_t samplePs);
    void ArmRto(Sender& flow);
    void RtoExpired(uint32_t index);
    uint64_t NicQueuedBytes() const;

    BulkTransportConfig m_config;
    BulkTransportStats* m_stats = nullptr;
    std::vector<Sender> m_senders;
    std::unordered_map<uint32_t, uint32_t> m_senderById;
    std::unordered_map<uint32_t, Receiver> m_receivers;
    uint32_t m_nextSender = 0; // round-robin position
    ns3::EventId m_wakeEvent;  // the NIC drains below its limit
};

} // namespace incsim

#endif
