// Types: C++ types of P4 types, header sizes, the structs, header codecs and the per-packet State.

#include "p4/compiler/backend-generator.h"
#include "p4/runtime/bits.h"

namespace incsim::p4::backend
{

bool
Generator::IsBool(const Type* type)
{
    type = Canon(type);
    return type && type->Is<BoolType>();
}

bool
Generator::IsInfInt(const Type* type)
{
    type = Canon(type);
    return !type || type->Is<InfIntType>();
}

bool
Generator::IsNarrow(const Type* type)
{
    const unsigned width = Width(type);
    return width > 0 && width <= 64 && !IsBool(type);
}

const StructLikeDecl*
Generator::StructOf(const Type* type)
{
    const Declaration* decl = NamedDecl(type);
    return decl ? decl->As<StructLikeDecl>() : nullptr;
}

std::string
Generator::StorageType(const Type* type, const SourceLocation& where)
{
    type = Canon(type);
    if (!type)
    {
        Fail(where, "internal: a type was not resolved");
        return "uint64_t";
    }
    if (type->Is<BoolType>())
    {
        return "bool";
    }
    if (const auto* stack = type->As<StackType>())
    {
        return fmt::format("p4rt::HeaderStack<{}, {}>",
                           StorageType(stack->element.get(), where), stack->count);
    }
    if (const auto* decl = StructOf(type))
    {
        return StructName(*decl);
    }
    const unsigned width = Width(type);
    if (width == 0)
    {
        Unsupported(where, "a value of type " + ToString(*type));
        return "uint64_t";
    }
    if (width > 64)
    {
        return fmt::format("p4rt::WideBits<{}>", width);
    }
    return width <= 8 ? "uint8_t" : width <= 16 ? "uint16_t" : width <= 32 ? "uint32_t"
                                                                          : "uint64_t";
}

std::string
Generator::ValueType(const Type* type, const SourceLocation& where)
{
    return IsNarrow(type) ? "uint64_t" : StorageType(type, where);
}

unsigned
Generator::HeaderBits(const StructLikeDecl& header)
{
    unsigned bits = 0;
    for (const auto& field : header.fields)
    {
        const unsigned width = Width(field->type.get());
        if (width == 0 || IsBool(field->type.get()))
        {
            Unsupported(field->location,
                        "header field '" + field->name + "' of type " +
                            ToString(*field->type),
                        "header fields must be bit<N>, int<N> or serializable enums");
        }
        bits += width;
    }
    return bits;
}

unsigned
Generator::HeaderBytes(const StructLikeDecl& header)
{
    const unsigned bits = HeaderBits(header);
    if (bits % 8 != 0)
    {
        Fail(header.location, fmt::format("header '{}' is {} bits long; a header must be a "
                                           "whole number of bytes",
                                           header.name, bits));
    }
    return bits / 8;
}

void
Generator::EmitTypes(CodeWriter& out)
{
    for (const auto& decl : m_program.declarations)
    {
        const auto* structLike = decl->As<StructLikeDecl>();
        if (!structLike)
        {
            continue;
        }
        out.Open("struct " + StructName(*structLike));
        if (structLike->Is<HeaderDecl>())
        {
            out.Line("bool valid;");
        }
        for (const auto& field : structLike->fields)
        {
            out.Line(StorageType(field->type.get(), field->location) + " " + field->name +
                     "_;");
        }
        out.Close(";");
        out.Line("");
        if (structLike->Is<HeaderDecl>() && !structLike->IsSystem())
        {
            EmitHeaderCodec(*structLike, out);
        }
    }
}

void
Generator::EmitHeaderCodec(const StructLikeDecl& header, CodeWriter& out)
{
    const std::string type = StructName(header);
    HeaderBytes(header);
    CodeWriter extract;
    CodeWriter emit;
    struct Field
    {
        std::string name;
        std::string storage;
        unsigned width;
    };
    std::vector<Field> run;
    unsigned runStart = 0;
    unsigned runBits = 0;
    bool needsClear = false;
    const auto flushRun = [&]() {
        if (run.empty())
        {
            return;
        }
        if (run.size() == 1)
        {
            extract.Line(fmt::format("{} = static_cast<{}>(p4rt::LoadBigEndian(p + {}, {}));",
                                     run[0].name, run[0].storage, runStart / 8, runBits / 8));
            emit.Line(fmt::format("p4rt::StoreBigEndian(p + {}, {}, {});", runStart / 8,
                                  run[0].name, runBits / 8));
        }
        else
        {
            extract.Line(fmt::format("const uint64_t run{} = p4rt::LoadBigEndian(p + {}, {});",
                                     runStart / 8, runStart / 8, runBits / 8));
            std::string packed;
            unsigned shift = runBits;
            for (const Field& field : run)
            {
                shift -= field.width;
                extract.Line(fmt::format("{} = static_cast<{}>((run{} >> {}) & {});", field.name,
                                         field.storage, runStart / 8, shift,
                                         Hex(p4rt::WidthMask(std::min(field.width, 64u)))));
                packed += fmt::format("{}(uint64_t{{{}}} << {})", packed.empty() ? "" : " | ",
                                      field.name, shift);
            }
            emit.Line(fmt::format("p4rt::StoreBigEndian(p + {}, {}, {});", runStart / 8,
                                  packed, runBits / 8));
        }
        run.clear();
        runBits = 0;
    };
    unsigned offset = 0;
    for (const auto& field : header.fields)
    {
        const unsigned width = Width(field->type.get());
        const std::string name = "h." + field->name + "_";
        const std::string storage = StorageType(field->type.get(), field->location);
        if (run.empty())
        {
            runStart = offset;
        }
        if (width > 64 || runStart % 8 != 0 || runBits + width > 64)
        {
            // Not part of a byte-aligned run of at most 64 bits: access it bit by bit.
            if (!run.empty())
            {
                // The open run cannot close: emit its fields individually.
                unsigned at = runStart;
                for (const Field& pending : run)
                {
                    extract.Line(fmt::format("{} = static_cast<{}>(p4rt::ExtractBits(p, {}, {}));",
                                             pending.name, pending.storage, at, pending.width));
                    emit.Line(fmt::format("p4rt::InsertBits(p, {}, {}, {});", at, pending.width,
                                          pending.name));
                    at += pending.width;
                }
                run.clear();
                runBits = 0;
                needsClear = true;
            }
            if (width > 64)
            {
                extract.Line(fmt::format("{} = p4rt::WideBits<{}>::Extract(p, {});", name,
                                         width, offset));
                emit.Line(fmt::format("{}.Insert(p, {});", name, offset));
                needsClear = needsClear || offset % 8 != 0 || width % 8 != 0;
            }
            else
            {
                extract.Line(fmt::format("{} = static_cast<{}>(p4rt::ExtractBits(p, {}, {}));",
                                         name, storage, offset, width));
                emit.Line(fmt::format("p4rt::InsertBits(p, {}, {}, {});", offset, width, name));
                needsClear = true;
            }
            offset += width;
            continue;
        }
        run.push_back({name, storage, width});
        runBits += width;
        offset += width;
        if (offset % 8 == 0)
        {
            flushRun();
        }
    }
    out.Open(fmt::format("[[maybe_unused]] inline void ExtractHeader(const uint8_t* p, {}& h)",
                         type));
    out.Append(extract.Take());
    out.Close();
    out.Open(fmt::format("[[maybe_unused]] inline void EmitHeader(const {}& h, uint8_t* p)",
                         type));
    if (needsClear)
    {
        // Bit-level stores keep the bits around them, which must be defined.
        out.Line(fmt::format("std::memset(p, 0, {});", offset / 8));
    }
    out.Append(emit.Take());
    out.Close();
    out.Line("");
}

void
Generator::EmitState(CodeWriter& out)
{
    out.Open("struct State");
    out.Line("p4rt::PacketStateHeader base;");
    out.Line(StructName(*m_hdrType) + " hdr;");
    out.Line(StructName(*m_metaType) + " meta;");
    out.Line(StructName(*m_smType) + " sm;");
    for (const auto& [variable, member] : m_blockVariables)
    {
        out.Line(ValueType(variable->type.get(), variable->location) + " " + member + ";");
    }
    out.Close(";");
    out.Line("");
    out.Line("static_assert(std::is_trivially_copyable_v<State>);");
    out.Line("");
}

} // namespace incsim::p4::backend
