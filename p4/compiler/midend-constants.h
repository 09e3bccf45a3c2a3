#ifndef INCSIM_P4_COMPILER_MIDEND_CONSTANTS_H
#define INCSIM_P4_COMPILER_MIDEND_CONSTANTS_H

// The mid-end's constant folding: every constant folded once, in declaration order, so that a
// use is a lookup however long the chain of constants built on constants; error codes and enum
// members numbered. Both the IR (ir.h) and a library's contract read it.

#include "p4/compiler/ast.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace incsim::p4
{

class Diagnostics;

class ConstantFolder
{
  public:
    /// Numbers the error codes (in declaration order) and enum members and folds every
    /// constant. A constant that does not fold to 64 bits is inlined at each use; one that
    /// would expand to more than 4096 operations is an error. False after errors.
    bool Collect(const ast::Program& program, Diagnostics& diags);

    /// The value of a compile-time constant expression up to 64 bits, as the pattern of its
    /// type's width (InfInt: as int64 two's complement); nullopt if it is not one.
    std::optional<uint64_t> Evaluate(const ast::Expression& expression, int depth = 0) const;
    /// A constant's folded value: nullopt when it does not fold (or is not a constant).
    std::optional<uint64_t> Folded(const ast::ConstDecl* constant) const;

    /// The value of an enum member or error code (`E.a`, `error.NoMatch`): errors numbered in
    /// declaration order, enum members by position unless serializable.
    std::optional<uint64_t> EnumOrErrorValue(const ast::MemberExpr& member, int depth = 0) const;
    /// Error codes by name, numbered in declaration order.
    const std::map<std::string, uint32_t>& ErrorCodes() const { return m_errorCodes; }

  private:
    void FoldConstants(const ast::Node& node, Diagnostics& diags);
    /// Operations in `expression` with every constant it uses inlined (saturating just past
    /// the limit).
    size_t InlinedSize(const ast::Node& expression) const;

    std::map<std::string, uint32_t> m_errorCodes;
    std::map<const ast::Declaration*, uint32_t> m_errorOfMember;
    std::map<const ast::Declaration*, const ast::EnumDecl*> m_enumOf;
    /// Every constant's folded value (nullopt: inlined at each use), and its inlined size.
    std::map<const ast::ConstDecl*, std::optional<uint64_t>> m_constValues;
    std::map<const ast::ConstDecl*, size_t> m_constSizes;
    bool m_constantTooLarge = false;
    bool m_failed = false;
};

} // namespace incsim::p4

#endif
