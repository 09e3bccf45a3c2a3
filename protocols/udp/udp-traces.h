#ifndef INCSIM_UDP_UDP_TRACES_H
#define INCSIM_UDP_UDP_TRACES_H

#include "sim/trace/trace-schema.h"

namespace incsim
{

/// `messages`: one row per delivered message.
const TraceSchema& UdpMessagesTrace();

} // namespace incsim

#endif
