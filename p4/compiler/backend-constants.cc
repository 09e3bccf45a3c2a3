// Constants: folding, enum and error values, wide constants.

#include "p4/compiler/backend-generator.h"
#include "p4/runtime/bits.h"

namespace incsim::p4::backend
{

namespace
{
/// The most operations a constant that does not fold may expand to where it is used.
constexpr size_t kMaxInlinedConstant = 4096;
} // namespace

void
Generator::FoldConstants(const Node& node)
{
    if (const auto* constant = node.As<ConstDecl>(); constant && constant->value)
    {
        const std::optional<uint64_t> value = EvalConst(*constant->value);
        m_constValues[constant] = value;
        // EvalConst keeps the low 64 bits of a wider value, which uses do not take.
        const bool folds = value && !IsWide(constant->type.get());
        const size_t size = folds ? 1 : InlinedSize(*constant->value);
        m_constSizes[constant] = size;
        // Only the first: the constants built on it are as large.
        if (size > kMaxInlinedConstant && !m_constantTooLarge)
        {
            m_constantTooLarge = true;
            Unsupported(constant->location, "constant '" + constant->name + "'",
                        fmt::format("it is not a compile-time value of up to 64 bits, so "
                                    "each use repeats its expression, which expands to "
                                    "more than {} operations",
                                    kMaxInlinedConstant));
        }
    }
    ForEachChild(node, [&](const Node& child) { FoldConstants(child); });
}

size_t
Generator::InlinedSize(const Node& expression) const
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
Generator::EvalConst(const Expression& expression, int depth) const
{
    if (depth > 64)
    {
        return std::nullopt;
    }
    const unsigned width = Width(expression.type);
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
            value = EvalConst(*constant->value, depth + 1);
        }
        return value ? std::optional<uint64_t>(fit(*value)) : std::nullopt;
    }
    if (const auto* member = expression.As<MemberExpr>())
    {
        return EnumOrErrorValue(*member, depth);
    }
    if (const auto* cast = expression.As<CastExpr>())
    {
        const auto value = EvalConst(*cast->operand, depth + 1);
        if (!value)
        {
            return std::nullopt;
        }
        const unsigned from = Width(cast->operand->type);
        uint64_t result = *value;
        if (IsSigned(cast->operand->type) && from > 0 && from < 64)
        {
            result = static_cast<uint64_t>(p4rt::SignExtend(result, from));
        }
        return fit(result);
    }
    if (const auto* unary = expression.As<UnaryExpr>())
    {
        const auto value = EvalConst(*unary->operand, depth + 1);
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
        const auto value = EvalConst(*slice->object, depth + 1);
        const auto high = EvalConst(*slice->high, depth + 1);
        const auto low = EvalConst(*slice->low, depth + 1);
        if (!value || !high || !low || *high < *low || *low >= 64)
        {
            return std::nullopt;
        }
        return fit(*value >> *low);
    }
    if (const auto* binary = expression.As<BinaryExpr>())
    {
        const auto a = EvalConst(*binary->left, depth + 1);
        const auto b = EvalConst(*binary->right, depth + 1);
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
            if (*b == 0 || IsSigned(binary->type))
            {
                return std::nullopt;
            }
            return fit(binary->op == BinaryOp::Div ? *a / *b : *a % *b);
        case BinaryOp::Shl:
            return *b >= 64 ? 0 : fit(*a << *b);
        case BinaryOp::Shr:
            if (IsSigned(binary->type) && width > 0 && width <= 64)
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
            if (width == 0 || width > 64)
            {
                return std::nullopt;
            }
            return fit((Width(binary->right->type) >= 64 ? 0 : *a << Width(binary->right->type)) |
                       *b);
        default:
            return std::nullopt;
        }
    }
    return std::nullopt;
}

std::optional<uint64_t>
Generator::EnumOrErrorValue(const MemberExpr& member, int depth) const
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
                return EvalConst(*decl->value, depth + 1);
            }
            return enumDecl.underlyingType ? std::nullopt : std::optional<uint64_t>(i);
        }
    }
    return std::nullopt;
}

std::string
Generator::BitStringOf(const Expression& expression)
{
    if (const auto value = EvalConst(expression))
    {
        return fmt::format("p4rt::BitString({})", Hex(*value));
    }
    const Expression* inner = &expression;
    while (const auto* cast = inner->As<CastExpr>())
    {
        inner = cast->operand.get();
    }
    if (const auto* name = inner->As<NameExpr>())
    {
        const auto* constant = name->resolved ? name->resolved->As<ConstDecl>() : nullptr;
        if (constant && constant->value)
        {
            inner = constant->value.get();
        }
    }
    if (const auto* literal = inner->As<IntegerLiteral>())
    {
        return fmt::format("p4rt::BitString::FromBytes({})", BytesInitializer(literal->value));
    }
    Fail(expression.location, "this must be a compile-time constant");
    return "p4rt::BitString()";
}

std::string
Generator::BytesInitializer(const BigUint& value)
{
    std::string hex = value.ToString(16);
    if (hex.size() % 2)
    {
        hex.insert(0, "0");
    }
    std::string out = "std::vector<uint8_t>{";
    for (size_t i = 0; i < hex.size(); i += 2)
    {
        out += (i ? ", 0x" : "0x") + hex.substr(i, 2);
    }
    return out + "}";
}

std::string
Generator::WideConstant(const BigUint& value, unsigned width)
{
    const std::string name = fmt::format("kWide{}", m_wideConstantCount++);
    m_constants.Line(
        fmt::format("const p4rt::WideBits<{}> {} = *p4rt::WideBits<{}>::FromHex(\"{}\");", width,
                    name, width, value.ToString(16)));
    return name;
}

} // namespace incsim::p4::backend
