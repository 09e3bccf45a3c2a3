#ifndef INCSIM_TRACE_TRACE_SCHEMA_H
#define INCSIM_TRACE_TRACE_SCHEMA_H

#include <string>
#include <vector>

namespace incsim
{

struct TraceColumn
{
    std::string name;
    std::string type;     ///< e.g. "ns", "int", "uint64", "string", "bytes", "float"
    std::string meaning;  ///< Markdown
};

/// A trace file's declaration: the name /outputs/traces calls it by, what one row is, and its
/// columns in order. The writer takes its header row from it (TraceOutputs::Open) and
/// `incsim traces` (docs/traces.md) prints it, so the two cannot drift.
struct TraceSchema
{
    std::string name;
    std::string description;  ///< Markdown: what a row is, when rows are written
    std::vector<TraceColumn> columns;

    std::vector<std::string> ColumnNames() const;
};

/// The traces every run can write, whatever its protocol: packets, links, queues.
const std::vector<TraceSchema>& CoreTraces();
/// The core trace called `name` (a programming error if there is none).
const TraceSchema& CoreTrace(const std::string& name);

/// `traces` as Markdown: a section per trace with its description and a table of columns.
std::string TraceMarkdown(const std::vector<TraceSchema>& traces);

} // namespace incsim

#endif
