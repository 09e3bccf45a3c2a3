#ifndef INCSIM_ONEPIPE_ONEPIPE_ENDPOINT_H
#define INCSIM_ONEPIPE_ONEPIPE_ENDPOINT_H

#include "protocols/onepipe/failure-notice.h"
#include "protocols/onepipe/onepipe-host.h"
#include "protocols/onepipe/onepipe-wire.h"
#include "protocols/onepipe/prepare-channels.h"
#include "sim/host/endpoint.h"

#include <ns3/event-id.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace incsim
{
class CsvWriter;
}

namespace incsim::onepipe
{

/// One message of a scattering: a destination process and a size. The simulator does not
/// carry payload bytes; a message is identified by (sender, sequence). `tag` is the one
/// payload word it does carry, for an application to name what the message holds (the apps
/// of docs/onepipe-apps.md keep the contents in a table it indexes): the first 8 bytes of the
/// message, so a message with a tag has at least 8 bytes.
struct Outgoing
{
    uint32_t dst = 0;
    uint32_t bytes = 0;
    uint64_t tag = 0;
};

struct Delivered
{
    uint64_t ts = 0;
    uint32_t src = 0;
    uint32_t sequence = 0;
    uint32_t bytes = 0;
    uint64_t tag = 0;
};

enum class FailureReason
{
    Timeout, ///< no end-to-end ACK within the ACK timeout
    Nak,     ///< the receiver dropped it: it arrived below the barrier, or incomplete
    Nic,     ///< the NIC queue was full
    Recalled ///< reliable: a receiver failed before ACKing it, so its scattering was aborted
};

/// A 1Pipe process: the API of the paper's Table 1 (best-effort service), bound to UDP port
/// kPortBase + its index on the host. Process ids are global: host * processesPerHost + index.
///
/// Sending: a scattering gets one timestamp when it leaves (after its CPU cost), every message
/// is fragmented to the MTU, and each packet carries the host's barrier. Receiving: complete
/// messages wait in a priority queue on (timestamp, sender, sequence) and are delivered once
/// the host's barrier passes their timestamp; a packet below the barrier already delivered is
/// dropped and NAKed, as is a message still incomplete when the barrier passes it. Receivers
/// ACK complete messages (batched per sender after the ACK delay); a message with no ACK
/// within the ACK timeout, or NAKed, goes to the send-failure callback.
///
/// The reliable service (`service: reliable`, docs/onepipe.md "Reliable 1Pipe"): ReliableSend
/// prepares a scattering over one ReliableChannel per destination (PrepareChannels); a
/// receiver holds complete messages in the same priority queue and delivers them once the
/// commit barrier passes them (OnePipeHost). The process's part of its host's commit barrier
/// is OldestUnacked(). On the controller's failure notice (ProcessFailures) it runs the
/// paper's Discard, Recall and Callback steps and then reports completion to the controller
/// (docs/onepipe.md, "Failure handling").
class OnePipeEndpoint : public Endpoint
{
  public:
    using ReceiveCallback = std::function<void(const Delivered& message)>;
    /// A message that failed: its timestamp, destination, sequence and tag (Outgoing::tag, for
    /// the application to find what it sent).
    using SendFailureCallback = std::function<void(uint64_t ts, uint32_t dst, uint32_t sequence,
                                                   uint64_t tag, FailureReason reason)>;
    using ProcessFailureCallback = std::function<void(uint32_t process, uint64_t ts)>;
    /// Sends the controller a completion (M10) for failure notice `epoch`.
    using Completion = std::function<void(uint32_t process, uint64_t epoch)>;
    /// Sends the controller the recalls whose receivers had failed, of one failure notice.
    using RecallSink = std::function<void(uint32_t process, std::vector<UndeliveredRecall> recalls)>;
    /// Asks the controller to forward what a prepare channel could not deliver (M12).
    using ForwardSink = std::function<void(const ForwardRequest& request)>;
    /// A recovered process's new identity: its first timestamp, and whether the old identity
    /// kept its receive buffer (a host that crashed lost it).
    struct Rejoin
    {
        uint64_t ts;
        bool keptBuffer;
    };

