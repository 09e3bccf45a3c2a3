#ifndef INCSIM_TESTS_UNIT_ONEPIPE_TEST_SUPPORT_H
#define INCSIM_TESTS_UNIT_ONEPIPE_TEST_SUPPORT_H

// Shared by the 1Pipe tests: an inline scenario with the three 1Pipe traces, a metric of a run,
// the checker's verdict on a run, and the warnings a run logs.

#include "sim/scenario/protocol.h"
#include "sim/runner/runner.h"

#include <memory>
#include <sstream>
#include <string>

namespace spdlog
{
class logger;
}

namespace incsim::test
{

/// A 1Pipe scenario: 400 us, 100G links of 1 us, clock offsets uniform in +-300 ns, the
/// onepipe protocol with `params` and `workload` (JSON members without braces), `extra`
/// (top-level members, each followed by a comma) and the sends, deliveries, failures and
/// prepares traces.
std::string OnePipeScenario(const std::string& topology, const std::string& params,
                            const std::string& workload, const std::string& extra = "");

/// A k=4 fat-tree topology section.
extern const char* const kFatTree4;

/// metrics.onepipe.NAME of a run.
double OnePipeMetric(const RunSummary& run, const char* name);

/// The 1Pipe checker's report on a run's directory.
CheckReport CheckOnePipeRun(const RunSummary& run);

/// Collects what spdlog logs at warn and above while it lives (it replaces the default logger).
class CapturedWarnings
{
  public:
    CapturedWarnings();
    ~CapturedWarnings();
    CapturedWarnings(const CapturedWarnings&) = delete;
    CapturedWarnings& operator=(const CapturedWarnings&) = delete;

    std::string Text() const { return m_out.str(); }

  private:
    std::ostringstream m_out;
    std::shared_ptr<spdlog::logger> m_previous;
};

} // namespace incsim::test

#endif
