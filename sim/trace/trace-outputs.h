#ifndef INCSIM_TRACE_TRACE_OUTPUTS_H
#define INCSIM_TRACE_TRACE_OUTPUTS_H

#include "sim/trace/csv-writer.h"
#include "sim/trace/trace-schema.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace incsim
{

/// The trace files of one run directory. A trace is written only when the scenario's
/// /outputs/traces names it; Open() returns nullptr otherwise, so a disabled trace costs a
/// null check. Protocols open their own traces (e.g. "messages") the same way.
class TraceOutputs
{
  public:
    TraceOutputs(std::string runDir, std::set<std::string> enabled);

    bool Enabled(const std::string& name) const { return m_enabled.count(name) > 0; }
    /// <runDir>/<trace.name>.csv with the declared columns as its header row, created on first
    /// use; the same writer for repeated calls.
    CsvWriter* Open(const TraceSchema& trace);
    const std::string& RunDir() const { return m_runDir; }
    /// Records a file written by other means (e.g. pcap), relative to the run directory.
    void AddFile(const std::string& relativePath) { m_files.insert(relativePath); }
    /// Relative paths of the files written, sorted; still known after Close().
    std::vector<std::string> Files() const { return {m_files.begin(), m_files.end()}; }
    /// Flushes and closes every trace file; throws OutputError if any write failed.
    void Close();

  private:
    std::string m_runDir;
    std::set<std::string> m_enabled;
    std::map<std::string, std::unique_ptr<CsvWriter>> m_writers;
    std::set<std::string> m_files;
};

} // namespace incsim

#endif
