#include "sim/trace/csv-writer.h"

#include <stdexcept>

namespace incsim
{

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns)
    : m_path(path),
      m_file(std::fopen(path.c_str(), "wb"))
{
    if (m_file == nullptr)
    {
        throw std::runtime_error("cannot write trace file " + path);
    }
    for (size_t i = 0; i < columns.size(); ++i)
    {
        fmt::format_to(std::back_inserter(m_buffer), i == 0 ? "{}" : ",{}", columns[i]);
    }
    m_buffer.push_back('\n');
}

CsvWriter::~CsvWriter()
{
    Flush();
    std::fclose(m_file);
}

void
CsvWriter::Flush()
{
    if (m_buffer.size() > 0)
    {
        std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file);
        m_buffer.clear();
    }
    std::fflush(m_file);
}

} // namespace incsim
