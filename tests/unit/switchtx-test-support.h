#ifndef INCSIM_TESTS_UNIT_SWITCHTX_TEST_SUPPORT_H
#define INCSIM_TESTS_UNIT_SWITCHTX_TEST_SUPPORT_H

// Shared by the SwitchTx tests: reading a run's metrics and the checker's report.

#include "sim/runner/runner.h"
#include "sim/scenario/protocol.h"

#include <string>

namespace incsim::test
{

/// The run's metrics.json value switchtx.`name`.
double SwitchTxMetric(const RunSummary& run, const std::string& name);

/// Whether the checker's report has a violation of `property`.
bool Violates(const CheckReport& report, const std::string& property);

} // namespace incsim::test

#endif
