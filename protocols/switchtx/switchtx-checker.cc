#include "protocols/switchtx/switchtx-checker.h"

#include "protocols/switchtx/gas-delivery-trace.h"
#include "protocols/txn/history-checker.h"
#include "sim/core/json-reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <utility>

namespace incsim::switchtx
{

namespace
{
const char* const kReplicasAgree = "replicas agree";
}

CheckReport
CheckRun(const std::string& runDir)
{
    const nlohmann::json metrics = ReadJsonFile(runDir + "/metrics.json");
    const nlohmann::json& replicas = metrics.at("/switchtx/replicas"_json_pointer);
    txn::HistoryCheckOptions options;
    CheckFindings findings({kReplicasAgree, kGasOnce});
    uint64_t compared = 0;
    // A crashed server's replicas are left out (its state is gone; a promoted backup leads
    // its shard), and its backup decisions may include installs of attempts that recovery
    // then aborted: the history checker compares only its committed ones. (The Eris
    // baseline's replicas say neither: alive, and replica 0 the primary.)
    const auto alive = [](const nlohmann::json& r) { return r.value("alive", true); };
    const auto primary = [](const nlohmann::json& r) {
        return r.value("primary", r.at("replica").get<uint32_t>() == 0);
    };
    for (const nlohmann::json& r : replicas)
    {
        if (!alive(r))
        {
            options.crashedServers.insert(r.at("host").get<uint64_t>());
            continue;
        }
        const auto shard = r.at("shard").get<uint32_t>();
        const auto replica = r.at("replica").get<uint32_t>();
        if (r.at("locked").get<uint64_t>() != 0)
        {
            findings.Add(kReplicasAgree, fmt::format("shard {} replica {} ends with {} keys "
                                                     "still locked",
                                                     shard, replica,
                                                     r.at("locked").get<uint64_t>()));
        }
        if (primary(r))
        {
            options.finalStates[shard] = {r.at("keys").get<uint64_t>(),
                                          r.at("digest").get<uint64_t>()};
        }
    }
    for (const nlohmann::json& r : replicas)
    {
        const auto shard = r.at("shard").get<uint32_t>();
        const auto replica = r.at("replica").get<uint32_t>();
        if (primary(r) || !alive(r))
        {
            continue;
        }
        ++compared;
        const auto found = options.finalStates.find(shard);
        if (found == options.finalStates.end())
        {
            findings.Add(kReplicasAgree, fmt::format("shard {} has no live primary", shard));
            continue;
        }
        const auto& lead = found->second;
        const std::pair<uint64_t, uint64_t> state{r.at("keys").get<uint64_t>(),
                                                  r.at("digest").get<uint64_t>()};
        if (state != lead)
        {
            findings.Add(kReplicasAgree,
                         fmt::format("shard {} backup {} ends with {} keys (digest {:#x}), its "
                                     "primary with {} keys (digest {:#x})",
                                     shard, replica, state.first, state.second, lead.first,
                                     lead.second));
        }
    }
    findings.Checked(kReplicasAgree, fmt::format("{} live backups end equal to their shards' "
                                                 "primaries, no lock held",
                                                 compared));
    CheckGasDeliveries(runDir, findings);
    CheckReport report = txn::CheckHistory(runDir, options);
    const CheckReport mine = findings.Report();
    report.passed.insert(report.passed.end(), mine.passed.begin(), mine.passed.end());
    report.violations.insert(report.violations.end(), mine.violations.begin(),
                             mine.violations.end());
    return report;
}

} // namespace incsim::switchtx
