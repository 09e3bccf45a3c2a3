#ifndef INCSIM_CORE_OUTPUT_FILE_H
#define INCSIM_CORE_OUTPUT_FILE_H

#include <cstdio>
#include <exception>
#include <functional>
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
    /// Throws `error`, or hands it to the DeferredWriteFailures in force.
    void Fail(const std::exception_ptr& error);

    std::string m_path;
    std::FILE* m_file = nullptr;
    bool m_failed = false;  ///< a deferred failure: later writes are dropped
};

/// While one lives, a failed write or flush does not throw: an exception must not cross ns-3's
/// event loop, which leaks the event it was running. The first failure is kept and
/// `onFailure` runs (the simulation stops); the failed file drops later writes, and its
/// Close() throws. Rethrow() throws the kept failure, if any. One at a time.
class DeferredWriteFailures
{
  public:
    explicit DeferredWriteFailures(std::function<void()> onFailure);
    ~DeferredWriteFailures();
    DeferredWriteFailures(const DeferredWriteFailures&) = delete;
    DeferredWriteFailures& operator=(const DeferredWriteFailures&) = delete;

    void Rethrow() const;

  private:
    friend class OutputFile;
    void Record(const std::exception_ptr& error);

    std::function<void()> m_onFailure;
    std::exception_ptr m_first;
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
