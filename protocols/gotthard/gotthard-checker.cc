#include "protocols/gotthard/gotthard-checker.h"

#include "protocols/txn/history-checker.h"
#include "sim/core/json-reader.h"

#include <nlohmann/json.hpp>

namespace incsim::gotthard
{

CheckReport
CheckRun(const std::string& runDir)
{
    const nlohmann::json metrics = ReadJsonFile(runDir + "/metrics.json");
    txn::HistoryCheckOptions options;
    options.finalStates[0] = {metrics.at("/gotthard/store_keys"_json_pointer).get<uint64_t>(),
                              metrics.at("/gotthard/store_digest"_json_pointer).get<uint64_t>()};
    options.answersCarryValues = true;
    options.abortsOnlyOnStaleReads = true;
    return txn::CheckHistory(runDir, options);
}

} // namespace incsim::gotthard