    static ns3::TypeId GetTypeId();

    OnePipeEndpoint();
    ~OnePipeEndpoint() override;

    using Peers = std::vector<ns3::Ptr<OnePipeEndpoint>>;
    /// `peers`: every process of the run by id (the reliable service's channels are one
    /// object for both ends, kept by the sender).
    void Configure(OnePipeHost& host, uint32_t processId, Stats* stats, const Traces& traces,
                   const Peers* peers);

    // Table 1.
    void UnreliableSend(const std::vector<Outgoing>& scattering);
    /// onepipe_reliable_send (needs `service: reliable`).
    void ReliableSend(const std::vector<Outgoing>& scattering);
    void SetReceiveCallback(ReceiveCallback callback) { m_onReceive = std::move(callback); }
    /// Called once per scattering when it has left the host (its send CPU cost paid, its
    /// packets sent by the NIC, as an RDMA send completes), for an application that blocks on
    /// its sends (ScatterApp's `max_unsent`).
    void SetTransmittedCallback(std::function<void()> callback)
    {
        m_onTransmitted = std::move(callback);
    }
    void SetSendFailureCallback(SendFailureCallback callback)
    {
        m_onSendFailure = std::move(callback);
    }
    void SetProcessFailureCallback(ProcessFailureCallback callback)
    {
        m_onProcessFailure = std::move(callback);
    }
    /// Called when this process, recovered, may send again as its new identity (Admitted).
    void SetRejoinCallback(std::function<void()> callback) { m_onRejoin = std::move(callback); }
    /// Reliable service: the controller announced `process` failed and it has not rejoined
    /// since; sends to it are left out.
    bool PeerFailed(uint32_t process) const
    {
        return m_prepare && m_failedFrom[process] != PrepareChannels::kNone;
    }
    uint64_t GetTimestamp() { return m_host->Timestamp(); }

    /// Reliable service: how this process answers the controller.
    void SetFailureHandling(ControllerMode mode, Completion completion, RecallSink recalls,
                            ForwardSink forward);
    /// Controller forwarding, at the receiver: the segments of `request` arrive from the
    /// controller. Returns the channel's next expected sequence number (the ACK the
    /// controller carries back), or nothing if the channel is gone or this process cannot
    /// take them (failed, or its host down).
    std::optional<uint32_t> ReceiveForwarded(const ForwardRequest& request);
    /// Controller forwarding, at the sender: the receiver's ACK `next`, carried back.
    void ForwardedAck(const ForwardRequest& request, uint32_t next);
    /// The controller's failure broadcast (M7): Discard, Recall, then, once every recall is
    /// ACKed, Callback and a completion for `epoch`.
    void ProcessFailures(uint64_t epoch, const std::vector<ProcessFailure>& failures);
    /// The controller declared this process failed (or its host crashed): its old identity
    /// stops sending (the prepare channels close, their scatterings are void), and it holds
    /// what it received until it recovers.
    void DeclaredFailed();
    /// Receiver recovery (paper 5.2): drops the buffered messages recalled or from senders
    /// that failed at or below their timestamp, delivers the rest in timestamp order, and
    /// joins again as a new identity.
    Rejoin Recover(const RecoveryNotice& notice);
    /// The controller gave up waiting for this process's completion (paper 5.2: it is
    /// considered failed). Its host's NIC freezes the process's part of the host's commit
    /// barrier at its value now, which it returns (the failure timestamp), until
    /// ReleaseCommit; the process is stopped as DeclaredFailed.
    uint64_t Silence();
    /// Resume: the frozen commit barrier of Silence no longer counts.
    void ReleaseCommit();
    /// Test only: the process ignores failure notices, as one hung in the middle of handling
    /// one (the controller's completion timeout must declare it failed).
    void SetUnresponsive() { m_unresponsive = true; }
    /// Process `process` rejoined as a new identity: it may be sent to again.
    void PeerRejoined(uint32_t process);
    /// Every other process knows this one's new identity: it may send again.
    void Admitted();

