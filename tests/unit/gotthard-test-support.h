#ifndef INCSIM_TESTS_UNIT_GOTTHARD_TEST_SUPPORT_H
#define INCSIM_TESTS_UNIT_GOTTHARD_TEST_SUPPORT_H

// Shared by the Gotthard tests: the small Fig. 3 scenario and running the checker on a run.

#include "sim/scenario/protocol.h"

#include <set>
#include <string>

namespace incsim::test
{

/// 8 clients at site C, the Gotthard switch G, the store at S: RTT 20 ms, delta 0.2, 20 s,
/// a 60 ms request timeout; `workload` is the body of /workload.
std::string GotthardScenario(const std::string& mode, const std::string& workload,
                             double loss = 0);

/// The property a checker's report line is about (the text before the first colon).
std::string PropertyOf(const std::string& line);

/// Runs the Gotthard checker on `runDir` and checks (Catch2 CHECKs) that every property is
/// reported once, as held or violated, and that every property but those in `exempt` holds.
CheckReport CheckGotthardRun(const std::string& runDir, const std::set<std::string>& exempt = {});

} // namespace incsim::test

#endif
