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

/// Counters of a whole run, shared by every host and process.
struct Stats
{
    uint64_t messagesSent = 0; ///< one per destination of a scattering
    uint64_t messagesDelivered = 0;
    uint64_t packetsSent = 0;
    uint64_t lateDrops = 0;         ///< arrived below the delivered barrier: dropped, NAKed
    uint64_t incompleteDrops = 0;   ///< a fragment missing when the barrier passed
    uint64_t failuresTimeout = 0;   ///< send failures: no ACK in time
    uint64_t failuresNak = 0;
    uint64_t failuresNic = 0;       ///< the NIC queue was full
    uint64_t acksSent = 0;
    uint64_t hostBeacons = 0;
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
};

/// Records a delivery at process `dst` now: its latency from the application's send, and an
/// onepipe_deliveries row. `clock` is the receiver's clock (its timestamp source).
void LogDelivery(Stats& stats, const Traces& traces, uint32_t dst, uint32_t src, uint32_t sequence,
                 uint64_t ts, uint64_t clock);

} // namespace incsim::onepipe

#endif
