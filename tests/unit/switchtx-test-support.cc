#include "switchtx-test-support.h"

namespace incsim::test
{

double
SwitchTxMetric(const RunSummary& run, const std::string& name)
{
    return run.metrics.at("switchtx").at(name).get<double>();
}

bool
Violates(const CheckReport& report, const std::string& property)
{
    for (const std::string& line : report.violations)
    {
        if (line.rfind(property + ":", 0) == 0)
        {
            return true;
        }
    }
    return false;
}

} // namespace incsim::test
