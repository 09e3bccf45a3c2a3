#ifndef INCSIM_P4_COMPILER_DIAGNOSTICS_H
#define INCSIM_P4_COMPILER_DIAGNOSTICS_H

// The compiler's diagnostics collector. Phases report and carry on; the driver renders them all
// at the end, compiler style:
//
//   p4/onepipe.p4:42:17: error: unknown field 'dst' in header 'ipv4_t'
//       hdr.ipv4.dst = 0;
//                ^~~

#include "p4/compiler/source.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace incsim::p4
{

enum class Severity
{
    Error,
    Warning,
    Note,
};

struct Diagnostic
{
    Severity severity = Severity::Error;
    SourceLocation location;
    std::string message;
    /// Notes that explain this diagnostic ("to match this '{'"), rendered right after it.
    std::vector<Diagnostic> notes;
};

class Diagnostics
{
  public:
    /// Uses `sources` for caret lines, or a fresh SourceManager when none is given.
    explicit Diagnostics(std::shared_ptr<SourceManager> sources = nullptr);

    /// The files that locations point into. Keep the shared_ptr to keep them alive.
    SourceManager& Sources() { return *m_sources; }
    const std::shared_ptr<SourceManager>& SharedSources() const { return m_sources; }

    void Error(const SourceLocation& location, std::string message);
    void Warning(const SourceLocation& location, std::string message);
    /// Attaches a note to the most recent error or warning (dropped if there is none, or if
    /// that diagnostic was suppressed by the error limit).
    void Note(const SourceLocation& location, std::string message);

    /// Stops recording errors after `limit` of them (0: no limit). Phases poll LimitReached()
    /// to stop early.
    void SetErrorLimit(size_t limit) { m_errorLimit = limit; }
    bool LimitReached() const { return m_errorLimit > 0 && m_errorCount >= m_errorLimit; }

    size_t ErrorCount() const { return m_errorCount; }
    size_t WarningCount() const { return m_warningCount; }
    bool HasErrors() const { return m_errorCount > 0; }

    const std::vector<Diagnostic>& All() const { return m_diagnostics; }

    /// Every diagnostic in report order, each with its source line and caret, then a line
    /// saying how many errors were left out if the limit was hit.
    std::string Render() const;

    /// One diagnostic (and its notes).
    std::string Render(const Diagnostic& diagnostic) const;

  private:
    void Add(Severity severity, const SourceLocation& location, std::string message);

    std::shared_ptr<SourceManager> m_sources;
    std::vector<Diagnostic> m_diagnostics;
    size_t m_errorCount = 0;
    size_t m_warningCount = 0;
    size_t m_errorLimit = 0;
    size_t m_suppressed = 0;
    bool m_lastSuppressed = false;
};

const char* SeverityName(Severity severity);

} // namespace incsim::p4

#endif
