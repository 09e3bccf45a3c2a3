#include "sim/trace/csv-writer.h"

#include "sim/core/diagnostics.h"

#include <stdexcept>

namespace incsim
{

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns)
    : m_columns(columns.size()),
      m_file(path)
{
    for (size_t i = 0; i < columns.size(); ++i)
    {
        fmt::format_to(std::back_inserter(m_buffer), i == 0 ? "{}" : ",{}", columns[i]);
    }
    m_buffer.push_back('\n');
}

CsvWriter::~CsvWriter()
{
    // Close() is the checked path; here (a run that already failed) keep what can be kept.
    try
    {
        Close();
    }
    catch (const OutputError&)
    {
    }
}

void
CsvWriter::WrongRowWidth(size_t values) const
{
    throw std::logic_error(fmt::format("{}: a row of {} values for {} columns", m_file.Path(),
                                       values, m_columns));
}

void
CsvWriter::Flush()
{
    m_file.Write(std::string_view(m_buffer.data(), m_buffer.size()));
    m_buffer.clear();
    m_file.Flush();
}

void
CsvWriter::Close()
{
    Flush();
    m_file.Close();
}

} // namespace incsim
