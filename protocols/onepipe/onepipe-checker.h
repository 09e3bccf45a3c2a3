#ifndef INCSIM_ONEPIPE_ONEPIPE_CHECKER_H
#define INCSIM_ONEPIPE_ONEPIPE_CHECKER_H

#include "sim/scenario/protocol.h"

#include <string>

namespace incsim::onepipe
{

/// Checks a 1Pipe run directory (its onepipe_sends, onepipe_deliveries and onepipe_failures
/// traces, and scenario.resolved.json):
///   - nothing delivered that was never sent (to that receiver, with that timestamp);
///   - no message delivered twice;
///   - every receiver delivers in increasing (timestamp, sender, sequence) order;
///   - total order: one global order of scatterings (a sender's messages with one timestamp,
///     such as the copies of a broadcast) agrees with every receiver's (the receivers' orders,
///     joined, have no cycle), found without comparing timestamps;
///   - causality: a delivered timestamp is below the receiver's clock at delivery, and below
///     the timestamp of everything the receiver sends afterwards (1Pipe's timestamps only; the
///     baselines' keys are sequence numbers or Lamport clocks, and a sequencer's keys are not
///     known to their senders);
///   - conservation: every message sent at least ack_timeout + kSettleNs before the end was
///     delivered at its receiver or reported to its sender's send-failure callback;
///   - completeness: if metrics.json shows the network dropped nothing, every such message was
///     delivered, and no message at all was NAKed (none arrived below a barrier its receiver
///     had: barriers were sound).
/// With `service: reliable` also (onepipe_prepares and the deliveries' barrier column):
///   - commit before delivery: when a process delivers timestamp T, every message with a
///     timestamp at most T (from any sender, to any receiver) is already prepared (held whole
///     by its receiver), and T is below the commit barrier that released it;
///   - atomicity: a scattering is delivered to all its receivers or to none: a receiver that
///     did not deliver a message others of its scattering delivered has delivered nothing
///     ordered after it (it is still waiting for the commit barrier);
///   - completeness holds on lossy networks too, so every counted message was delivered;
///   - under failures (the controller's onepipe_controller trace names the failed processes
///     and their failure timestamps; onepipe_failures the recalled scatterings): atomicity
///     counts live receivers only; no recalled delivery (no message of a recalled scattering,
///     nor one at or above its failed sender's failure timestamp, is delivered); delivered
///     after recovery (every other message to a live receiver is delivered before anything
///     the receiver delivers after it in the order); commit before delivery, conservation and
///     completeness leave out what never had to be delivered.
CheckReport CheckRun(const std::string& runDir);

/// Grace after the ACK timeout before a message must be accounted for.
constexpr int64_t kSettleNs = 20000;

} // namespace incsim::onepipe

#endif
