#ifndef INCSIM_TESTS_UNIT_P4_TEST_SUPPORT_H
#define INCSIM_TESTS_UNIT_P4_TEST_SUPPORT_H

// Shared by the P4 compiler's tests (no ns-3 here): the test programs' directory, reading the
// first error of a compilation, and running the negative programs of a directory.

#include "p4/compiler/diagnostics.h"

#include <cstddef>
#include <functional>
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

} // namespace incsim::p4test

#endif
