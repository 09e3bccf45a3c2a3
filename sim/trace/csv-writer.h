#ifndef INCSIM_TRACE_CSV_WRITER_H
#define INCSIM_TRACE_CSV_WRITER_H

#include "sim/core/output-file.h"

#include <fmt/format.h>

#include <iterator>
#include <string>
#include <vector>

namespace incsim
{

/// A buffered CSV file with a header row. Values are formatted with fmt ("{}"), which is
/// exact and locale-independent, so the same run always writes the same bytes. A failed write
/// throws OutputError (so a run never ends "ok" with a trace cut mid-line).
class CsvWriter
{
  public:
    CsvWriter(const std::string& path, const std::vector<std::string>& columns);
    ~CsvWriter();
    CsvWriter(const CsvWriter&) = delete;
    CsvWriter& operator=(const CsvWriter&) = delete;

    /// One row; it must have a value for every column (a programming error otherwise).
    template <typename First, typename... Rest>
    void Row(const First& first, const Rest&... rest)
    {
        if (1 + sizeof...(Rest) != m_columns)
        {
            WrongRowWidth(1 + sizeof...(Rest));
        }
        fmt::format_to(std::back_inserter(m_buffer), "{}", first);
        ((fmt::format_to(std::back_inserter(m_buffer), ",{}", rest)), ...);
        m_buffer.push_back('\n');
        ++m_rows;
        if (m_buffer.size() > kFlushBytes)
        {
            Flush();
        }
    }

    void Flush();
    /// Flushes and closes the file, checked.
    void Close();
    const std::string& Path() const { return m_file.Path(); }
    uint64_t Rows() const { return m_rows; }

  private:
    [[noreturn]] void WrongRowWidth(size_t values) const;

    static constexpr size_t kFlushBytes = 1 << 20;
    size_t m_columns;
    OutputFile m_file;
    fmt::memory_buffer m_buffer;
    uint64_t m_rows = 0;
};

} // namespace incsim

#endif
