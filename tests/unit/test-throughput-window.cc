// Throughput is over the clients' active window, /workload/start to /workload/stop: only the
// commits told inside it count. Commits told while clients drain after the stop are reported
// apart (committed_after_stop); counting them too inflated throughput by the drain, the more
// the longer the timeouts and queues after the stop. Each protocol's metric is compared with
// the commits its own history trace has before the stop.

#include "test-support.h"

#include "gotthard-test-support.h"
#include "sim/trace/csv-reader.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <set>
#include <string>
#include <utility>

using namespace incsim;
using namespace incsim::test;

namespace
{

/// Distinct (client, attempt) answered commit in txn_client.csv before `stopNs`.
uint64_t
CommitsBefore(const RunSummary& run, int64_t stopNs)
{
    CsvReader log(run.runDir + "/txn_client.csv", {"client", "attempt", "event", "time_ns"});
    const size_t client = log.Column("client");
    const size_t attempt = log.Column("attempt");
    const size_t event = log.Column("event");
    const size_t time = log.Column("time_ns");
    std::set<std::pair<uint64_t, uint64_t>> commits;
    while (log.Next())
    {
        if (log.Text(event) == "commit" && log.Int(time) < stopNs)
        {
            commits.emplace(log.Uint(client), log.Uint(attempt));
        }
    }
    return commits.size();
}

void
CheckWindow(const nlohmann::json& metrics, const RunSummary& run, int64_t activeNs,
            int64_t stopNs)
{
    const uint64_t inWindow = CommitsBefore(run, stopNs);
    const auto afterStop = metrics.at("committed_after_stop").get<uint64_t>();
    INFO("in window " << inWindow << ", after stop " << afterStop);
    // The run drains: some commits come after the stop, so the test tells the two apart.
    CHECK(afterStop > 0);
    CHECK(metrics.at("committed").get<uint64_t>() == inWindow + afterStop);
    const double throughput = metrics.at("throughput_txn_per_s").get<double>();
    CHECK(throughput * static_cast<double>(activeNs) * 1e-9 ==
          Approx(static_cast<double>(inWindow)).epsilon(1e-9));
}

} // namespace

TEST_CASE("SwitchTx throughput counts only the commits inside the clients' window",
          "[switchtx][throughput]")
{
    InitIncsim();
    const std::string coordination = GENERATE("fasst", "in-server", "switch", "eris");
    INFO(coordination);
    // Clients from 100 us to 600 us, then 1.4 ms of drain.
    TempDir dir;
    const RunSummary run = RunIn(dir, fmt::format(R"({{
  "name": "switchtx-window", "seed": 3, "duration": "2ms",
  "topology": {{"generator": "switchtx-testbed", "params": {{"layout": "multi"}}}},
  "links": {{"rate": "100Gbps", "delay": "500ns"}},
  "hosts": {{"cores": 4}},
  "protocol": {{"name": "switchtx",
               "params": {{"coordination": "{}", "threads": 4, "mpl": 2}}}},
  "workload": {{"kind": "ycsbt", "theta": 0.8, "records": 1000,
               "start": "100us", "stop": "600us"}},
  "outputs": {{"traces": ["txn_log", "txn_client"], "progress": "never"}}
}})",
                                                  coordination));
    CheckWindow(run.metrics.at("switchtx"), run, 500'000, 600'000);
}

TEST_CASE("Gotthard throughput counts only the commits inside the clients' window",
          "[gotthard][throughput]")
{
    InitIncsim();
    // 20 ms RTT: every client has a request in flight at the stop.
    TempDir dir;
    const RunSummary run = RunIn(
        dir, GotthardScenario("gotthard", R"("kind": "counter", "writes": 0.2, "stop": "10s")"));
    const nlohmann::json& metrics = run.metrics.at("gotthard");
    CheckWindow(metrics, run, 10'000'000'000, 10'000'000'000);
    for (const auto& [name, kind] : metrics.at("kinds").items())
    {
        INFO(name);
        CHECK(kind.at("throughput_txn_per_s").get<double>() * 10 <=
              kind.at("committed").get<double>());
    }
}