    uint32_t ProcessId() const { return m_processId; }
    /// Called by OnePipeHost when the barrier it delivers on (best-effort or commit) advances.
    void DeliverBelow(uint64_t barrier);
    /// Reliable service: the timestamp of this process's oldest scattering not yet ACKed by
    /// all its receivers (PrepareChannels::kNone if none).
    uint64_t OldestUnacked() const
    {
        if (m_commitHold != PrepareChannels::kNone)
        {
            return m_commitHold;
        }
        return m_prepare ? m_prepare->OldestUnacked() : PrepareChannels::kNone;
    }
    /// The prepare channels' counters, of this identity and the earlier ones.
    PrepareChannels::Channel::Counters PrepareCounters() const
    {
        PrepareChannels::Channel::Counters total = m_countersBefore;
        if (m_prepare)
        {
            total += m_prepare->Totals();
        }
        return total;
    }
    size_t Buffered() const { return m_ready.size() + m_partial.size(); }

  private:
    struct Ready
    {
        uint64_t ts;
        uint32_t src;
        uint32_t sequence;
        uint32_t bytes;
        uint64_t tag;
        bool operator>(const Ready& other) const
        {
            if (ts != other.ts)
            {
                return ts > other.ts;
            }
            return src != other.src ? src > other.src : sequence > other.sequence;
        }
    };
    struct Partial
    {
        uint64_t ts;
        uint32_t received;
        uint32_t fragments;
        uint32_t bytes;
        uint64_t tag;
    };
    /// A sent message until its ACK, NAK or timeout; kept in sequence order.
    struct Outstanding
    {
        uint64_t ts;
        int64_t deadlinePs;
        uint32_t dst;
        bool open;
        uint64_t tag;
    };
    struct PendingAcks
    {
        std::vector<uint32_t> sequences;
        double feedbackSumNs = 0;
        ns3::EventId flush;
    };

    void DoReceive(const Datagram& datagram) override;
    void DoCrash() override;
    void DoDispose() override;

    /// `apiPs`: when the application asked (latency is measured from there).
    void Transmit(std::vector<Outgoing> scattering, int64_t apiPs);
    void TransmitReliable(const std::vector<Outgoing>& scattering, int64_t apiPs);
    PrepareChannels::Channel::Hooks PrepareHooks(uint32_t dst);
    void SendSegment(uint32_t dst, uint32_t seq, const Segment& segment, uint64_t stamp);
    void SendPrepareAck(uint32_t src, uint32_t next, bool sequenceError, uint64_t echo);
    void ReceivePrepare(uint32_t src, const Header& header);
    void ReceivePrepareAck(uint32_t src, const Header& header);
    /// At the receiver: the channel from `src` delivered `segment`, in order.
    void Prepared(uint32_t src, const Segment& segment);
    void ReceiveData(uint32_t src, const Header& header, const uint8_t* body, uint32_t length);
    void ReceiveAcks(const Header& header, const uint8_t* body, uint32_t length);
    void Complete(uint32_t src, uint64_t ts, uint32_t sequence, uint32_t bytes, uint64_t tag);
    void Deliver(const Ready& message, uint64_t barrier);
    void QueueAck(uint32_t src, uint32_t sequence, int64_t feedbackNs);
    void FlushAcks(uint32_t src);
    void SendControl(uint32_t dst, Opcode opcode, const std::vector<uint32_t>& sequences,
                     int32_t feedbackNs);
    void Fail(uint32_t sequence, Outstanding& message, FailureReason reason);
    /// Counts, traces and calls back a send that failed.
    void ReportFailure(uint32_t sequence, uint32_t dst, uint64_t ts, uint64_t tag,
                       FailureReason reason);
    Outstanding* FindOutstanding(uint32_t sequence);
    void CheckTimeouts();
    void PushReady(const Ready& message);
    Ready PopReady();
    /// Removes from the receive buffer the messages `drop` selects.
    template <typename Predicate>
    void DropReady(Predicate drop);
    /// Recall: aborts the scatterings waiting for `failed`'s ACKs.
    void RecallFrom(uint32_t failed);
    /// The channel to `dst` retransmitted without an answer: ask the controller to forward.
    void RequestForward(uint32_t dst);
    /// The prepare channel `request` names, if it still exists (at its sender).
    PrepareChannels::Channel* ForwardedChannel(const ForwardRequest& request) const;
    /// Callback and completion, once no recall is outstanding.
    void CompleteIfRecalled();
    bool SendPacket(uint32_t dst, const uint8_t* bytes, uint32_t materialised, uint32_t payload);
    /// The transmitted callback, once the NIC has sent what it holds now.
    void NotifyTransmitted();
    /// Refuses a scattering with a tag on a message too small to carry it.
    static void CheckTags(const std::vector<Outgoing>& scattering);

