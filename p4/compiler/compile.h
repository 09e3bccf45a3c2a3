#ifndef INCSIM_P4_COMPILER_COMPILE_H
#define INCSIM_P4_COMPILER_COMPILE_H

// The whole compiler in one call: preprocess, parse, check, lower to the IR, generate C++ (and
// the contract).

#include "p4/compiler/cpp-backend.h"
#include "p4/compiler/frontend.h"

#include <optional>
#include <string>
#include <vector>

namespace incsim::p4
{

class Diagnostics;

struct CompileResult
{
    std::optional<CppCode> code;  // nullopt when diags has errors
    /// CompileLibrary's contract header; nullopt when diags has errors.
    std::optional<std::string> libraryContract;
    /// Every file the program read (itself and its includes), for build-system depfiles.
    std::vector<std::string> dependencies;
};

/// Compiles the program at `path`. Empty fields of `backend` default to
/// ProgramNameForPath(path) and `path` itself.
CompileResult CompileProgram(const std::string& path, Diagnostics& diags,
                             CppBackendOptions backend = {},
                             const FrontendOptions& options = {});

/// The program at `path` parsed, checked and lowered to the mid-end's IR, as text (ir.h:
/// DumpIr); nullopt when diags has errors.
std::optional<std::string> DumpProgramIr(const std::string& path, Diagnostics& diags,
                                         const FrontendOptions& options = {});

/// Compiles a library of declarations with no `main` (p4/lib/headers.p4) into its contract
/// header only (result.libraryContract).
CompileResult CompileLibrary(const std::string& path, Diagnostics& diags,
                             CppBackendOptions backend = {},
                             const FrontendOptions& options = {});

} // namespace incsim::p4

#endif
