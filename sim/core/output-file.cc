#include "sim/core/output-file.h"

#include "sim/core/diagnostics.h"

#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <iostream>

namespace incsim
{

namespace
{
DeferredWriteFailures* g_deferred = nullptr;
} // namespace

DeferredWriteFailures::DeferredWriteFailures(std::function<void()> onFailure)
    : m_onFailure(std::move(onFailure))
{
    if (g_deferred != nullptr)
    {
        throw std::logic_error("DeferredWriteFailures: one is already in force");
    }
    g_deferred = this;
}

DeferredWriteFailures::~DeferredWriteFailures()
{
    g_deferred = nullptr;
}

void
DeferredWriteFailures::Rethrow() const
{
    if (m_first)
    {
        std::rethrow_exception(m_first);
    }
}

void
DeferredWriteFailures::Record(const std::exception_ptr& error)
{
    if (!m_first)
    {
        m_first = error;
        m_onFailure();
    }
}

OutputFile::OutputFile(std::string path)
    : m_path(std::move(path))
{
    errno = 0;
    m_file = std::fopen(m_path.c_str(), "wb");
    if (m_file == nullptr)
    {
        throw OutputError::FromErrno(m_path, errno);
    }
}

OutputFile::~OutputFile()
{
    if (m_file != nullptr)
    {
        std::fclose(m_file);
    }
}

void
OutputFile::Write(std::string_view bytes)
{
    if (m_file == nullptr)
    {
        throw OutputError(m_path, "written after it was closed");
    }
    errno = 0;
    if (m_failed)
    {
        return;
    }
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), m_file) != bytes.size())
    {
        Fail(std::make_exception_ptr(OutputError::FromErrno(m_path, errno)));
    }
}

void
OutputFile::Flush()
{
    if (m_failed)
    {
        return;
    }
    errno = 0;
    if (m_file != nullptr && (std::fflush(m_file) != 0 || std::ferror(m_file)))
    {
        Fail(std::make_exception_ptr(OutputError::FromErrno(m_path, errno)));
    }
}

void
OutputFile::Fail(const std::exception_ptr& error)
{
    if (g_deferred == nullptr)
    {
        std::rethrow_exception(error);
    }
    m_failed = true;
    g_deferred->Record(error);
}

void
OutputFile::Close()
{
    if (m_file == nullptr)
    {
        return;
    }
    if (m_failed)
    {
        throw OutputError(m_path, "an earlier write failed");
    }
    Flush();
    std::FILE* file = m_file;
    m_file = nullptr;
    errno = 0;
    if (std::fclose(file) != 0)
    {
        throw OutputError::FromErrno(m_path, errno);
    }
}

void
WriteTextFile(const std::string& path, std::string_view text)
{
    OutputFile file(path);
    file.Write(text);
    file.Close();
}

void
RequireWritableDirectory(const std::string& dir)
{
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error)
    {
        throw OutputError(dir, error.message());
    }
    const std::string probe = dir + "/.incsim-write-check";
    OutputFile(probe).Close();
    std::filesystem::remove(probe, error);
}

void
FlushStdout()
{
    errno = 0;
    std::cout.flush();
    int error = errno;
    if (std::fflush(stdout) != 0 && errno != 0)
    {
        error = errno;
    }
    if (!std::cout || std::ferror(stdout))
    {
        throw OutputError::FromErrno("to standard output", error);
    }
}

} // namespace incsim
