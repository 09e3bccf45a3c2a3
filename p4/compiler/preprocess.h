#ifndef INCSIM_P4_COMPILER_PREPROCESS_H
#define INCSIM_P4_COMPILER_PREPROCESS_H

// Phase 1: the C preprocessor, as p4c runs it. cpp's line markers (# 42 "p4/x.p4") are kept in
// the output so that the lexer can give every token its original file and line; cpp's own
// errors (a missing include, #error) become located diagnostics.

#include <optional>
#include <string>
#include <vector>

namespace incsim::p4
{

class Diagnostics;

struct PreprocessOptions
{
    /// Where <core.p4> and <v1model.p4> are found; empty means incsim's p4/include.
    std::string systemIncludeDir;
    /// More directories to search, after the system one and the program's own directory.
    std::vector<std::string> includeDirs;
    /// Macro definitions, "NAME" or "NAME=VALUE" (as with cpp -D).
    std::vector<std::string> defines;
    /// The preprocessor executable, looked up in PATH. It is run directly, never via a shell.
    std::string cpp = "cpp";
};

/// incsim's own include directory (p4/include in the source tree).
std::string DefaultSystemIncludeDir();

/// Runs cpp on the file at `path`. Returns the preprocessed text, with line markers, or nullopt
/// after reporting what went wrong to `diags`. The system include directory is registered with
/// diags.Sources() so that locations in it count as architecture code.
std::optional<std::string> Preprocess(const std::string& path,
                                      Diagnostics& diags,
                                      const PreprocessOptions& options = {});

/// The same for a program held in memory. `name` is what diagnostics call it; its directory
/// is searched for includes as the program's directory would be.
std::optional<std::string> PreprocessText(const std::string& name,
                                          const std::string& text,
                                          Diagnostics& diags,
                                          const PreprocessOptions& options = {});

} // namespace incsim::p4

#endif