    OnePipeHost* m_host = nullptr;
    uint32_t m_processId = 0;
    Stats* m_stats = nullptr;
    Traces m_traces;
    ReceiveCallback m_onReceive;
    SendFailureCallback m_onSendFailure;
    std::function<void()> m_onTransmitted;

    uint32_t m_nextSequence = 0;
    std::vector<uint32_t> m_psn; // per destination process
    /// Complete messages: a min-heap on (ts, src, sequence) (std::push_heap with greater).
    std::vector<Ready> m_ready;
    std::unordered_map<uint64_t, Partial> m_partial; // key: (src, sequence)
    std::deque<Outstanding> m_outstanding; // sequences m_firstOutstanding, ...
    uint32_t m_firstOutstanding = 0;
    ns3::EventId m_timeoutEvent;
    std::vector<PendingAcks> m_pendingAcks; // by sender process (a hash lookup per packet was 6% of a 512-process run)
    std::vector<uint8_t> m_packet; // scratch for the bytes of the packet being built
    const Peers* m_peers = nullptr;
    std::unique_ptr<PrepareChannels> m_prepare; // reliable service only
    ProcessFailureCallback m_onProcessFailure;
    std::function<void()> m_onRejoin;
    ControllerMode m_controllerMode = ControllerMode::Full;
    Completion m_completion;
    RecallSink m_recallSink;
    ForwardSink m_forwardSink;
    /// Silence: the frozen part of the host's commit barrier, or kNone.
    uint64_t m_commitHold = PrepareChannels::kNone;
    bool m_unresponsive = false;
    /// Per destination: the number of the current prepare channel to it (each channel this
    /// process makes gets the next), so that a forwarded segment finds only its own channel.
    std::vector<uint64_t> m_channelNumber;
    uint64_t m_channelsMade = 0;
    /// Declared failed (or crashed) and not yet recovered: nothing is sent or delivered.
    bool m_declaredFailed = false;
    bool m_crashed = false;
    /// The current notice's recalls for failed receivers, sent with its completion.
    std::vector<UndeliveredRecall> m_kept;
    /// Recovered, and not yet Admitted.
    bool m_joining = false;
    /// The timestamp of the last reliable scattering.
    uint64_t m_lastScatteringTs = 0;
    /// Processes that rejoined while this one was failed.
    std::vector<uint32_t> m_rejoinedMeanwhile;
    /// The counters of the prepare channels an earlier identity had.
    PrepareChannels::Channel::Counters m_countersBefore;
    /// Per process: the failure timestamp the controller announced, or kNone.
    std::vector<uint64_t> m_failedFrom;
    /// The latest failure notice, until its completion is sent.
    std::vector<ProcessFailure> m_notice;
    uint64_t m_noticeEpoch = 0;
    bool m_noticePending = false;
    double m_averageSlackNs = 0;
    bool m_haveSlack = false;
};

const char* ToString(FailureReason reason);

} // namespace incsim::onepipe

#endif
