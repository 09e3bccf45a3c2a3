#ifndef INCSIM_P4_COMPILER_CODE_WRITER_H
#define INCSIM_P4_COMPILER_CODE_WRITER_H

#include <sstream>
#include <string>

namespace incsim::p4
{

/// Lines of generated C++ with indentation, for the back end and the contract writer.
class CodeWriter
{
  public:
    void Line(const std::string& text = "")
    {
        if (!text.empty())
        {
            m_out << std::string(m_indent * 4, ' ') << text;
        }
        m_out << '\n';
    }
    /// `text` (unless empty) and an opening brace; the lines up to Close() are indented.
    void Open(const std::string& text)
    {
        if (!text.empty())
        {
            Line(text);
        }
        Line("{");
        ++m_indent;
    }
    void Close(const std::string& suffix = "")
    {
        --m_indent;
        Line("}" + suffix);
    }
    /// Appends another writer's lines at this writer's indentation.
    void Append(const std::string& text)
    {
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);)
        {
            Line(line);
        }
    }
    std::string Take()
    {
        std::string text = m_out.str();
        m_out.str({});
        return text;
    }

  private:
    std::ostringstream m_out;
    int m_indent = 0;
};

} // namespace incsim::p4

#endif
