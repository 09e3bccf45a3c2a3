#include "p4/compiler/diagnostics.h"

#include <utility>

namespace incsim::p4
{
namespace
{

constexpr const char* kIndent = "    ";

// The quoted line, then a caret under `column` with ~ for the rest of the construct. Tabs in
// the prefix are copied so the caret lines up however the terminal expands them.
void
RenderSourceLine(std::string& out, const SourceLocation& location)
{
    if (!location.IsValid() || location.column == 0)
    {
        return;
    }
    std::string_view line = location.file->Line(location.line);
    if (line.empty() && !location.file->IsLoaded())
    {
        return;
    }
    out += kIndent;
    out += line;
    out += '\n';
    out += kIndent;
    size_t caretAt = location.column - 1;
    for (size_t i = 0; i < caretAt; ++i)
    {
        out += i < line.size() && line[i] == '\t' ? '\t' : ' ';
    }
    out += '^';
    size_t length = location.length;
    if (caretAt < line.size() && length > line.size() - caretAt)
    {
        length = line.size() - caretAt;
    }
    for (size_t i = 1; i < length; ++i)
    {
        out += '~';
    }
    out += '\n';
}

} // namespace

const char*
SeverityName(Severity severity)
{
    switch (severity)
    {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Note:
        return "note";
    }
    return "error";
}

Diagnostics::Diagnostics(std::shared_ptr<SourceManager> sources)
    : m_sources(sources ? std::move(sources) : std::make_shared<SourceManager>())
{
}

void
Diagnostics::Error(const SourceLocation& location, std::string message)
{
    Add(Severity::Error, location, std::move(message));
}

void
Diagnostics::Warning(const SourceLocation& location, std::string message)
{
    Add(Severity::Warning, location, std::move(message));
}

void
Diagnostics::Note(const SourceLocation& location, std::string message)
{
    if (m_lastSuppressed || m_diagnostics.empty())
    {
        return;
    }
    Diagnostic note;
    note.severity = Severity::Note;
    note.location = location;
    note.message = std::move(message);
    m_diagnostics.back().notes.push_back(std::move(note));
}

void
Diagnostics::Add(Severity severity, const SourceLocation& location, std::string message)
{
    if (severity == Severity::Error && LimitReached())
    {
        ++m_suppressed;
        m_lastSuppressed = true;
        return;
    }
    // A phase that recovers may trip over the same spot twice; say it once.
    if (!m_diagnostics.empty())
    {
        const Diagnostic& last = m_diagnostics.back();
        if (last.severity == severity && last.message == message &&
            last.location.file == location.file && last.location.line == location.line &&
            last.location.column == location.column)
        {
            m_lastSuppressed = true;
            return;
        }
    }
    m_lastSuppressed = false;
    Diagnostic diagnostic;
    diagnostic.severity = severity;
    diagnostic.location = location;
    diagnostic.message = std::move(message);
    m_diagnostics.push_back(std::move(diagnostic));
    if (severity == Severity::Error)
    {
        ++m_errorCount;
    }
    else if (severity == Severity::Warning)
    {
        ++m_warningCount;
    }
}

std::string
Diagnostics::Render(const Diagnostic& diagnostic) const
{
    std::string out;
    if (diagnostic.location.file != nullptr)
    {
        out += diagnostic.location.ToString();
        out += ": ";
    }
    out += SeverityName(diagnostic.severity);
    out += ": ";
    out += diagnostic.message;
    out += '\n';
    RenderSourceLine(out, diagnostic.location);
    for (const Diagnostic& note : diagnostic.notes)
    {
        out += Render(note);
    }
    return out;
}

std::string
Diagnostics::Render() const
{
    std::string out;
    for (const Diagnostic& diagnostic : m_diagnostics)
    {
        out += Render(diagnostic);
    }
    if (LimitReached())
    {
        out += "note: stopped after " + std::to_string(m_errorLimit) + " errors";
        if (m_suppressed > 0)
        {
            out += " (" + std::to_string(m_suppressed) + " more not shown)";
        }
        out += '\n';
    }
    return out;
}

} // namespace incsim::p4
