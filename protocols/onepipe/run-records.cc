#include "protocols/onepipe/run-records.h"

#include "sim/core/sim-time.h"
#include "sim/trace/csv-writer.h"

namespace incsim::onepipe
{

void
LogDelivery(Stats& stats, const Traces& traces, uint32_t dst, uint32_t src, uint32_t sequence,
            uint64_t ts, uint64_t clock, uint64_t barrier)
{
    const int64_t now = NowPs();
    ++stats.messagesDelivered;
    const int64_t latency = now - stats.sendPs[src][sequence];
    stats.latenciesPs.push_back(latency);
    if (traces.deliveries)
    {
        traces.deliveries->Row(dst, src, sequence, ts, clock, now / kPsPerNs, latency / kPsPerNs,
                               barrier);
    }
}

void
LogSend(Stats& stats, const Traces& traces, uint32_t src, uint32_t sequence, uint32_t dst,
        uint64_t ts, uint32_t bytes)
{
    ++stats.messagesSent;
    if (traces.sends)
    {
        traces.sends->Row(src, sequence, dst, ts, bytes, NowPs() / kPsPerNs);
    }
}

} // namespace incsim::onepipe
