#include "gotthard-test-support.h"

#include "protocols/gotthard/gotthard-checker.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

namespace incsim::test
{

std::string
GotthardScenario(const std::string& mode, const std::string& workload, double loss)
{
    return fmt::format(R"({{
        "seed": 1,
        "duration": "20s",
        "topology": {{"generator": "gotthard",
                      "params": {{"rtt": "20ms", "delta": 0.2, "clients": 8}}}},
        "links": {{"rate": "1Gbps", "loss": {}}},
        "routing": {{"metric": "delay"}},
        "hosts": {{"message_cost": "100us"}},
        "protocol": {{"name": "gotthard", "params": {{"mode": "{}", "store": "S-h0",
                      "switches": ["G"], "request_timeout": "60ms"}}}},
        "workload": {{{}}},
        "outputs": {{"traces": ["txn_log", "txn_client"], "progress": "never"}}
    }})",
                       loss, mode, workload);
}

std::string
PropertyOf(const std::string& line)
{
    return line.substr(0, line.find(':'));
}

CheckReport
CheckGotthardRun(const std::string& runDir, const std::set<std::string>& exempt)
{
    const CheckReport report = gotthard::CheckRun(runDir);
    std::set<std::string> held;
    for (const std::string& line : report.passed)
    {
        held.insert(PropertyOf(line));
    }
    std::set<std::string> violated;
    for (const std::string& line : report.violations)
    {
        INFO(line);
        violated.insert(PropertyOf(line));
        CHECK(exempt.count(PropertyOf(line)) == 1);
        CHECK(held.count(PropertyOf(line)) == 0);
    }
    CHECK(held.size() + violated.size() == 7);
    return report;
}

} // namespace incsim::test
