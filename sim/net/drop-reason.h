#ifndef INCSIM_NET_DROP_REASON_H
#define INCSIM_NET_DROP_REASON_H

#include <cstdint>

namespace incsim
{

enum class DropReason : uint8_t
{
    BufferFull,   ///< egress queue had no room
    LinkLoss,     ///< random loss on the link
    LinkDown,     ///< sent onto, or in flight on, a link that is down
    NodeDown,     ///< arrived at or queued in a crashed node
    NoRoute,      ///< no live egress port for the destination
    Pipeline,     ///< dropped by the switch program (mark_to_drop)
    TtlExpired,   ///< IPv4 TTL reached zero
    CpuQueueFull, ///< switch CPU queue had no room
    NoEndpoint,   ///< no endpoint bound to the UDP port at the host
    Consumed,     ///< a hop-by-hop control frame (a 1Pipe beacon) absorbed where it was meant to end
    Count
};

const char* ToString(DropReason reason);

} // namespace incsim

#endif
