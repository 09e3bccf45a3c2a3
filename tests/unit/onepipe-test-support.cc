#include "onepipe-test-support.h"

#include "protocols/onepipe/onepipe-checker.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

namespace incsim::test
{

const char* const kFatTree4 = R"({"generator": "fat-tree", "params": {"k": 4}})";

std::string
OnePipeScenario(const std::string& topology, const std::string& params,
                const std::string& workload, const std::string& extra)
{
    return fmt::format(R"({{
        "seed": 1,
        "duration": "400us",
        "topology": {},
        "links": {{"rate": "100Gbps", "delay": "1us"}},
        "clocks": {{"offset": {{"dist": "uniform", "min": "-300ns", "max": "300ns"}}}},
        "protocol": {{"name": "onepipe", "params": {{{}}}}},
        "workload": {{{}}},
        {}
        "outputs": {{"traces": ["onepipe_sends", "onepipe_deliveries", "onepipe_failures",
                                "onepipe_prepares"],
                     "progress": "never"}}
    }})",
                       topology, params, workload, extra);
}

double
OnePipeMetric(const RunSummary& run, const char* name)
{
    return run.metrics["onepipe"][name].get<double>();
}

CheckReport
CheckOnePipeRun(const RunSummary& run)
{
    return onepipe::CheckRun(run.runDir);
}

CapturedWarnings::CapturedWarnings()
    : m_previous(spdlog::default_logger())
{
    auto logger = std::make_shared<spdlog::logger>(
        "captured", std::make_shared<spdlog::sinks::ostream_sink_st>(m_out));
    logger->set_level(spdlog::level::warn);
    spdlog::set_default_logger(logger);
}

CapturedWarnings::~CapturedWarnings()
{
    spdlog::set_default_logger(m_previous);
}

} // namespace incsim::test
