#include "p4/compiler/midend-constants.h"

#include "p4/compiler/diagnostics.h"
#include "p4/runtime/bits.h"

#include <fmt/format.h>

#include <algorithm>

namespace incsim::p4
{

using namespace ast;

namespace
{
/// The most operations a constant that does not fold may expand to where it is used.
constexpr size_t kMaxInlinedConstant = 4096;
} // namespace

bool
ConstantFolder::Collect(const Program& program, Diagnostics& diags)
{
    for (const auto& decl : program.declarations)
    {
        FoldConstants(*decl, diags);
    }
    for (const auto& decl : program.declarations)
    {
        if (const auto* errorDecl = decl->As<ErrorDecl>())
        {
            for (const auto& member : errorDecl->members)
            {
                const auto code = static_cast<uint32_t>(m_errorCodes.size());
                m_errorCodes.emplace(member->name, code);
                m_errorOfMember[member.get()] = code;
            }
        }
        else if (const auto* enumDecl = decl->As<EnumDecl>())
        {
            for (const auto& member : enumDecl->members)
            {
                m_enumOf[member.get()] = enumDecl;
            }
        }
    }
    return !m_failed;
}

void
ConstantFolder::FoldConstants(const Node& node, Diagnostics& diags)
{
    if (const auto* constant = node.As<ConstDecl>(); constant && constant->value)
    {
        const std::optional<uint64_t> value = Evaluate(*constant->value);
        m_constValues[constant] = value;
        // Evaluate keeps the low 64 bits of a wider value, which uses do not take.
        const bool folds = value && ScalarWidth(constant->type.get()) <= 64;
        const size_t size = folds ? 1 : InlinedSize(*constant->value);
        m_constSizes[constant] = size;
        // Only the first: the constants built on it are as large.
        if (size > kMaxInlinedConstant && !m_constantTooLarge)
        {
            m_constantTooLarge = true;
            m_failed = true;
            diags.Error(constant->location,
                        fmt::format("constant '{}' is outside incsim's P4 subset: it is not a "
                                    "compile-time value of up to 64 bits, so each use repeats "
                                    "its expression, which expands to more than {} operations",
                                    constant->name, kMaxInlinedConstant));
        }
    }
    ForEachChild(node, [&](const Node& child) { FoldConstants(child, diags); });
}

size_t
ConstantFolder::InlinedSize(const Node& expression) const
{
    size_t size = 1;
    if (const auto* name = expression.As<NameExpr>())
    {
        const auto* constant = name->resolved ? name->resolved->As<ConstDecl>() : nullptr;
        if (const auto found = m_constSizes.find(constant); found != m_constSizes.end())
        {
            size = found->second;
        }
    }
    ForEachChild(expression, [&](const Node& child) {
        size = std::min(size + InlinedSize(child), kMaxInlinedConstant + 1);
    });
    return size;
}

std::optional<uint64_t>
ConstantFolder::Evaluate(const Expression& expression, int depth) const
{
    if (depth > 64)
    {
        return std::nullopt;
    }
    const unsigned width = ScalarWidth(expression.type);
    const auto fit = [&](uint64_t value) -> uint64_t {
        return width == 0 ? value : p4rt::Truncate(value, std::min(width, 64u));
    };
    if (const auto* literal = expression.As<IntegerLiteral>())
    {
        if (!literal->value.FitsIn64())
        {
            return std::nullopt;
        }
        return fit(literal->value.Low64());
    }
    if (const auto* boolean = expression.As<BoolLiteral>())
    {
        return boolean->value ? 1 : 0;
    }
    if (const auto* name = expression.As<NameExpr>())
    {
        const auto* constant = name->resolved ? name->resolved->As<ConstDecl>() : nullptr;
        std::optional<uint64_t> value;
        if (const auto folded = m_constValues.find(constant); folded != m_constValues.end())
        {
            value = folded->second;
        }
        else if (constant && constant->value)
        {
            value = Evaluate(*constant->value, depth + 1);
        }
        return value ? std::optional<uint64_t>(fit(*value)) : std::nullopt;
    }
    if (const auto* member = expression.As<MemberExpr>())
    {
        return EnumOrErrorValue(*member, depth);
    }
    if (const auto* cast = expression.As<CastExpr>())
    {
        const auto value = Evaluate(*cast->operand, depth + 1);
        if (!value)
        {
            return std::nullopt;
        }
        const unsigned from = ScalarWidth(cast->operand->type);
        uint64_t result = *value;
        if (IsSignedScalar(cast->operand->type) && from > 0 && from < 64)
        {
            result = static_cast<uint64_t>(p4rt::SignExtend(result, from));
        }
        return fit(result);
    }
    if (const auto* unary = expression.As<UnaryExpr>())
    {
        const auto value = Evaluate(*unary->operand, depth + 1);
        if (!value)
        {
            return std::nullopt;
        }
        switch (unary->op)
        {
        case UnaryOp::Negate:
            return fit(0 - *value);
        case UnaryOp::Plus:
            return *value;
        case UnaryOp::Complement:
            return fit(~*value);
        case UnaryOp::Not:
            return *value ? 0 : 1;
        }
    }
    if (const auto* slice = expression.As<SliceExpr>())
    {
        const auto value = Evaluate(*slice->object, depth + 1);
        const auto high = Evaluate(*slice->high, depth + 1);
        const auto low = Evaluate(*slice->low, depth + 1);
        if (!value || !high || !low || *high < *low || *low >= 64)
        {
            return std::nullopt;
        }
        return fit(*value >> *low);
    }
    if (const auto* binary = expression.As<BinaryExpr>())
    {
        const auto a = Evaluate(*binary->left, depth + 1);
        const auto b = Evaluate(*binary->right, depth + 1);
        if (!a || !b)
        {
            return std::nullopt;
        }
        switch (binary->op)
        {
        case BinaryOp::Add:
            return fit(*a + *b);
        case BinaryOp::Sub:
            return fit(*a - *b);
        case BinaryOp::Mul:
            return fit(*a * *b);
        case BinaryOp::Div:
        case BinaryOp::Mod:
            if (*b == 0 || IsSignedScalar(binary->type))
            {
                return std::nullopt;
            }
            return fit(binary->op == BinaryOp::Div ? *a / *b : *a % *b);
        case BinaryOp::Shl:
            return *b >= 64 ? 0 : fit(*a << *b);
        case BinaryOp::Shr:
            if (IsSignedScalar(binary->type) && width > 0 && width <= 64)
            {
                // Arithmetic shift of the int<width> pattern.
                return fit(static_cast<uint64_t>(p4rt::SignExtend(*a, width) >>
                                                 std::min<uint64_t>(*b, 63)));
            }
            return *b >= 64 ? 0 : fit(*a >> *b);
        case BinaryOp::BitAnd:
            return *a & *b;
        case BinaryOp::BitOr:
            return *a | *b;
        case BinaryOp::BitXor:
            return *a ^ *b;
        case BinaryOp::Concat:
        {
            if (width == 0 || width > 64)
            {
                return std::nullopt;
            }
            const unsigned rightWidth = ScalarWidth(binary->right->type);
            return fit((rightWidth >= 64 ? 0 : *a << rightWidth) | *b);
        }
        default:
            return std::nullopt;
        }
    }
    return std::nullopt;
}

std::optional<uint64_t>
ConstantFolder::EnumOrErrorValue(const MemberExpr& member, int depth) const
{
    const auto* decl = member.resolved ? member.resolved->As<EnumMember>() : nullptr;
    if (!decl)
    {
        return std::nullopt;
    }
    if (const auto error = m_errorOfMember.find(decl); error != m_errorOfMember.end())
    {
        return error->second;
    }
    const auto owner = m_enumOf.find(decl);
    if (owner == m_enumOf.end())
    {
        return std::nullopt;
    }
    const EnumDecl& enumDecl = *owner->second;
    for (size_t i = 0; i < enumDecl.members.size(); ++i)
    {
        if (enumDecl.members[i].get() == decl)
        {
            if (decl->value)
            {
                return Evaluate(*decl->value, depth + 1);
            }
            return enumDecl.underlyingType ? std::nullopt : std::optional<uint64_t>(i);
        }
    }
    return std::nullopt;
}

std::optional<uint64_t>
ConstantFolder::Folded(const ConstDecl* constant) const
{
    const auto found = m_constValues.find(constant);
    return found != m_constValues.end() ? found->second : std::nullopt;
}

} // namespace incsim::p4
