#ifndef INCSIM_P4_COMPILER_BACKEND_SUPPORT_H
#define INCSIM_P4_COMPILER_BACKEND_SUPPORT_H

// The one place where a checked program meets what the back end can generate: constructs that
// the front end parses and checks but the back end cannot translate yet are rejected here, each
// with a located error "... is not supported by incsim's back end yet", before the back end
// runs. A program stopped here was accepted by the checker (the conformance suite counts it so).
//
//   if (CheckHasMain(*program, path, diags) && CheckBackendSupport(*program, diags))
//       GenerateCpp(*program, options, diags);

#include "p4/compiler/ast.h"

namespace incsim::p4
{

class Diagnostics;

/// Reports each construct of `program` that the back end cannot generate yet. Returns true
/// when there is none.
bool CheckBackendSupport(const ast::Program& program, Diagnostics& diags);

} // namespace incsim::p4

#endif
