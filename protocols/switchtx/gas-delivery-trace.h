#ifndef INCSIM_SWITCHTX_GAS_DELIVERY_TRACE_H
#define INCSIM_SWITCHTX_GAS_DELIVERY_TRACE_H

#include "protocols/switchtx/switchtx-wire.h"
#include "sim/scenario/protocol.h"
#include "sim/trace/trace-schema.h"

#include <cstdint>
#include <string>

namespace incsim
{
class CsvWriter;
}

namespace incsim::switchtx
{

/// `switchtx_gas`: what the gatherers (switches, or the in-server gather thread) delivered to
/// the hosts: every control message a worker thread takes from its queue as a command
/// (a scatter, a fail, a commit_ok), and every attempt's start, which delimits the attempts of
/// one txn id (its counter wraps after 2^16 attempts of a client slot).
const TraceSchema& GasDeliveryTrace();

void LogAttemptBegin(CsvWriter& log, uint32_t host, uint32_t thread, uint32_t txnId,
                     int64_t timeNs);
void LogDelivery(CsvWriter& log, uint32_t host, uint32_t thread, uint32_t txnId, MsgType type,
                 int64_t timeNs);

/// The property CheckGasDeliveries reports.
extern const char* const kGasOnce;

/// Table 1's delivery guarantees, from `switchtx_gas` alone: per attempt, each host receives
/// each phase's scatter at most once, at most one fail (the first; the gatherer drops the
/// later ones, however many participants fail), and the client at most one commit_ok. A
/// gatherer that scatters before its threshold (it scatters the phase again at the
/// threshold) or ignores the aborted flag (it scatters a second participant's fail) breaks
/// them. Runs without the trace report the property as not checked.
void CheckGasDeliveries(const std::string& runDir, CheckFindings& findings);

} // namespace incsim::switchtx

#endif
