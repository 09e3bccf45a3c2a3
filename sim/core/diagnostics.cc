#include "sim/core/diagnostics.h"

#include <cstring>
#include <utility>

namespace incsim
{

InputError::InputError(std::string file, std::string jsonPath, std::string message)
    : std::runtime_error(file + ": " + (jsonPath.empty() ? "" : jsonPath + ": ") + message),
      m_file(std::move(file)),
      m_path(std::move(jsonPath)),
      m_message(std::move(message))
{
}

OutputError::OutputError(const std::string& path, const std::string& reason)
    : std::runtime_error("cannot write " + path + ": " + reason)
{
}

OutputError
OutputError::FromErrno(const std::string& path, int error)
{
    return OutputError(path, error != 0 ? std::strerror(error) : "write failed");
}

} // namespace incsim
