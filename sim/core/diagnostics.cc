#include "sim/core/diagnostics.h"

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

} // namespace incsim
