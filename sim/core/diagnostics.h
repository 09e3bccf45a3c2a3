#ifndef INCSIM_CORE_DIAGNOSTICS_H
#define INCSIM_CORE_DIAGNOSTICS_H

#include <stdexcept>
#include <string>

namespace incsim
{

/// A user-facing error in an input file: a scenario, sweep, topology or entries file.
/// what() reads "FILE: /json/path: message" (or "FILE: message" when the problem is the whole
/// file, with an empty path), ready to print as is.
class InputError : public std::runtime_error
{
  public:
    InputError(std::string file, std::string jsonPath, std::string message);

    const std::string& File() const { return m_file; }
    const std::string& JsonPath() const { return m_path; }
    const std::string& Message() const { return m_message; }

  private:
    std::string m_file;
    std::string m_path;
    std::string m_message;
};

/// A configuration that is well-formed but cannot be simulated, e.g. a protocol that needs a
/// DAG routing graph on a topology whose routes have a cycle.
class ConfigError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// A write that failed: a full disk, a file size limit, an unwritable directory. what() reads
/// "cannot write PATH: reason". A run that hits one stops and is not recorded as finished.
class OutputError : public std::runtime_error
{
  public:
    OutputError(const std::string& path, const std::string& reason);
    /// The reason from errno (strerror).
    static OutputError FromErrno(const std::string& path, int error);
};

/// Something incsim relies on outside itself failed: a program it runs (sbatch, python3), the
/// Slurm cluster, or the results database (locked, corrupt). Not a bug in incsim, and not an
/// invalid input.
class ExternalError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// A compiled-in P4 program whose source files changed after the build: running it would
/// simulate the old program under the new one's name. Rebuilding fixes it.
class StaleBuildError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

} // namespace incsim

#endif
