#include "sim/trace/csv-reader.h"

#include "sim/core/diagnostics.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace incsim
{

CsvReader::CsvReader(const std::string& path, const std::vector<std::string>& required)
    : m_path(path),
      m_in(path)
{
    std::string line;
    if (!m_in || !std::getline(m_in, line))
    {
        throw InputError(path, "", "cannot read this trace (is it enabled in /outputs/traces?)");
    }
    m_line = 1;
    Split(line);
    m_header = m_fields;
    for (const std::string& name : required)
    {
        if (std::find(m_header.begin(), m_header.end(), name) == m_header.end())
        {
            throw InputError(path, "", fmt::format("the header has no column \"{}\"", name));
        }
    }
}

bool
CsvReader::Next()
{
    std::string line;
    while (std::getline(m_in, line))
    {
        ++m_line;
        if (line.empty())
        {
            continue;
        }
        Split(line);
        if (m_fields.size() != m_header.size())
        {
            throw InputError(m_path, "", fmt::format("line {}: {} fields, the header has {}",
                                                     m_line, m_fields.size(), m_header.size()));
        }
        return true;
    }
    return false;
}

size_t
CsvReader::Column(const std::string& name) const
{
    return static_cast<size_t>(std::find(m_header.begin(), m_header.end(), name) -
                               m_header.begin());
}

int64_t
CsvReader::Int(size_t column) const
{
    const std::string& text = m_fields.at(column);
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
    {
        throw InputError(m_path, "", fmt::format("line {}: expected an integer in column \"{}\", "
                                                 "got \"{}\"",
                                                 m_line, m_header.at(column), text));
    }
    return value;
}

uint64_t
CsvReader::Uint(size_t column) const
{
    // Parsed as unsigned, not through Int: ids and values may use all 64 bits.
    const std::string& text = m_fields.at(column);
    uint64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
    {
        throw InputError(m_path, "", fmt::format("line {}: expected a non-negative integer in "
                                                 "column \"{}\", got \"{}\"",
                                                 m_line, m_header.at(column), text));
    }
    return value;
}

void
CsvReader::Split(const std::string& line)
{
    m_fields.clear();
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i)
    {
        const char c = line[i];
        if (quoted)
        {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            {
                field += '"';
                ++i;
            }
            else if (c == '"')
            {
                quoted = false;
            }
            else
            {
                field += c;
            }
        }
        else if (c == '"')
        {
            quoted = true;
        }
        else if (c == ',')
        {
            m_fields.push_back(std::move(field));
            field.clear();
        }
        else if (c != '\r')
        {
            field += c;
        }
    }
    m_fields.push_back(std::move(field));
}

} // namespace incsim
