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
         {"reason", "string",
          "`timeout`, `nak` or `nic_full`; reliable service: `recalled` (a receiver failed "
          "before ACKing the scattering, which was aborted: every message of it gets a row)."},
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

const TraceSchema&
ControllerTrace()
{
    static const TraceSchema trace{
        "onepipe_controller",
        "Reliable service: one row per step of the failure-handling controller "
        "(docs/onepipe.md, \"Failure handling\"), in time order.",
        {{"time_ns", "ns", "When the controller took the step."},
         {"event", "string",
          "`report` (a switch reported a silent port: `node`, `port`, `ts` = the last commit "
          "barrier from it), `failed` (Determine declared `process` failed with failure "
          "timestamp `ts`: its messages below `ts` are delivered, none at or above), "
          "`broadcast` (epoch `ts` sent to every correct process), `resume` (`node` removes "
          "`port` from its commit inputs), `recall_kept` (`process` sent the recalls for "
          "failed receivers of one failure notice, `ts` of them, kept for their recovery), `repair` (`node`'s reported `port` "
          "is live again), `readmitted` (`node` counts `port` in its commit barrier again), "
          "`recover` (`process`, connected again, starts receiver recovery), `recovered` (its "
          "old identity kept its receive buffer and delivered what was left of it: messages to "
          "it are owed), `rejoined` (`process` joined again as a new identity whose first "
          "timestamp is `ts`; the checker names it `process@ts`), `forward` (`process` asked "
          "the controller to forward `ts` segments of its prepare channel to `peer`, whose "
          "retransmissions went unanswered; ignored if either was announced failed), `forward_ack` (the controller carries `peer`'s "
          "forwarded segments' ACK from `process`: every segment below number `ts` arrived), "
          "`unreachable` (the controller could not reach `process` to forward: it reads its "
          "host's ports at their switches as reports, so Determine declares it failed), `timeout` (`process` had not completed "
          "notice `ts` within the completion timeout: its NIC freezes its commit barrier, "
          "which becomes its failure timestamp, and a `failed` row follows)."},
         {"node", "string", "The switch (report, resume, repair, readmitted), else empty."},
         {"port", "int", "Its port (report, resume, repair, readmitted), else -1."},
         {"process", "int",
          "The process (failed, recall_kept, recover, recovered, rejoined, forward, "
          "forward_ack, unreachable, timeout), else -1."},
         {"ts", "uint64", "See `event`."},
         {"peer", "int", "The other process of a forward (forward, forward_ack), else -1."}}};
    return trace;
}

const TraceSchema&
CallbacksTrace()
{
    static const TraceSchema trace{
        "onepipe_callbacks",
        "Reliable service: one row per process-failure callback (Table 1), run by a correct "
        "process after its Discard and Recall steps for a failure notice.",
        {{"process", "int", "The process running the callback."},
         {"failed", "int", "The failed process."},
         {"failure_ts", "uint64", "Its failure timestamp."},
         {"time_ns", "ns", "When the callback ran."}}};
    return trace;
}

std::vector<TraceSchema>
OnePipeTraces()
{
    return {SendsTrace(),   DeliveriesTrace(), FailuresTrace(),
            PreparesTrace(), ControllerTrace(), CallbacksTrace()};
}

} // namespace incsim::onepipe
