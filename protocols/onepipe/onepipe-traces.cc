#include "protocols/onepipe/onepipe-traces.h"

namespace incsim::onepipe
{

namespace
{
// Processes are numbered host * processes_per_host + index; a message is (src, seq), one per
// destination of a scattering; ts is its 1Pipe timestamp.
const TraceColumn kSrc{"src", "int", "Sending process (host * `processes_per_host` + index)."};
const TraceColumn kSeq{"seq", "uint64",
                       "Message number at the sender: (`src`, `seq`) names one message, one per "
                       "destination of a scattering."};
const TraceColumn kDst{"dst", "int", "Receiving process."};
const TraceColumn kTs{"ts", "uint64",
                      "The message's 1Pipe timestamp (ns of the sender's timestamp clock; 0 "
                      "for the sequencer baselines, whose key is the sequencer's)."};
} // namespace

const TraceSchema&
SendsTrace()
{
    static const TraceSchema trace{
        "onepipe_sends",
        "One row per message that left its process for the network.",
        {kSrc, kSeq, kDst, kTs,
         {"bytes", "bytes", "Message size."},
         {"send_ns", "ns",
          "True time the message left the process: after its send CPU cost (token passing: "
          "when the token came)."}}};
    return trace;
}

const TraceSchema&
DeliveriesTrace()
{
    static const TraceSchema trace{
        "onepipe_deliveries",
        "One row per message handed to an application (after the receiver's "
        "`/hosts/message_cost`), in delivery order.",
        {{"dst", "int", "Receiving process."},
         kSrc, kSeq, kTs,
         {"dst_clock", "uint64", "The receiver's timestamp clock at delivery."},
         {"deliver_ns", "ns", "True time of the delivery."},
         {"latency_ns", "ns", "From the application's send call to the delivery."},
         {"barrier", "uint64",
          "The barrier that released it: the best-effort barrier, or the commit barrier "
          "(`service: reliable`); 0 for the baselines and the unordered baseline."}}};
    return trace;
}

const TraceSchema&
FailuresTrace()
{
    static const TraceSchema trace{
        "onepipe_failures",
        "One row per message reported to the sender's send-failure callback.",
        {kSrc, kSeq, kDst, kTs,
         {"reason", "string", "`timeout`, `nak` or `nic_full`."},
         {"time_ns", "ns", "When the failure was reported."}}};
    return trace;
}

const TraceSchema&
PreparesTrace()
{
    static const TraceSchema trace{
        "onepipe_prepares",
        "Reliable service: one row per message when its receiver holds all of it (prepared; "
        "the ACK of its last segment leaves then).",
        {{"dst", "int", "Receiving process."},
         kSrc, kSeq, kTs,
         {"prepare_ns", "ns", "True time the receiver held the whole message."}}};
    return trace;
}

std::vector<TraceSchema>
OnePipeTraces()
{
    return {SendsTrace(), DeliveriesTrace(), FailuresTrace(), PreparesTrace()};
}

} // namespace incsim::onepipe
