#ifndef INCSIM_P4_COMPILER_CHECKER_H
#define INCSIM_P4_COMPILER_CHECKER_H

// The semantic checker: runs after the parser, on a program without syntax errors.
//
//   incsim::p4::Diagnostics diags;
//   auto program = incsim::p4::ParseProgram("p4/onepipe.p4", diags);
//   if (program && !diags.HasErrors()) incsim::p4::CheckProgram(*program, diags);
//
// It fills the AST's "checker:" slots:
// - `resolved` of NameExpr, NamedType, MemberExpr (fields, methods, enum/error members) and
//   KeyElement::resolvedMatchKind. `accept` and `reject` resolve to two shared ParserState
//   declarations (AcceptState(), RejectState()) that belong to no program.
// - `type` of every expression it can type. Types are canonical: a typedef is followed to
//   what it names, headers/structs/enums/externs are NamedTypes resolved to their declaration,
//   `int` literals without a width get InfIntType until an operand gives them one. Left null
//   (unknown, compatible with anything) for list and struct expressions, `default`, `_`,
//   `action_run`, and results of generic calls whose type argument is not written.
// - BitsType::width for bit<(expression)> and StackType::count for a constant size.
//
// A table's apply() result has type NamedType{name "apply_result", resolved = the TableDecl}.
//
// Errors, each at the offending expression (tests/p4/bad/checker/ has one program per kind):
// undeclared names, types and states; redeclarations; operands of different types; `&&`,
// `||`, `!`, `?:` and `if` on non-bool; assignments and arguments of another type without a
// cast; writes to constants, `in` and directionless parameters (also through out/inout
// arguments); wrong argument counts (overloads are picked by count); unknown fields, enum and
// error members, methods; stack indices and slices out of range; `++` on non-fixed widths;
// header/struct initializers with the wrong fields; select and entry keys of the wrong count
// or type; unknown match kinds; table actions that are not actions, and default/entry actions
// not in the table's list, switch labels that are not actions of the table; casts other
// than between integers (and serializable enums) or bool and bit<1>; `exit`/`return` in a parser, `return` with a value, calling an
// action from a parser; package (V1Switch) arguments of the wrong kind, parameter count,
// direction or type (H and M bound across the arguments). Functions, `type` declarations and
// abstract methods, and the rules of p4c's error corpus: p4/compiler/README.md, "Decisions".

#include "p4/compiler/ast.h"

#include <string>

namespace incsim::p4
{

class Diagnostics;

/// Resolves names and types expressions in `program`, reporting errors (located at the
/// offending expression) to `diags`. Returns true when it reported no error.
bool CheckProgram(ast::Program& program, Diagnostics& diags);

/// A program, as opposed to a file of declarations for others to include, instantiates the
/// top-level package `main` (P4_16 spec, "the package instance main"). Reports an error at the
/// start of `path`, the program's own file, when it does not: an empty file or one holding only
/// declarations has nothing to run. Returns true when `main` is there.
bool CheckHasMain(const ast::Program& program, const std::string& path, Diagnostics& diags);

/// The pseudo-states `accept` and `reject` that transitions resolve to.
const ast::ParserState& AcceptState();
const ast::ParserState& RejectState();

} // namespace incsim::p4

#endif
