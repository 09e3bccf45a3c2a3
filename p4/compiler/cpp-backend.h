#ifndef INCSIM_P4_COMPILER_CPP_BACKEND_H
#define INCSIM_P4_COMPILER_CPP_BACKEND_H

// The C++ back end: lowers a checked program to the mid-end IR (midend.h) and turns that into
// one C++ class implementing p4rt::V1Program (p4/runtime/v1model.h). The generator is split by
// construct (backend-generator.h lists the files).
//
//   auto program = ParseProgram(path, diags);
//   if (program && !diags.HasErrors() && CheckProgram(*program, diags))
//       if (auto code = GenerateCpp(*program, {"forward", path}, diags)) write code->source;
//
// What comes out, for a program called `forward`:
//  - header: declares `incsim::p4gen::forward::Program()`, returning the GeneratedProgram
//    (info and factory);
//  - contract: forward-contract.h, the program's constants, types and control-plane names
//    for hand-written C++ (contract.h);
//  - source: headers and structs as C++ structs (bit<N> fields in the smallest unsigned
//    integer, wider ones in p4rt::WideBits<N>, a `valid` flag per header), a per-packet State
//    (hdr, meta, standard metadata), and the program class: the parser as a goto state
//    machine, each action and table apply as a member function, the deparser writing the
//    emitted headers and moving the payload once.
//
// Names from the program get a trailing underscore (`ttl_`), so they never collide with C++
// keywords or with the generated code's own names, which never end in one. Tables, actions
// and externs are numbered in declaration order (`table3_ipv4_route`).
//
// A construct outside incsim's subset (meters, action selectors, range match kinds, random,
// digest, ...) is an error at its location that names it; GenerateCpp then returns nullopt.

#include "p4/compiler/ast.h"

#include <cstdint>
#include <optional>
#include <string>

namespace incsim::p4
{

class Diagnostics;

struct CppBackendOptions
{
    /// The program's name: a C++ identifier (ProgramNameForPath).
    std::string name;
    /// The source path recorded in the program's info.
    std::string sourcePath;
    /// Every file the program was compiled from, with the SourceHash of its bytes, recorded in
    /// the program's info so that a target can tell when a source changed after the build.
    std::vector<std::pair<std::string, uint64_t>> sources = {};
    /// CompileProgram records `sources` relative to this directory when they are inside it.
    std::string sourceRoot = {};
};

struct CppCode
{
    std::string header;
    std::string source;
    /// Hash of the generated program (what the source holds apart from its framing), recorded
    /// in the program's info so that a stale build can be recognised.
    uint64_t codeHash = 0;
    /// NAME-contract.h: the program's constants, types and control-plane names for the C++
    /// around it (contract.h).
    std::string contract;
};

std::optional<CppCode> GenerateCpp(const ast::Program& program, const CppBackendOptions& options,
                                   Diagnostics& diags);

/// The contract of a library of declarations (constants, enums, types; no `main`), such as
/// p4/lib/headers.p4; nullopt when a constant cannot be generated.
std::optional<std::string> GenerateLibraryContract(const ast::Program& program,
                                                   const CppBackendOptions& options,
                                                   Diagnostics& diags);

/// The program name CppBackendOptions expects for a .p4 path: "p4/my-prog.p4" -> "my_prog",
/// "2pc.p4" -> "_2pc" (the name the build gives it).
std::string ProgramNameForPath(const std::string& path);

} // namespace incsim::p4

#endif
