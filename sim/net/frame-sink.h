#ifndef INCSIM_NET_FRAME_SINK_H
#define INCSIM_NET_FRAME_SINK_H

#include "sim/net/frame.h"

#include <cstdint>

namespace incsim
{

/// Whatever sits at the far end of a link: a switch or a host.
class FrameSink
{
  public:
    virtual ~FrameSink() = default;
    virtual void ReceiveFrame(FramePtr frame, uint32_t port) = 0;
};

/// Called by an egress port when a frame reaches the head of its queue, just before it is
/// serialised: the switch's egress pipeline runs here. Returns false if the frame was dropped.
class TransmitHook
{
  public:
    virtual ~TransmitHook() = default;
    virtual bool PrepareTransmit(Frame& frame, uint32_t port) = 0;
};

} // namespace incsim

#endif
