#ifndef INCSIM_P4_COMPILER_CONTRACT_H
#define INCSIM_P4_COMPILER_CONTRACT_H

// The contract header: what a P4 program shares with the C++ around it (protocol endpoints,
// controllers, the simulator), generated next to the program's code so that a change on one
// side that the other does not follow breaks the build instead of the run.
//
// For a program called `gotthard` the build writes `build/p4gen/gotthard-contract.h`,
// namespace `incsim::p4gen::gotthard::contract`, self-contained (it includes nothing):
//  - the program's `const` values (top-level ones at namespace scope, a control's or parser's
//    in a namespace named after it) and its enums (`enum class`, serializable ones with their
//    values and underlying type), its typedefs, and the error codes (`error::NoMatch`);
//  - a struct per header type with kBits and kBytes and a struct per field with kOffset (bits
//    from the header's start) and kWidth; a struct per struct type with its fields' types
//    (header stacks with kStackSize);
//  - the control-plane names (kName) of tables (with their keys and actions), actions (with a
//    struct per control-plane parameter: kName, kWidth), registers and counters (kSize, kWidth),
//    in the namespace of their control.
// A library of declarations with no `main` (p4/lib/headers.p4) gets the first two parts.
// p4/README.md documents the layout and the renaming rule (CppContractName).

#include "p4/compiler/ast.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace incsim::p4
{

/// What the back end resolved about a program for its contract.
struct ContractInput
{
    struct Table
    {
        std::string name;  // control-plane name, "MyIngress.ipv4_route"
        std::vector<std::string> keys;  // key field names as the control plane takes them
        std::vector<std::string> actions;  // control-plane names
        std::optional<uint64_t> size;  // when the table declares one
    };
    struct Action
    {
        std::string name;
        std::vector<std::pair<std::string, unsigned>> params;  // control-plane ones, with widths
    };
    struct Extern
    {
        std::string name;
        bool isRegister = true;  // otherwise a counter
        unsigned width = 0;  // registers: the cell width
        uint64_t size = 0;
    };

    /// Names the namespace: incsim::p4gen::<name>::contract.
    std::string name;
    std::string sourcePath;
    /// A whole program (kProgram and control-plane names) rather than a library.
    bool isProgram = true;
    /// A constant expression's value as the back end folds it: the pattern of its type's width
    /// (InfInt: int64 two's complement); nullopt when it does not fold to 64 bits.
    std::function<std::optional<uint64_t>(const ast::Expression&)> evaluate;
    /// parser_error values, in numbering order.
    std::vector<std::pair<std::string, uint32_t>> errors;
    std::vector<Table> tables;
    std::vector<Action> actions;
    std::vector<Extern> externs;
};

/// The contract header's text. Output depends on the program only.
std::string GenerateContract(const ast::Program& program, const ContractInput& input);

/// Whether `name` can name something in generated C++ as it is: an identifier that is no C++
/// keyword or alternative token, no macro GCC predefines, and not reserved (`__`, `_X`).
bool IsUsableCppIdentifier(const std::string& name);

/// The identifier the contract gives P4 name `name` in a scope where `taken` names are in use:
/// `name` itself, or with trailing underscores when C++ would not take it as it is (a keyword,
/// an alternative token such as `and`, a name GCC predefines as a macro, an identifier
/// reserved to the implementation) or when it is taken. Adds the result to `taken`.
std::string CppContractName(const std::string& name, std::vector<std::string>& taken);

/// `text` as a C++ string literal: quotes and backslashes escaped, other bytes outside
/// printable ASCII as octal escapes (paths and P4 names may hold any of them).
std::string CppStringLiteral(const std::string& text);

} // namespace incsim::p4

#endif
