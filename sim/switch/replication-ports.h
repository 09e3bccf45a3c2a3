#ifndef INCSIM_SWITCH_REPLICATION_PORTS_H
#define INCSIM_SWITCH_REPLICATION_PORTS_H

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace incsim
{

namespace p4rt
{
class ControlPlane;
}

class SwitchDevice;

/// A multicast replica or clone session aimed at a port the switch does not have would lose
/// every copy without a trace. Throws InputError at the scenario's /switch/entries naming the
/// entries file and the JSON path of such a port in `entries` (the parsed entries file, or
/// null), and ConfigError for such a group in `control` that a protocol configured.
void CheckReplicationPorts(const p4rt::ControlPlane& control,
                           const SwitchDevice& device,
                           const nlohmann::json* entries,
                           const std::string& entriesFile,
                           const std::string& scenarioFile);

} // namespace incsim

#endif
