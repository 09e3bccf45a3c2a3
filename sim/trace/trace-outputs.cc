#include "sim/trace/trace-outputs.h"

namespace incsim
{

TraceOutputs::TraceOutputs(std::string runDir, std::set<std::string> enabled)
    : m_runDir(std::move(runDir)),
      m_enabled(std::move(enabled))
{
}

CsvWriter*
TraceOutputs::Open(const TraceSchema& trace)
{
    if (!Enabled(trace.name))
    {
        return nullptr;
    }
    auto& writer = m_writers[trace.name];
    if (!writer)
    {
        writer = std::make_unique<CsvWriter>(m_runDir + "/" + trace.name + ".csv",
                                             trace.ColumnNames());
        m_files.insert(trace.name + ".csv");
    }
    return writer.get();
}

void
TraceOutputs::Close()
{
    for (auto& [name, writer] : m_writers)
    {
        writer->Close();
    }
    m_writers.clear();
}

} // namespace incsim
