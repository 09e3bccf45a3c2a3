// The deparser: emit.

#include "p4/compiler/backend-generator.h"

namespace incsim::p4::backend
{

void
Generator::Emit(const Expression& value, CodeWriter& out)
{
    const std::string object = Value(value);
    Flush(out);
    EmitObject(object, Canon(value.type), value.location, out);
}

void
Generator::EmitObject(const std::string& object, const Type* type, const SourceLocation& where,
                      CodeWriter& out)
{
    type = Canon(type);
    if (const auto* stack = type ? type->As<StackType>() : nullptr)
    {
        for (uint32_t i = 0; i < stack->count; ++i)
        {
            EmitObject(fmt::format("{}.element[{}]", object, i), stack->element.get(), where,
                       out);
        }
        return;
    }
    const auto* decl = StructOf(type);
    if (!decl)
    {
        Unsupported(where, "emitting something that is not a header");
        return;
    }
    if (decl->Is<StructDecl>())
    {
        for (const auto& field : decl->fields)
        {
            EmitObject(object + "." + field->name + "_", field->type.get(), where, out);
        }
        return;
    }
    const unsigned bytes = HeaderBytes(*decl);
    m_maxEmitBytes += bytes;
    out.Open(fmt::format("if ({}.valid)", object));
    out.Line(fmt::format("EmitHeader({}, out + pos);", object));
    out.Line(fmt::format("pos += {};", bytes));
    out.Close();
}

void
Generator::EmitDeparser(CodeWriter& out)
{
    m_context = Context::Deparser;
    CodeWriter body;
    m_maxEmitBytes = 0;
    for (const auto& statement : m_deparser->apply->statements)
    {
        Statement(*statement, body);
    }
    out.Line("");
    out.Open("std::optional<uint32_t> Deparse(const void* state, uint8_t* data, "
             "uint32_t length, uint32_t capacity) const override");
    out.Line("const State& s = *static_cast<const State*>(state);");
    out.Line(fmt::format("uint8_t out[{}];", std::max(m_maxEmitBytes, 1u)));
    out.Line("uint32_t pos = 0;");
    out.Append(body.Take());
    out.Line("goto deparsed;");
    out.Line("deparsed:");
    out.Line("const uint32_t payload = length - s.base.parsedBytes;");
    out.Line("if (pos + payload > capacity) return std::nullopt;");
    out.Line("if (pos != s.base.parsedBytes) std::memmove(data + pos, data + "
             "s.base.parsedBytes, payload);");
    out.Line("std::memcpy(data, out, pos);");
    out.Line("return pos + payload;");
    out.Close();
}

} // namespace incsim::p4::backend
