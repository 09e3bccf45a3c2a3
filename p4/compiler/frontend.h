#ifndef INCSIM_P4_COMPILER_FRONTEND_H
#define INCSIM_P4_COMPILER_FRONTEND_H

// The front end as one call: preprocess (cpp) -> lex -> parse. What comes out is syntax only;
// the checker resolves names and types on top of it.
//
//   incsim::p4::Diagnostics diags;
//   auto program = incsim::p4::ParseProgram("p4/onepipe.p4", diags);
//   if (diags.HasErrors()) { std::cerr << diags.Render(); return 1; }

#include "p4/compiler/ast.h"
#include "p4/compiler/lexer.h"
#include "p4/compiler/preprocess.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace incsim::p4
{

class Diagnostics;

struct FrontendOptions
{
    PreprocessOptions preprocess;
};

/// Parses the P4 program at `path` (which must #include <core.p4> and <v1model.p4> itself).
/// Returns null only when preprocessing failed; otherwise the program, which is partial if
/// diags.HasErrors(). Locations name files as given (`path`, or as cpp found the includes).
std::unique_ptr<ast::Program> ParseProgram(const std::string& path,
                                           Diagnostics& diags,
                                           const FrontendOptions& options = {});

/// The same for a program in memory; `name` stands for its file name in diagnostics, and its
/// directory is searched for quoted includes.
std::unique_ptr<ast::Program> ParseProgramText(const std::string& name,
                                               const std::string& text,
                                               Diagnostics& diags,
                                               const FrontendOptions& options = {});

/// Preprocesses and lexes only (for --dump-tokens); nullopt when preprocessing failed.
std::optional<std::vector<Token>> LexProgram(const std::string& path,
                                             Diagnostics& diags,
                                             const FrontendOptions& options = {});

/// One token per line: "file:line:col kind text".
std::string DumpTokens(const std::vector<Token>& tokens);

} // namespace incsim::p4

#endif
