#ifndef INCSIM_TRACE_CSV_READER_H
#define INCSIM_TRACE_CSV_READER_H

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace incsim
{

/// Reads a trace CSV as CsvWriter writes it (a header row, then one row per line; fields
/// quoted only when they hold commas or quotes). Checkers use it to read run directories.
class CsvReader
{
  public:
    /// Throws InputError if the file cannot be opened or lacks one of `required` columns.
    CsvReader(const std::string& path, const std::vector<std::string>& required);

    /// Reads the next row; false at the end of the file.
    bool Next();
    /// Column index of `name` (one of `required`).
    size_t Column(const std::string& name) const;
    int64_t Int(size_t column) const;
    const std::string& Text(size_t column) const { return m_fields.at(column); }
    uint64_t Uint(size_t column) const;
    uint64_t Line() const { return m_line; }

  private:
    void Split(const std::string& line);

    std::string m_path;
    std::ifstream m_in;
    std::vector<std::string> m_header;
    std::vector<std::string> m_fields;
    uint64_t m_line = 0;
};

} // namespace incsim

#endif
