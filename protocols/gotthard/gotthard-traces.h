#ifndef INCSIM_GOTTHARD_GOTTHARD_TRACES_H
#define INCSIM_GOTTHARD_GOTTHARD_TRACES_H

#include "sim/trace/trace-schema.h"

#include <vector>

namespace incsim::gotthard
{

/// gotthard_store and gotthard_client: the histories `incsim check` replays.
const TraceSchema& StoreTrace();
const TraceSchema& ClientTrace();
std::vector<TraceSchema> GotthardTraces();

} // namespace incsim::gotthard

#endif
