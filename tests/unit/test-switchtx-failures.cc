// SwitchTx and server failures: not modelled yet (docs/switchtx.md, "Failures"), so a scenario
// that crashes a server is refused with its path, rather than run to a history in which
// clients were told commit for writes that no live replica holds. Switch crashes run
// (test-switchtx-switch.cc).

#include "test-support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

using namespace incsim;
using namespace incsim::test;

TEST_CASE("SwitchTx refuses a server crash, naming the fault", "[switchtx][input]")
{
    InitIncsim();
    const std::string coordination = GENERATE("fasst", "in-server", "switch", "eris");
    INFO(coordination);
    TempDir dir;
    const std::string scenario = fmt::format(R"({{
  "name": "switchtx-crash", "seed": 1, "duration": "1ms",
  "topology": {{"generator": "switchtx-testbed", "params": {{"layout": "multi"}}}},
  "links": {{"rate": "100Gbps", "delay": "500ns"}},
  "protocol": {{"name": "switchtx", "params": {{"coordination": "{}", "threads": 2}}}},
  "workload": {{"kind": "ycsbt", "records": 1000}},
  "faults": [{{"at": "100us", "action": "node_crash", "node": "rack1"}},
             {{"at": "200us", "action": "node_recover", "node": "rack1"}},
             {{"at": "300us", "action": "node_crash", "node": "srv3"}}],
  "outputs": {{"progress": "never"}}
}})",
                                             coordination);
    CHECK_THROWS_WITH(RunIn(dir, scenario),
                      Catch::Contains("/faults/2/node") && Catch::Contains("\"srv3\"") &&
                          Catch::Contains("server failures"));
}
