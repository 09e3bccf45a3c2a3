// Types: C++ types of P4 types, header sizes, the structs, header codecs and the per-packet State.

#include "p4/compiler/backend-generator.h"
#include "p4/runtime/bits.h"

namespace incsim::p4::backend
{

bool
Generator::IsBool(const Type* type)
{
    type = Representation(type);
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
    type = Representation(type);
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
    if (const auto* varbit = type->As<VarbitType>())
    {
        return fmt::format("p4rt::Varbit<{}>", varbit->width);
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

void
Generator::CollectLeaves(const StructLikeDecl& decl, const std::string& prefix,
                         std::vector<HeaderLeaf>& leaves)
{
    for (const auto& field : decl.fields)
    {
        const Type* type = Canon(field->type.get());
        const std::string path = prefix + field->name + "_";
        if (const auto* inner = StructOf(type);
            inner && inner->Is<StructDecl>() && !inner->As<StructDecl>()->isUnion)
        {
            CollectLeaves(*inner, path + ".", leaves);
            continue;
        }
        if (const auto* varbit = type ? type->As<VarbitType>() : nullptr)
        {
            leaves.push_back({path, field.get(), varbit->width, true});
            continue;
        }
        const unsigned width = Width(type);
        if (width == 0)
        {
            Unsupported(field->location,
                        "header field '" + field->name + "' of type " + ToString(*field->type),
                        "header fields must be bit<N>, int<N>, bool, serializable enums, "
                        "varbit or structs of them");
        }
        leaves.push_back({path, field.get(), width, false});
    }
}

std::vector<Generator::HeaderLeaf>
Generator::HeaderLeaves(const StructLikeDecl& header)
{
    std::vector<HeaderLeaf> leaves;
    CollectLeaves(header, "", leaves);
    return leaves;
}

std::optional<Generator::HeaderLeaf>
Generator::VarbitLeaf(const StructLikeDecl& header)
{
    for (const HeaderLeaf& leaf : HeaderLeaves(header))
    {
        if (leaf.isVarbit)
        {
            return leaf;
        }
    }
    return std::nullopt;
}

unsigned
Generator::HeaderBits(const StructLikeDecl& header)
{
    unsigned bits = 0;
    for (const HeaderLeaf& leaf : HeaderLeaves(header))
    {
        bits += leaf.isVarbit ? 0 : leaf.width;
    }
    return bits;
}

unsigned
Generator::HeaderBytes(const StructLikeDecl& header)
{
    const unsigned bits = HeaderBits(header);
    const auto varbit = VarbitLeaf(header);
    const unsigned varbitBits = varbit ? varbit->width : 0;
    if (bits % 8 != 0)
    {
        Fail(header.location, fmt::format("header '{}' is {} bits long{}; a header must be a "
                                           "whole number of bytes",
                                           header.name, bits,
                                           varbitBits > 0 ? " besides its varbit" : ""));
    }
    return bits / 8 + varbitBits / 8;
}

std::optional<unsigned>
Generator::SizeInBits(const Type* type, bool largest)
{
    type = Canon(type);
    if (const auto* varbit = type ? type->As<VarbitType>() : nullptr)
    {
        return largest ? varbit->width : 0;
    }
    if (const auto* stack = type ? type->As<StackType>() : nullptr)
    {
        const auto element = SizeInBits(stack->element.get(), largest);
        return element ? std::optional<unsigned>(*element * stack->count) : std::nullopt;
    }
    const auto* decl = StructOf(type);
    if (!decl)
    {
        const unsigned width = Width(type);
        return width > 0 ? std::optional<unsigned>(width) : std::nullopt;
    }
    const bool isUnion = decl->Is<StructDecl>() && decl->As<StructDecl>()->isUnion;
    std::optional<unsigned> total;
    for (const auto& field : decl->fields)
    {
        const auto bits = SizeInBits(field->type.get(), largest);
        if (!bits)
        {
            return std::nullopt;
        }
        total = !total ? *bits
                : isUnion ? (largest ? std::max(*total, *bits) : std::min(*total, *bits))
                          : *total + *bits;
    }
    return total.value_or(0);
}

std::string
Generator::HeaderSizeOf(const StructLikeDecl& header, const std::string& object)
{
    const auto varbit = VarbitLeaf(header);
    if (!varbit)
    {
        return std::to_string(HeaderBytes(header));
    }
    return fmt::format("({} + {}.{}.bits / 8)", HeaderBits(header) / 8, object, varbit->path);
}

void
Generator::EmitTypes(CodeWriter& out)
{
    for (const auto& decl : m_ir->ast->declarations)
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
    const unsigned fixedBytes = HeaderBits(header) / 8;
    HeaderBytes(header);
    CodeWriter extract;
    CodeWriter emit;
    struct Field
    {
        std::string name;
        std::string storage;
        unsigned width;
    };
    // Offsets are from `base`: the header's start, or after a varbit the end of the varbit
    // (`q`, known only at run time).
    std::string base = "p";
    std::optional<std::string> varbitPath;
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
            extract.Line(fmt::format("{} = static_cast<{}>(p4rt::LoadBigEndian({} + {}, {}));",
                                     run[0].name, run[0].storage, base, runStart / 8,
                                     runBits / 8));
            emit.Line(fmt::format("p4rt::StoreBigEndian({} + {}, {}, {});", base, runStart / 8,
                                  run[0].name, runBits / 8));
        }
        else
        {
            extract.Line(fmt::format("const uint64_t run{} = p4rt::LoadBigEndian({} + {}, {});",
                                     runStart / 8, base, runStart / 8, runBits / 8));
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
            emit.Line(fmt::format("p4rt::StoreBigEndian({} + {}, {}, {});", base, runStart / 8,
                                  packed, runBits / 8));
        }
        run.clear();
        runBits = 0;
    };
    unsigned offset = 0;
    for (const HeaderLeaf& leaf : HeaderLeaves(header))
    {
        const unsigned width = leaf.width;
        const std::string name = "h." + leaf.path;
        if (leaf.isVarbit)
        {
            if (offset % 8 != 0)
            {
                Unsupported(leaf.field->location,
                            "varbit field '" + leaf.field->name + "' that does not start on a "
                            "byte boundary");
                return;
            }
            flushRun();
            extract.Line(fmt::format("{}.Load({} + {}, varbitBits);", name, base, offset / 8));
            extract.Line(fmt::format("[[maybe_unused]] const uint8_t* q = {} + {} + varbitBits / 8;", base,
                                     offset / 8));
            emit.Line(fmt::format("[[maybe_unused]] uint8_t* q = {0} + {1} + {2}.Store({0} + {1});", base,
                                  offset / 8, name));
            base = "q";
            varbitPath = leaf.path;
            offset = 0;
            continue;
        }
        const std::string storage = StorageType(leaf.field->type.get(), leaf.field->location);
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
                    extract.Line(fmt::format("{} = static_cast<{}>(p4rt::ExtractBits({}, {}, {}));",
                                             pending.name, pending.storage, base, at,
                                             pending.width));
                    emit.Line(fmt::format("p4rt::InsertBits({}, {}, {}, {});", base, at,
                                          pending.width, pending.name));
                    at += pending.width;
                }
                run.clear();
                runBits = 0;
                needsClear = true;
            }
            if (width > 64)
            {
                extract.Line(fmt::format("{} = p4rt::WideBits<{}>::Extract({}, {});", name,
                                         width, base, offset));
                emit.Line(fmt::format("{}.Insert({}, {});", name, base, offset));
                needsClear = needsClear || offset % 8 != 0 || width % 8 != 0;
            }
            else
            {
                extract.Line(fmt::format("{} = static_cast<{}>(p4rt::ExtractBits({}, {}, {}));",
                                         name, storage, base, offset, width));
                emit.Line(fmt::format("p4rt::InsertBits({}, {}, {}, {});", base, offset, width,
                                      name));
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
    out.Open(fmt::format("[[maybe_unused]] inline void ExtractHeader(const uint8_t* p, {}& h{})",
                         type, varbitPath ? ", uint32_t varbitBits" : ""));
    out.Append(extract.Take());
    out.Close();
    out.Open(fmt::format("[[maybe_unused]] inline void EmitHeader(const {}& h, uint8_t* p)",
                         type));
    if (needsClear)
    {
        // Bit-level stores keep the bits around them, which must be defined.
        out.Line(varbitPath
                     ? fmt::format("std::memset(p, 0, {} + h.{}.bits / 8);", fixedBytes,
                                   *varbitPath)
                     : fmt::format("std::memset(p, 0, {});", offset / 8));
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
