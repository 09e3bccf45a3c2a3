#include "sim/trace/trace-schema.h"

#include <fmt/format.h>

#include <stdexcept>

namespace incsim
{

std::vector<std::string>
TraceSchema::ColumnNames() const
{
    std::vector<std::string> names;
    for (const TraceColumn& column : columns)
    {
        names.push_back(column.name);
    }
    return names;
}

const std::vector<TraceSchema>&
CoreTraces()
{
    static const std::vector<TraceSchema> traces = {
        {"packets",
         "Per-frame events at every node (large: enable for small runs).",
         {{"time_ns", "ns", "When the event happened."},
          {"event", "string",
           "`rx` (frame reached a node: after the link and, at switches, the ingress pipeline "
           "latency), `enqueue` (entered an egress queue), `tx` (started serialisation on a "
           "port), `drop`."},
          {"node", "string", "Where: the node's topology name."},
          {"port", "int", "Where: the node's port. For `drop` on a link, the transmitting end."},
          {"uid", "uint64",
           "Frame id, unique within the run; follow one frame hop by hop with it. Multicast "
           "replicas get new ids."},
          {"bytes", "bytes", "Frame length on the wire without preamble, FCS and gap."},
          {"priority", "int", "Queue priority (0 lowest)."},
          {"reason", "string",
           "For `drop`: `buffer_full`, `link_loss`, `link_down`, `node_down`, `no_route`, "
           "`pipeline`, `ttl_expired`, `cpu_queue_full`, `no_endpoint`, `consumed` (a "
           "hop-by-hop control frame, such as a 1Pipe beacon, absorbed where it ends; not a "
           "loss); empty otherwise."}}},
        {"links",
         "Per-direction link counters, written at the end of the run: one row per link "
         "direction (`from` to `to`).",
         {{"link", "int", "Topology link id."},
          {"from", "string", "The transmitting node."},
          {"from_port", "int", "Its port."},
          {"to", "string", "The receiving node."},
          {"to_port", "int", "Its port."},
          {"rate_bps", "uint64", "Link rate."},
          {"delay_ns", "ns", "Propagation delay."},
          {"tx_frames", "uint64", "Frames serialised by `from` onto the link while it was up."},
          {"tx_bytes", "bytes",
           "Their bytes, with preamble, FCS and inter-frame gap (24 B per frame)."},
          {"delivered_frames", "uint64", "Frames that reached `to`."},
          {"loss_drops", "uint64", "Frames lost to random loss."},
          {"down_drops", "uint64",
           "Frames lost because the link was down when sent, or went down while they were in "
           "flight."},
          {"buffer_drops", "uint64", "Frames dropped at `from`'s egress queue for lack of buffer."},
          {"flush_drops", "uint64",
           "Frames discarded from `from`'s egress queue when the link or a node failed."},
          {"max_queue_bytes", "bytes", "Deepest the egress queue got."},
          {"utilization", "float", "`tx_bytes * 8 / (rate * duration)`."}}},
        {"queues",
         "Switch egress queue depths, sampled every `/outputs/queue_sample_interval`. To stay "
         "small, a row is written only for a queue that is non-empty at the sample, or that has "
         "just drained (its depth was non-zero at the previous sample); a queue absent at a "
         "sample time is empty.",
         {{"time_ns", "ns", "Sample time."},
          {"node", "string", "The switch."},
          {"port", "int", "The egress port."},
          {"bytes", "bytes", "Depth, summed over priorities."},
          {"frames", "uint64", "Frames queued, summed over priorities."}}},
    };
    return traces;
}

const TraceSchema&
CoreTrace(const std::string& name)
{
    for (const TraceSchema& trace : CoreTraces())
    {
        if (trace.name == name)
        {
            return trace;
        }
    }
    throw std::logic_error("no core trace '" + name + "'");
}

std::string
TraceMarkdown(const std::vector<TraceSchema>& traces)
{
    std::string text;
    for (const TraceSchema& trace : traces)
    {
        text += fmt::format("#### `{}`\n\n{}\n\n| Column | Type | Meaning |\n|---|---|---|\n",
                            trace.name, trace.description);
        for (const TraceColumn& column : trace.columns)
        {
            text += fmt::format("| `{}` | {} | {} |\n", column.name, column.type, column.meaning);
        }
        text += "\n";
    }
    return text;
}

} // namespace incsim
