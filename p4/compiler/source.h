#ifndef INCSIM_P4_COMPILER_SOURCE_H
#define INCSIM_P4_COMPILER_SOURCE_H

// Source files and positions. Every token and AST node carries a SourceLocation that names the
// ORIGINAL file, line and column (after cpp line markers have been honoured), so diagnostics can
// quote the line the user wrote.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace incsim::p4
{

/// One file as the user wrote it (before preprocessing), split into lines for carets.
class SourceFile
{
  public:
    SourceFile(std::string name, std::string text, bool loaded, bool isSystem);

    /// The name diagnostics print: the path as given to the compiler or as cpp reported it.
    const std::string& Name() const { return m_name; }

    /// True when the text was available (read from disk or registered as a buffer).
    bool IsLoaded() const { return m_loaded; }

    /// True for incsim's own architecture includes (core.p4, v1model.p4).
    bool IsSystem() const { return m_isSystem; }

    /// Line `line` (1-based) without its newline; empty when out of range or not loaded.
    std::string_view Line(uint32_t line) const;

    /// The same line with comments blanked out (same length, same columns), so tokens that
    /// cpp moved can be found again at their original column.
    std::string_view CodeLine(uint32_t line) const;

    uint32_t LineCount() const { return static_cast<uint32_t>(m_lines.size()); }

  private:
    std::string m_name;
    bool m_loaded;
    bool m_isSystem;
    std::vector<std::string> m_lines;
    std::vector<std::string> m_codeLines;
};

/// A point in a source file. Lines and columns are 1-based; column counts bytes. `length` is how
/// many columns the construct spans on that line (for the ~~~ under the caret); 0 means unknown.
struct SourceLocation
{
    const SourceFile* file = nullptr;
    uint32_t line = 0;
    uint32_t column = 0;
    uint32_t length = 0;

    bool IsValid() const { return file != nullptr && line > 0; }

    /// The first column of `file` (an error about the whole program, such as its name).
    static SourceLocation StartOf(const SourceFile* file) { return {file, 1, 1, 0}; }

    /// "file:line:col" (or "file:line", "file", "<unknown>" as far as the location is known).
    std::string ToString() const;
};

/// Owns every SourceFile the front end touched. Files are created once per name and never
/// move, so SourceLocation can point at them. Shared by Diagnostics and the parsed Program.
class SourceManager
{
  public:
    SourceManager() = default;
    SourceManager(const SourceManager&) = delete;
    SourceManager& operator=(const SourceManager&) = delete;

    /// The file called `name`, read from disk on first use. A file that cannot be read still
    /// gets an entry (so locations can name it); it simply has no lines to quote.
    const SourceFile* Get(const std::string& name);

    /// Registers in-memory text under `name` (for sources that never touch the disk). Must be
    /// called before any location refers to `name`.
    const SourceFile* AddBuffer(const std::string& name, std::string text);

    /// Files under `dir` are marked as system (architecture) includes.
    void AddSystemDirectory(std::string dir);

    /// The names of every file touched so far, sorted (a program's includes, for depfiles).
    std::vector<std::string> FileNames() const;

  private:
    bool IsUnderSystemDirectory(const std::string& name) const;

    std::map<std::string, std::unique_ptr<SourceFile>> m_files;
    std::vector<std::unique_ptr<SourceFile>> m_retired;
    std::vector<std::string> m_systemDirs;
};

} // namespace incsim::p4

#endif
