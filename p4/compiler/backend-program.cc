// The program class: members, constructor, entry points, the standard metadata crossing the target
// boundary, file framing.

#include "p4/compiler/backend-generator.h"

namespace incsim::p4::backend
{

void
Generator::EmitProgramClass(CodeWriter& out)
{
    out.Open("class GeneratedV1Program final : public p4rt::V1Program");
    out.Line("public:");
    EmitConstructor(out);
    out.Line("const p4rt::ProgramInfo& Info() const override { return kProgramInfo; }");
    out.Line("size_t StateSize() const override { return (sizeof(State) + 7) / 8 * 8; }");
    EmitEntryPoints(out);
    EmitMetadataFields(out);
    EmitReset(out);
    out.Line("");
    out.Line("private:");
    EmitMembers(out);
    EmitParser(out);
    for (const ActionInfo& action : m_actions)
    {
        EmitAction(action, out);
    }
    for (const TableInfo& table : m_tables)
    {
        EmitTableApply(table, out);
    }
    for (const ControlDecl* control : m_controls)
    {
        EmitControl(*control, out);
    }
    EmitDeparser(out);
    out.Close(";");
    out.Line("");
}

void
Generator::EmitMembers(CodeWriter& out)
{
    for (const TableInfo& table : m_tables)
    {
        out.Line("std::unique_ptr<p4rt::Table> " + table.member + ";");
    }
    for (const InstanceDecl* instance : m_externOrder)
    {
        const ExternInfo& info = m_externs.at(instance);
        if (info.kind == ExternRuntime::Register)
        {
            out.Line(fmt::format("{} {}{{\"{}\", {}{}}};",
                                 info.width > 64
                                     ? fmt::format("p4rt::WideRegisterArray<{}>", info.width)
                                     : std::string("p4rt::RegisterArray"),
                                 info.member, info.controlPlaneName, info.size,
                                 info.width > 64 ? "" : fmt::format(", {}", info.width)));
        }
        else
        {
            out.Line(fmt::format("p4rt::CounterArray {}{{\"{}\", {}, p4rt::CounterType::{}}};",
                                 info.member, info.controlPlaneName, info.size,
                                 info.counterType));
        }
    }
    out.Line("");
}

void
Generator::EmitConstructor(CodeWriter& out)
{
    out.Open("GeneratedV1Program()");
    for (const TableInfo& table : m_tables)
    {
        EmitTableSchema(table, out);
    }
    for (const InstanceDecl* instance : m_externOrder)
    {
        const ExternInfo& info = m_externs.at(instance);
        out.Line(fmt::format("m_control.{}({});",
                             info.kind == ExternRuntime::Register ? "RegisterRegister"
                                                               : "RegisterCounter",
                             info.member));
    }
    out.Close();
    out.Line("");
}

void
Generator::EmitEntryPoints(CodeWriter& out)
{
    out.Line("");
    out.Open("void Parse(const uint8_t* data, uint32_t length, void* state, "
             "const p4rt::V1Metadata& md) override");
    out.Line("State& s = *static_cast<State*>(state);");
    out.Line("std::memset(static_cast<void*>(&s), 0, sizeof(State));");
    LoadMetadata(out, true);
    out.Line(fmt::format("Parser_{}(s, data, length);", m_parser->name));
    out.Close();
    out.Line("");
    out.Open("void CopyFieldList(const void* from, void* to, uint8_t index) const override");
    out.Line("const State& f = *static_cast<const State*>(from);");
    out.Line("State& t = *static_cast<State*>(to);");
    std::map<uint64_t, std::vector<std::string>> lists;
    CollectFieldLists(*m_metaType, "meta", lists);
    out.Open("switch (index)");
    for (const auto& [index, fields] : lists)
    {
        out.Line(fmt::format("case {}:", index));
        for (const auto& field : fields)
        {
            out.Line(fmt::format("    t.{0} = f.{0};", field));
        }
        out.Line("    break;");
    }
    out.Line("default:");
    out.Line("    (void)f; (void)t;");
    out.Line("    break;");
    out.Close();
    out.Close();
    out.Line("");
    out.Open("void Ingress(void* state, p4rt::V1Metadata& md) override");
    out.Line("State& s = *static_cast<State*>(state);");
    out.Line("s.base.exited = false;");
    out.Line(fmt::format("Control_{}(s, md);", m_verify->name));
    out.Line("s.base.exited = false;");
    out.Line(fmt::format("Control_{}(s, md);", m_ingress->name));
    StoreMetadata(out, true);
    out.Close();
    out.Line("");
    out.Open("void Egress(void* state, p4rt::V1Metadata& md) override");
    out.Line("State& s = *static_cast<State*>(state);");
    LoadMetadata(out, false);
    out.Line(fmt::format("s.sm.{}_ = 0;", Arch().egressSpecField));
    out.Line("s.base.exited = false;");
    out.Line(fmt::format("Control_{}(s, md);", m_egress->name));
    out.Line("s.base.exited = false;");
    out.Line(fmt::format("Control_{}(s, md);", m_compute->name));
    StoreMetadata(out, false);
    out.Close();
    out.Line("");
}

void
Generator::CollectFieldLists(const StructLikeDecl& decl, const std::string& prefix,
                             std::map<uint64_t, std::vector<std::string>>& lists)
{
    for (const auto& field : decl.fields)
    {
        const std::string path = prefix + "." + field->name + "_";
        for (const auto& annotation : field->annotations)
        {
            if (annotation->name != "field_list")
            {
                continue;
            }
            for (const auto& arg : annotation->args)
            {
                if (const auto index = EvalConst(*arg))
                {
                    lists[*index].push_back(path);
                }
                else
                {
                    Fail(arg->location, "a @field_list index must be a constant");
                }
            }
        }
    }
}

void
Generator::LoadMetadata(CodeWriter& out, bool ingress)
{
    for (const IntrinsicField& role : Arch().intrinsicFields)
    {
        if ((ingress ? role.loadIngress : role.loadEgress) && SmField(role.field))
        {
            const Type* type = SmField(role.field)->type.get();
            out.Line(fmt::format("s.sm.{}_ = static_cast<{}>({});", role.field,
                                 StorageType(type, {}),
                                 Masked("uint64_t{md." + std::string(role.member) + "}",
                                        Width(type))));
        }
    }
}

void
Generator::StoreMetadata(CodeWriter& out, bool ingress)
{
    for (const IntrinsicField& role : Arch().intrinsicFields)
    {
        if ((ingress ? role.storeIngress : role.storeEgress) && SmField(role.field))
        {
            out.Line(fmt::format("md.{} = static_cast<uint32_t>(s.sm.{}_);", role.member,
                                 role.field));
        }
    }
}

void
Generator::EmitMetadataFields(CodeWriter& out)
{
    out.Open("const MetadataField* FindMetadataField(const std::string& name) const override");
    out.Line("static const std::pair<const char*, MetadataField> kFields[] = {");
    for (const auto& field : m_metaType->fields)
    {
        if (!IsNarrow(field->type.get()) && !IsBool(field->type.get()))
        {
            continue;
        }
        out.Line(fmt::format("    {{\"{}\", {{offsetof(State, meta) + offsetof({}, {}_), "
                             "sizeof({}::{}_)}}}},",
                             field->name, StructName(*m_metaType), field->name,
                             StructName(*m_metaType), field->name));
    }
    out.Line("    {nullptr, {}},");
    out.Line("};");
    out.Open("for (const auto& [fieldName, field] : kFields)");
    out.Line("if (fieldName && name == fieldName) return &field;");
    out.Close();
    out.Line("return nullptr;");
    out.Close();
    out.Line("");
}

void
Generator::EmitReset(CodeWriter& out)
{
    out.Open("void Reset() override");
    for (const InstanceDecl* instance : m_externOrder)
    {
        out.Line(m_externs.at(instance).member + ".Reset();");
    }
    out.Close();
}

std::string
Generator::HeaderText() const
{
    const std::string guard = "INCSIM_P4GEN_" + m_options.name + "_H";
    return fmt::format("// Generated by incsim-p4c from {}. Do not edit.\n"
                       "#ifndef {}\n#define {}\n\n"
                       "#include \"p4/runtime/v1model.h\"\n\n"
                       "namespace incsim::p4gen::{}\n{{\n\n"
                       "/// The program's info and factory.\n"
                       "const p4rt::GeneratedProgram& Program();\n\n"
                       "}} // namespace incsim::p4gen::{}\n\n#endif\n",
                       m_options.sourcePath, guard, guard, m_options.name, m_options.name);
}

std::string
Generator::SourcePrologue() const
{
    return fmt::format("// Generated by incsim-p4c from {}. Do not edit.\n"
                       "#include \"{}.h\"\n\n"
                       "#include \"p4/runtime/externs.h\"\n"
                       "#include \"p4/runtime/table.h\"\n\n"
                       "#include <cstddef>\n#include <cstring>\n#include <memory>\n"
                       "#include <type_traits>\n\n"
                       "#pragma GCC diagnostic ignored \"-Wunused-label\"\n"
                       "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
                       "#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n"
                       "#pragma GCC diagnostic ignored \"-Winvalid-offsetof\"\n\n"
                       "namespace incsim::p4gen::{}\n{{\nnamespace\n{{\n\n"
                       "extern const p4rt::ProgramInfo kProgramInfo;\n\n",
                       m_options.sourcePath, m_options.name, m_options.name);
}

std::string
Generator::SourceEpilogue(uint64_t hash) const
{
    std::string sources;
    for (const auto& [path, sourceHash] : m_options.sources)
    {
        sources += fmt::format("{{{}, UINT64_C(0x{:x})}}, ", CppStringLiteral(path), sourceHash);
    }
    return fmt::format(
        "const p4rt::ProgramInfo kProgramInfo{{{}, {}, UINT64_C(0x{:x}), {{{}}}}};\n\n"
        "}} // namespace\n\n"
        "const p4rt::GeneratedProgram&\nProgram()\n{{\n"
        "    static const p4rt::GeneratedProgram program{{\n"
        "        kProgramInfo,\n"
        "        []() -> std::unique_ptr<p4rt::V1Program> {{ return "
        "std::make_unique<GeneratedV1Program>(); }}}};\n"
        "    return program;\n}}\n\n"
        "}} // namespace incsim::p4gen::{}\n",
        CppStringLiteral(m_options.name), CppStringLiteral(m_options.sourcePath), hash,
        sources, m_options.name);
}

} // namespace incsim::p4::backend
