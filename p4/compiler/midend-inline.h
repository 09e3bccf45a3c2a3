#ifndef INCSIM_P4_COMPILER_MIDEND_INLINE_H
#define INCSIM_P4_COMPILER_MIDEND_INLINE_H

// The mid-end's inlining pass (midend.cc runs it first, before the IR numbers anything): a copy
// of the checked program in which
//  - every call of a function with a body is replaced by the function's body, its arguments
//    bound by direction (copy-in, copy-out through fresh variables; `return` assigns the
//    result and skips the rest of the body);
//  - every control instantiated inside another control becomes part of it: the instance's
//    locals (variables, actions, tables, externs) join the caller's, renamed after the
//    instance, each `inst.apply(...)` becomes the instance's apply body, constructor
//    parameters become their arguments;
//  - every parser instantiated inside another parser is spliced into it: each
//    `inst.apply(...)` in a state splits the state, and a copy of the callee's states runs
//    between the two halves (its `accept` goes on with the caller's state).
// The copy is then checked again (CheckProgram), so the back end sees an ordinary program:
// names resolved, expressions typed, located as the source they came from.

#include "p4/compiler/ast.h"

#include <map>
#include <memory>
#include <string>

namespace incsim::p4
{

class Diagnostics;

struct InlinedProgram
{
    std::unique_ptr<ast::Program> program;
    /// For an action, table or extern instance that came from a block instantiated inside
    /// another, its name relative to the outermost block, as p4c's control-plane names have
    /// it ("sub.t" for table t of instance sub; the IR prefixes the block's name).
    std::map<const ast::Declaration*, std::string> localNames;
};

/// Whether `program` calls a function with a body or instantiates a control or parser inside
/// another block (else the pass has nothing to do, and the program is lowered as it is).
bool NeedsInlining(const ast::Program& program);

/// The inlined copy of `program` (checked, without errors), checked again. Null program after
/// errors: a construct that cannot be inlined (a call of a function outside a statement, a
/// sub-parser call inside a conditional, ...), located where it is written.
InlinedProgram InlineProgram(const ast::Program& program, Diagnostics& diags);

} // namespace incsim::p4

#endif
