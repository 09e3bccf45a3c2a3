#include "protocols/udp/udp-traces.h"

namespace incsim
{

const TraceSchema&
UdpMessagesTrace()
{
    static const TraceSchema trace{
        "messages",
        "One row per message delivered, in delivery order.",
        {{"src", "int", "Sending host (its index in the topology's host order)."},
         {"dst", "int", "Receiving host."},
         {"msg", "uint64", "Message number at the sender."},
         {"bytes", "bytes", "Message size."},
         {"send_ns", "ns", "When the first fragment was handed to the NIC (true simulated time)."},
         {"recv_ns", "ns",
          "When the last fragment was received, after the host's `/hosts/message_cost` CPU "
          "time, if any."},
         {"latency_ns", "ns", "`recv_ns - send_ns`."}}};
    return trace;
}

} // namespace incsim
