#ifndef INCSIM_P4_COMPILER_PARSER_H
#define INCSIM_P4_COMPILER_PARSER_H

// Phase 3: tokens -> AST, by recursive descent over incsim's P4_16 subset plus everything that
// core.p4 and v1model.p4 declare (externs, generic extern functions, parser/control/package
// types). Constructs outside the subset (header_union, for, value_set, functions, ...) are
// reported as "X is not supported by incsim" at their location.
//
// Errors do not stop the parser: after one it skips to the next ';' or '}' and carries on, so
// one run reports several (up to the Diagnostics error limit).
//
// Like p4c, the parser tracks which names are types (declared so far, plus type parameters in
// scope) to tell `T x;` from `a = b;`, `(T) x` from `(a) + b`, and `f<T>(x)` from `a < b`.

#include "p4/compiler/ast.h"
#include "p4/compiler/lexer.h"

#include <memory>
#include <vector>

namespace incsim::p4
{

class Diagnostics;

/// Parses a whole program. Never returns null: with errors, it returns what it could parse.
/// The program shares diags' SourceManager.
std::unique_ptr<ast::Program> Parse(std::vector<Token> tokens, Diagnostics& diags);

/// Parses the tokens as one expression (for tests and tools); null after reporting an error.
std::unique_ptr<ast::Expression> ParseExpression(std::vector<Token> tokens, Diagnostics& diags);

} // namespace incsim::p4

#endif
