#ifndef INCSIM_P4_COMPILER_MIDEND_H
#define INCSIM_P4_COMPILER_MIDEND_H

// The mid-end: lowers a checked program to the IR (ir.h) that the back end generates from.
//
//   if (CheckProgram(*program, diags))
//       if (auto lowered = LowerProgram(*program, wholeProgram, diags)) ... DumpIr(*lowered)

#include "p4/compiler/ir.h"

#include <memory>

namespace incsim::p4
{

class Diagnostics;

/// Lowers `program` (checked, with a `main` instantiating the package of one of
/// `architectures`); errors about the program as a whole are located at `whole`. Null after
/// errors (constructs outside the subset among them).
std::unique_ptr<ir::Program>
LowerProgram(const ast::Program& program, const SourceLocation& whole, Diagnostics& diags,
             const std::vector<const Architecture*>& architectures = Architectures());

} // namespace incsim::p4

#endif
