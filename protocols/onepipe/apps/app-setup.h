#ifndef INCSIM_ONEPIPE_APPS_APP_SETUP_H
#define INCSIM_ONEPIPE_APPS_APP_SETUP_H

#include "sim/trace/trace-schema.h"

#include <string>
#include <vector>

namespace incsim
{
class ParamView;
class Scenario;
class World;
} // namespace incsim

namespace incsim::onepipe::apps
{

/// What an application's system needs of the transport (InputError at the JSON path): 1Pipe
/// needs ordering "total" and service "reliable"; a baseline (`system` names it) runs over the
/// unordered transport (ordering "none"): best effort has no retransmission, so it needs no
/// loss; a baseline that sends every message with ReliableSend (`retransmits`) may run on the
/// unordered transport's reliable service (service "reliable"), with loss.
void CheckAppTransport(const Scenario& scenario, const ParamView& params, bool onePipe,
                       const std::string& system, bool retransmits = false);

/// The processes a run of `params` will have (process_hosts x processes_per_host).
unsigned AppProcesses(const World& world, const ParamView& params);

/// The traces of a transactional application: 1Pipe's and the shared transaction histories
/// (txn_client, txn_log).
std::vector<TraceSchema> AppHistoryTraces();

} // namespace incsim::onepipe::apps

#endif
