// Constants in the generated code: table-schema bit strings, wide constants (folding is the
// mid-end's: midend-constants.h).

#include "p4/compiler/backend-generator.h"
#include "p4/runtime/bits.h"

namespace incsim::p4::backend
{

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
