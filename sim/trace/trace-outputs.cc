#include "sim/trace/trace-outputs.h"

#include <algorithm>

namespace incsim
{

TraceOutputs::TraceOutputs(std::string runDir, std::set<std::string> enabled)
    : m_runDir(std::move(runDir)),
      m_enabled(std::move(enabled))
{
}

CsvWriter*
TraceOutputs::Open(const std::string& name, const std::vector<std::string>& columns)
{
    if (!Enabled(name))
    {
        return nullptr;
    }
    auto& writer = m_writers[name];
    if (!writer)
    {
        writer = std::make_unique<CsvWriter>(m_runDir + "/" + name + ".csv", columns);
    }
    return writer.get();
}

std::vector<std::string>
TraceOutputs::Files() const
{
    std::vector<std::string> files;
    for (const auto& [name, writer] : m_writers)
    {
        files.push_back(name + ".csv");
    }
    files.insert(files.end(), m_otherFiles.begin(), m_otherFiles.end());
    std::sort(files.begin(), files.end());
    return files;
}

void
TraceOutputs::Close()
{
    m_writers.clear();
}

} // namespace incsim
