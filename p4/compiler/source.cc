#include "p4/compiler/source.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace incsim::p4
{
namespace
{

std::vector<std::string>
SplitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::string current;
    for (char c : text)
    {
        if (c == '\n')
        {
            if (!current.empty() && current.back() == '\r')
            {
                current.pop_back();
            }
            lines.push_back(std::move(current));
            current.clear();
        }
        else
        {
            current.push_back(c);
        }
    }
    if (!current.empty())
    {
        lines.push_back(std::move(current));
    }
    return lines;
}

// Replaces the characters of comments by spaces, tracking /* */ across lines and leaving string
// literals alone (a "//" inside @name("//x") is not a comment).
std::vector<std::string>
BlankComments(const std::vector<std::string>& lines)
{
    std::vector<std::string> result;
    result.reserve(lines.size());
    bool inBlock = false;
    for (const std::string& line : lines)
    {
        std::string code = line;
        bool inString = false;
        for (size_t i = 0; i < code.size(); ++i)
        {
            if (inBlock)
            {
                if (code[i] == '*' && i + 1 < code.size() && code[i + 1] == '/')
                {
                    code[i] = ' ';
                    code[i + 1] = ' ';
                    ++i;
                    inBlock = false;
                }
                else if (code[i] != '\t')
                {
                    code[i] = ' ';
                }
                continue;
            }
            if (inString)
            {
                if (code[i] == '\\' && i + 1 < code.size())
                {
                    ++i;
                }
                else if (code[i] == '"')
                {
                    inString = false;
                }
                continue;
            }
            if (code[i] == '"')
            {
                inString = true;
            }
            else if (code[i] == '/' && i + 1 < code.size() && code[i + 1] == '/')
            {
                for (size_t j = i; j < code.size(); ++j)
                {
                    code[j] = code[j] == '\t' ? '\t' : ' ';
                }
                break;
            }
            else if (code[i] == '/' && i + 1 < code.size() && code[i + 1] == '*')
            {
                code[i] = ' ';
                code[i + 1] = ' ';
                ++i;
                inBlock = true;
            }
        }
        result.push_back(std::move(code));
    }
    return result;
}

} // namespace

SourceFile::SourceFile(std::string name, std::string text, bool loaded, bool isSystem)
    : m_name(std::move(name)),
      m_loaded(loaded),
      m_isSystem(isSystem),
      m_lines(SplitLines(text)),
      m_codeLines(BlankComments(m_lines))
{
}

std::string_view
SourceFile::Line(uint32_t line) const
{
    if (line == 0 || line > m_lines.size())
    {
        return {};
    }
    return m_lines[line - 1];
}

std::string_view
SourceFile::CodeLine(uint32_t line) const
{
    if (line == 0 || line > m_codeLines.size())
    {
        return {};
    }
    return m_codeLines[line - 1];
}

std::string
SourceLocation::ToString() const
{
    if (file == nullptr)
    {
        return "<unknown>";
    }
    std::string text = file->Name();
    if (line > 0)
    {
        text += ":" + std::to_string(line);
        if (column > 0)
        {
            text += ":" + std::to_string(column);
        }
    }
    return text;
}

const SourceFile*
SourceManager::Get(const std::string& name)
{
    auto it = m_files.find(name);
    if (it != m_files.end())
    {
        return it->second.get();
    }
    std::string text;
    bool loaded = false;
    // Names like "<built-in>" or "<stdin>" are cpp's pseudo-files: nothing to read. A line
    // marker may name anything, so only regular files are read: /dev/zero never ends and a
    // FIFO blocks.
    std::error_code error;
    if (!name.empty() && name.front() != '<' && std::filesystem::is_regular_file(name, error))
    {
        std::ifstream in(name, std::ios::binary);
        if (in)
        {
            std::ostringstream buffer;
            buffer << in.rdbuf();
            text = buffer.str();
            loaded = true;
        }
    }
    auto file = std::make_unique<SourceFile>(name, std::move(text), loaded,
                                             IsUnderSystemDirectory(name));
    const SourceFile* result = file.get();
    m_files.emplace(name, std::move(file));
    return result;
}

const SourceFile*
SourceManager::AddBuffer(const std::string& name, std::string text)
{
    auto file =
        std::make_unique<SourceFile>(name, std::move(text), true, IsUnderSystemDirectory(name));
    const SourceFile* result = file.get();
    auto it = m_files.find(name);
    if (it != m_files.end())
    {
        // Locations may still point at the old text: keep it alive.
        m_retired.push_back(std::move(it->second));
        it->second = std::move(file);
    }
    else
    {
        m_files.emplace(name, std::move(file));
    }
    return result;
}

void
SourceManager::AddSystemDirectory(std::string dir)
{
    while (dir.size() > 1 && dir.back() == '/')
    {
        dir.pop_back();
    }
    m_systemDirs.push_back(std::move(dir));
}

bool
SourceManager::IsUnderSystemDirectory(const std::string& name) const
{
    for (const std::string& dir : m_systemDirs)
    {
        if (name.size() > dir.size() && name.compare(0, dir.size(), dir) == 0 &&
            name[dir.size()] == '/')
        {
            return true;
        }
    }
    return false;
}

std::vector<std::string>
SourceManager::FileNames() const
{
    std::vector<std::string> names;
    for (const auto& [name, file] : m_files)
    {
        names.push_back(name);
    }
    return names;
}

} // namespace incsim::p4
