#include "sim/switch/replication-ports.h"

#include "sim/core/diagnostics.h"
#include "sim/switch/switch-device.h"

#include "p4/runtime/control-plane.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace incsim
{

namespace
{

std::string
PortRange(const SwitchDevice& device)
{
    return device.NumPorts() == 0 ? std::string("no ports")
                                  : fmt::format("ports 0 to {}", device.NumPorts() - 1);
}

/// The port at `value` (validated by LoadEntriesJson: a non-negative integer) must exist.
void
CheckEntryPort(const nlohmann::json& value, const std::string& path, const std::string& what,
               const SwitchDevice& device, const std::string& entriesFile,
               const std::string& scenarioFile)
{
    if (!value.is_number_unsigned() || value.get<uint64_t>() < device.NumPorts())
    {
        return;
    }
    throw InputError(scenarioFile, "/switch/entries",
                     fmt::format("{}: {}: {} sends to port {}, but switch {} has {}", entriesFile,
                                 path, what, value.get<uint64_t>(), device.Name(),
                                 PortRange(device)));
}

} // namespace

void
CheckReplicationPorts(const p4rt::ControlPlane& control,
                      const SwitchDevice& device,
                      const nlohmann::json* entries,
                      const std::string& entriesFile,
                      const std::string& scenarioFile)
{
    if (entries != nullptr && entries->contains("multicast_groups"))
    {
        const nlohmann::json& groups = entries->at("multicast_groups");
        for (size_t g = 0; g < groups.size(); ++g)
        {
            const std::string what = fmt::format("multicast group {}", groups[g].value("id", 0));
            const std::string path = fmt::format("/multicast_groups/{}", g);
            if (groups[g].contains("ports"))
            {
                const nlohmann::json& ports = groups[g].at("ports");
                for (size_t i = 0; i < ports.size(); ++i)
                {
                    CheckEntryPort(ports[i], fmt::format("{}/ports/{}", path, i), what, device,
                                   entriesFile, scenarioFile);
                }
            }
            if (groups[g].contains("replicas"))
            {
                const nlohmann::json& replicas = groups[g].at("replicas");
                for (size_t i = 0; i < replicas.size(); ++i)
                {
                    CheckEntryPort(replicas[i].at("port"),
                                   fmt::format("{}/replicas/{}/port", path, i), what, device,
                                   entriesFile, scenarioFile);
                }
            }
        }
    }
    if (entries != nullptr && entries->contains("clone_sessions"))
    {
        const nlohmann::json& sessions = entries->at("clone_sessions");
        for (size_t s = 0; s < sessions.size(); ++s)
        {
            CheckEntryPort(sessions[s].at("port"), fmt::format("/clone_sessions/{}/port", s),
                           fmt::format("clone session {}", sessions[s].value("id", 0)), device,
                           entriesFile, scenarioFile);
        }
    }
    for (uint32_t group : control.MulticastGroupIds())
    {
        for (const p4rt::Replica& replica : *control.MulticastGroup(group))
        {
            if (replica.port >= device.NumPorts())
            {
                throw ConfigError(fmt::format("switch {}: multicast group {} sends to port {}, "
                                              "but the switch has {}",
                                              device.Name(), group, replica.port,
                                              PortRange(device)));
            }
        }
    }
}

} // namespace incsim
