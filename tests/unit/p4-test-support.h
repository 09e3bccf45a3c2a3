#ifndef INCSIM_TESTS_UNIT_P4_TEST_SUPPORT_H
#define INCSIM_TESTS_UNIT_P4_TEST_SUPPORT_H

// Shared by the P4 compiler's tests (no ns-3 here): the test programs' directory, reading the
// first error of a compilation, and running the negative programs of a directory.

#include "p4/compiler/cpp-backend.h"
#include "p4/compiler/diagnostics.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace incsim::p4test
{

/// tests/p4 in the source tree.
const std::string& P4TestDir();

std::string ReadTextFile(const std::string& path);

/// The first error as rendered ("file:line:col: error: ..."), without its source line.
std::string FirstErrorLine(const p4::Diagnostics& diags);

/// Calls `check(path, expected)` for every .p4 file directly in `dir`, in name order, where
/// `expected` is the file's first line after "// expect: ", prefixed with `dir` + "/".
/// Returns how many programs there were.
size_t ForEachNegativeProgram(
    const std::string& dir,
    const std::function<void(const std::string& path, const std::string& expected)>& check);

/// A whole v1model program around an ingress control that runs `body` (statements on
/// `hdr.h.f`, `meta.x`, both bit<8>, and `meta.w`, bit<128>), after the declarations `decls`.
std::string IngressProgram(const std::string& decls, const std::string& body);

/// Parses, checks and generates C++ for program text called `name`; nullopt after errors.
std::optional<p4::CppCode> CompileText(const std::string& name, const std::string& text,
                                       p4::Diagnostics& diags);

} // namespace incsim::p4test

#endif
