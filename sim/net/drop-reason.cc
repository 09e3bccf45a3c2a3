#include "sim/net/drop-reason.h"

namespace incsim
{

const char*
ToString(DropReason reason)
{
    switch (reason)
    {
    case DropReason::BufferFull:
        return "buffer_full";
    case DropReason::LinkLoss:
        return "link_loss";
    case DropReason::LinkDown:
        return "link_down";
    case DropReason::NodeDown:
        return "node_down";
    case DropReason::NoRoute:
        return "no_route";
    case DropReason::Pipeline:
        return "pipeline";
    case DropReason::TtlExpired:
        return "ttl_expired";
    case DropReason::CpuQueueFull:
        return "cpu_queue_full";
    case DropReason::NoEndpoint:
        return "no_endpoint";
    case DropReason::Consumed:
        return "consumed";
    case DropReason::Count:
        break;
    }
    return "unknown";
}

} // namespace incsim
