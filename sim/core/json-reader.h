#ifndef INCSIM_CORE_JSON_READER_H
#define INCSIM_CORE_JSON_READER_H

#include "sim/core/diagnostics.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace incsim
{

/// A problem at a place in a JSON text. what() reads "FILE:LINE:COL: /json/path: message", or
/// "FILE:LINE:COL: message" when no value has been named yet (JsonPath() is then empty).
class JsonTextError : public InputError
{
  public:
    JsonTextError(const std::string& file,
                  size_t line,
                  size_t column,
                  const std::string& jsonPath,
                  const std::string& message);

    const char* what() const noexcept override { return m_what.c_str(); }
    size_t Line() const { return m_line; }
    size_t Column() const { return m_column; }

  private:
    std::string m_what;
    size_t m_line;
    size_t m_column;
};

/// Text that is not JSON. what() reads "FILE:LINE:COL: JSON syntax error: message".
class JsonSyntaxError : public JsonTextError
{
  public:
    JsonSyntaxError(const std::string& file,
                    size_t line,
                    size_t column,
                    const std::string& message);
};

/// The deepest nesting of arrays and objects a JSON input may have.
constexpr size_t kMaxJsonDepth = 256;

/// Parses `text` read from `file` (the name only labels errors). Beyond the JSON grammar it
/// rejects, as JsonTextErrors naming line, column and JSON path: a key given twice in one
/// object (the JSON RFC leaves the meaning open; nlohmann would silently keep the last), a
/// number too large for a double ("1e400"), and nesting deeper than kMaxJsonDepth. Syntax
/// errors are JsonSyntaxErrors. No nlohmann exception escapes.
nlohmann::json ParseJsonText(const std::string& text, const std::string& file);

/// Reads and parses a JSON file like ParseJsonText; throws InputError when it cannot be read.
/// Every loader of input files (scenarios, sweeps, topology files, entries, the figure
/// registry) reads through here.
nlohmann::json ReadJsonFile(const std::string& path);

} // namespace incsim

#endif
