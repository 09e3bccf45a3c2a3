#ifndef INCSIM_ONEPIPE_ONEPIPE_TRACES_H
#define INCSIM_ONEPIPE_ONEPIPE_TRACES_H

#include "sim/trace/trace-schema.h"

#include <vector>

namespace incsim::onepipe
{

/// onepipe_sends, onepipe_deliveries, onepipe_failures and (reliable service)
/// onepipe_prepares, onepipe_controller and onepipe_callbacks (failure handling): what
/// `incsim check` reads.
const TraceSchema& SendsTrace();
const TraceSchema& DeliveriesTrace();
const TraceSchema& FailuresTrace();
const TraceSchema& PreparesTrace();
const TraceSchema& ControllerTrace();
const TraceSchema& CallbacksTrace();
std::vector<TraceSchema> OnePipeTraces();

} // namespace incsim::onepipe

#endif
