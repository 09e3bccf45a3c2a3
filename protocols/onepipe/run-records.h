#ifndef INCSIM_ONEPIPE_RUN_RECORDS_H
#define INCSIM_ONEPIPE_RUN_RECORDS_H

#include <cstdint>
#include <vector>

namespace incsim
{
class CsvWriter;
}

namespace incsim::onepipe
{

/// Counters of a whole run, shared by every host and process. Messages count one per
/// destination of a scattering, and one definition holds for 1Pipe, the unordered baseline and
/// the broadcast baselines alike (docs/traces.md).
struct Stats
{
    /// The application asked to send it (the API call, before the send CPU cost).
    uint64_t messagesOffered = 0;
    /// It left the sending process for the network with its timestamp or key (after the send
    /// CPU cost; token passing: when the token came): an onepipe_sends row.
    uint64_t messagesSent = 0;
    /// Handed to the application, after the receiver's CPU cost: an onepipe_deliveries row.
    uint64_t messagesDelivered = 0;
    uint64_t packetsSent = 0;
    uint64_t lateDrops = 0;         ///< arrived below the delivered barrier: dropped, NAKed
    uint64_t incompleteDrops = 0;   ///< a fragment missing when the barrier passed
    uint64_t failuresTimeout = 0;   ///< send failures: no ACK in time
    uint64_t failuresNak = 0;
    uint64_t failuresNic = 0;       ///< the NIC queue was full
    uint64_t failuresRecalled = 0;  ///< reliable: aborted scatterings' messages
    uint64_t acksSent = 0;
    uint64_t hostBeacons = 0;
    /// 1Pipe packets lib1pipe dropped on receipt (receive_loss), at hosts and representatives.
    uint64_t receiveDrops = 0;
    /// A host's clock was behind a barrier it received and jumped to it (Lamport's rule).
    uint64_t clockRaises = 0;
    /// A host whose switch port was out took a join timestamp from the switch (rejoining).
    uint64_t clockJoins = 0;
    /// Reliable service: commit messages hosts sent when their commit barrier advanced.
    uint64_t commitMessages = 0;
    std::vector<int64_t> latenciesPs;
    /// True send time (ps) of each process's messages, by sequence number.
    std::vector<std::vector<int64_t>> sendPs;
};

/// Trace files a run writes (each may be null: disabled).
struct Traces
{
    CsvWriter* sends = nullptr;
    CsvWriter* deliveries = nullptr;
    CsvWriter* failures = nullptr;
    CsvWriter* prepares = nullptr;
    CsvWriter* callbacks = nullptr; ///< reliable: process-failure callbacks
};

/// Records a delivery to the application of process `dst` now (its CPU cost paid): the count,
/// its latency from the application's send, and an onepipe_deliveries row. `clock` is the
/// receiver's clock (its timestamp source); `barrier` the barrier that released the delivery
/// (best-effort or commit; 0 for the baselines).
void LogDelivery(Stats& stats, const Traces& traces, uint32_t dst, uint32_t src, uint32_t sequence,
                 uint64_t ts, uint64_t clock, uint64_t barrier);
/// Records a message leaving process `src` for the network now: the count and an
/// onepipe_sends row.
void LogSend(Stats& stats, const Traces& traces, uint32_t src, uint32_t sequence, uint32_t dst,
             uint64_t ts, uint32_t bytes);

} // namespace incsim::onepipe

#endif
