#ifndef INCSIM_CORE_OUTPUT_FILE_H
#define INCSIM_CORE_OUTPUT_FILE_H

#include <cstdio>
#include <string>
#include <string_view>

namespace incsim
{

/// A file opened for writing whose every write is checked: a failed write, flush or close
/// (a full disk, `ulimit -f`, an unwritable directory) throws OutputError naming the file,
/// so no output is ever silently cut short.
class OutputFile
{
  public:
    /// Creates or truncates `path`.
    explicit OutputFile(std::string path);
    /// Closes without checking (use Close() to learn whether everything reached the disk).
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    void Write(std::string_view bytes);
    void Flush();
    /// Flushes and closes; throws if anything written is lost. Idempotent.
    void Close();
    const std::string& Path() const { return m_path; }

  private:
    std::string m_path;
    std::FILE* m_file = nullptr;
};

/// Writes `text` to `path` (created or truncated), checked.
void WriteTextFile(const std::string& path, std::string_view text);

/// Creates `dir` if needed and checks that a file can be created in it (OutputError
/// otherwise), for commands that would otherwise learn it only after long work.
void RequireWritableDirectory(const std::string& dir);

/// Flushes standard output and throws OutputError if anything written to it was lost (e.g.
/// `incsim topo > /dev/full`). Commands that print results call it before they return.
void FlushStdout();

} // namespace incsim

#endif
