#include "p4/compiler/cpp-backend.h"

#include "p4/compiler/code-writer.h"
#include "p4/compiler/contract.h"
#include "p4/compiler/diagnostics.h"
#include "p4/runtime/bits.h"
#include "p4/runtime/source-hash.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <vector>

namespace incsim::p4
{

std::string
ProgramNameForPath(const std::string& path)
{
    // As CMake's NAME_WLE then MAKE_C_IDENTIFIER (cmake/P4Programs.cmake).
    std::string base = path.substr(path.find_last_of('/') + 1);
    if (const size_t dot = base.find_last_of('.'); dot != std::string::npos && dot > 0)
    {
        base.resize(dot);
    }
    for (char& c : base)
    {
        if (!std::isalnum(static_cast<unsigned char>(c)))
        {
            c = '_';
        }
    }
    if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0])))
    {
        base.insert(0, "_");
    }
    return base;
}

namespace
{

using namespace ast;

/// How a standard_metadata field crosses the target boundary (see p4rt::V1Metadata).
struct MetadataRole
{
    const char* field;  // in v1model.p4's standard_metadata_t
    const char* member;  // in p4rt::V1Metadata
    bool loadIngress;
    bool loadEgress;
    bool storeIngress;
    bool storeEgress;
};

constexpr MetadataRole kMetadataRoles[] = {
    {"ingress_port", "ingressPort", true, false, false, false},
    {"egress_spec", "egressSpec", false, false, true, true},
    {"egress_port", "egressPort", false, true, false, false},
    {"instance_type", "instanceType", true, true, false, false},
    {"packet_length", "packetLength", true, true, false, false},
    {"egress_rid", "egressRid", false, true, false, false},
    {"mcast_grp", "mcastGrp", false, false, true, false},
    {"priority", "priority", false, false, true, false},
    {"ingress_global_timestamp", "ingressGlobalTimestamp", true, true, false, false},
    {"egress_global_timestamp", "egressGlobalTimestamp", false, true, false, false},
    {"enq_timestamp", "enqTimestamp", false, true, false, false},
    {"enq_qdepth", "enqQdepth", false, true, false, false},
    {"deq_timedelta", "deqTimedelta", false, true, false, false},
    {"deq_qdepth", "deqQdepth", false, true, false, false},
};

/// The most operations a constant that does not fold may expand to where it is used.
constexpr size_t kMaxInlinedConstant = 4096;

/// v1model's HashAlgorithm members that incsim implements, as p4rt::HashAlgorithm names.
const std::map<std::string, std::string> kHashAlgorithms = {
    {"crc16", "Crc16"},         {"crc32", "Crc32"},   {"crc16_custom", "Crc16Custom"},
    {"crc32_custom", "Crc32Custom"}, {"identity", "Identity"}, {"csum16", "Csum16"},
    {"xor16", "Xor16"},
};

/// Extern functions and objects that are outside the subset, with the reason.
const std::map<std::string, std::string> kUnsupportedExterns = {
    {"random", "it would make runs non-deterministic"},
    {"digest", "incsim has no digest receiver"},
    {"assert", "BMv2 aborts the switch on failure"},
    {"assume", "BMv2 aborts the switch on failure"},
    {"resubmit", "use resubmit_preserving_field_list"},
    {"recirculate", "use recirculate_preserving_field_list"},
    {"clone3", "use clone_preserving_field_list"},
    {"verify_checksum_with_payload", "the payload is not materialised"},
    {"update_checksum_with_payload", "the payload is not materialised"},
    {"meter", ""},
    {"direct_meter", ""},
    {"direct_counter", ""},
    {"action_profile", ""},
    {"action_selector", ""},
    {"Checksum16", "use update_checksum"},
    {"static_assert", ""},
};

std::string
Hex(uint64_t value)
{
    return fmt::format("UINT64_C(0x{:x})", value);
}

/// Where generated statements run: which locals exist and what `exit` and parser errors do.
enum class Context
{
    Parser,
    Control,
    Action,
    Deparser,
};

class Generator
{
  public:
    Generator(const Program& program, const CppBackendOptions& options, Diagnostics& diags)
        : m_program(program),
          m_options(options),
          m_diags(diags)
    {
    }

    std::optional<CppCode> Run()
    {
        Collect();
        if (m_failed)
        {
            return std::nullopt;
        }
        CodeWriter body;
        EmitTypes(body);
        EmitState(body);
        EmitProgramClass(body);
        if (m_failed)
        {
            return std::nullopt;
        }
        const std::string text = m_constants.Take() + body.Take();
        CppCode code;
        code.codeHash = p4rt::SourceHash(text);
        code.header = HeaderText();
        code.source = SourcePrologue() + text + SourceEpilogue(code.codeHash);
        code.contract = GenerateContract(m_program, MakeContractInput(true));
        return code;
    }

    std::optional<std::string> RunLibrary()
    {
        CollectConstants();
        if (m_failed)
        {
            return std::nullopt;
        }
        return GenerateContract(m_program, MakeContractInput(false));
    }

  private:
    ContractInput MakeContractInput(bool isProgram) const
    {
        ContractInput input;
        input.name = m_options.name;
        input.sourcePath = m_options.sourcePath;
        input.isProgram = isProgram;
        input.evaluate = [this](const Expression& expression) { return EvalConst(expression); };
        std::vector<std::pair<std::string, uint32_t>> errors(m_errorCodes.begin(),
                                                             m_errorCodes.end());
        std::sort(errors.begin(), errors.end(),
                  [](const auto& a, const auto& b) { return a.second < b.second; });
        input.errors = std::move(errors);
        for (const TableInfo& table : m_tables)
        {
            ContractInput::Table entry;
            entry.name = table.controlPlaneName;
            entry.keys = KeyNames(*table.decl);
            for (const ActionDecl* action : table.actions)
            {
                entry.actions.push_back(m_actions[m_actionIndex.at(action)].controlPlaneName);
            }
            if (const auto* size = table.decl->Size(); size && size->value)
            {
                entry.size = EvalConst(*size->value);
            }
            input.tables.push_back(std::move(entry));
        }
        for (const ActionInfo& action : m_actions)
        {
            input.actions.push_back({action.controlPlaneName, ControlPlaneParams(*action.decl)});
        }
        for (const InstanceDecl* instance : m_externOrder)
        {
            const ExternInfo& info = m_externs.at(instance);
            input.externs.push_back({info.controlPlaneName, info.kind == ExternKind::Register,
                                     info.width, info.size});
        }
        return input;
    }

    enum class ExternKind
    {
        Register,
        Counter,
    };

    struct ExternInfo
    {
        ExternKind kind = ExternKind::Register;
        std::string controlPlaneName;
        std::string member;
        unsigned width = 0;
        uint64_t size = 0;
        std::string counterType;
    };

    struct ActionInfo
    {
        const ActionDecl* decl = nullptr;
        std::string controlPlaneName;
        std::string function;
        bool mayExit = false;
    };

    struct TableInfo
    {
        const TableDecl* decl = nullptr;
        std::string controlPlaneName;
        std::string member;
        std::string function;
        std::vector<const ActionDecl*> actions;
        /// Where the table lists each action (its bound arguments); nullptr for the implicit
        /// NoAction.
        std::vector<const ActionRef*> refs;
        std::vector<std::string> scopes;
        bool mayExit = false;
    };

    // -----------------------------------------------------------------------------------
    // Errors
    // -----------------------------------------------------------------------------------

    void Fail(const SourceLocation& location, const std::string& message)
    {
        m_failed = true;
        m_diags.Error(location, message);
    }

    void Unsupported(const SourceLocation& location, const std::string& what,
                     const std::string& why = "")
    {
        Fail(location, what + " is outside incsim's P4 subset" + (why.empty() ? "" : ": " + why));
    }

    // -----------------------------------------------------------------------------------
    // Types
    // -----------------------------------------------------------------------------------

    static unsigned Width(const Type* type) { return ScalarWidth(type); }

    static bool IsSigned(const Type* type) { return IsSignedScalar(type); }

    static bool IsBool(const Type* type)
    {
        type = Canon(type);
        return type && type->Is<BoolType>();
    }

    static bool IsInfInt(const Type* type)
    {
        type = Canon(type);
        return !type || type->Is<InfIntType>();
    }

    /// A scalar held in a uint64_t (everything up to 64 bits but bool).
    static bool IsNarrow(const Type* type)
    {
        const unsigned width = Width(type);
        return width > 0 && width <= 64 && !IsBool(type);
    }

    static bool IsWide(const Type* type) { return Width(type) > 64; }

    static const StructLikeDecl* StructOf(const Type* type)
    {
        const Declaration* decl = NamedDecl(type);
        return decl ? decl->As<StructLikeDecl>() : nullptr;
    }

    std::string StructName(const StructLikeDecl& decl) const { return decl.name + "_"; }

    /// The C++ type of a struct or header field, or of a state member.
    std::string StorageType(const Type* type, const SourceLocation& where)
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

    /// The C++ type of a local variable or a parameter.
    std::string ValueType(const Type* type, const SourceLocation& where)
    {
        return IsNarrow(type) ? "uint64_t" : StorageType(type, where);
    }

    /// Bits of a header (its fields must be fixed-width scalars and add up to whole bytes).
    unsigned HeaderBits(const StructLikeDecl& header)
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

    unsigned HeaderBytes(const StructLikeDecl& header)
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

    // -----------------------------------------------------------------------------------
    // Collection: the architecture binding, objects, names
    // -----------------------------------------------------------------------------------

    /// Folds every constant once, in declaration order (a use always comes after it), so that
    /// EvalConst looks a constant up instead of walking its chain of definitions again. A
    /// constant that does not fold is inlined at each use; its inlined size is bounded, since a
    /// chain of constants that each use the one before twice doubles at every step.
    void FoldConstants(const Node& node)
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

    /// Operations in `expression` with every constant it uses inlined (saturating just past
    /// kMaxInlinedConstant).
    size_t InlinedSize(const Node& expression) const
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

    /// Constants, enums and error codes: what a library without `main` has too.
    void CollectConstants()
    {
        for (const auto& decl : m_program.declarations)
        {
            FoldConstants(*decl);
        }
        for (const auto& decl : m_program.declarations)
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
    }

    void Collect()
    {
        CollectConstants();
        for (const char* name : {"NoError", "PacketTooShort", "NoMatch", "StackOutOfBounds"})
        {
            if (!m_errorCodes.count(name))
            {
                Fail(WholeProgram(), std::string("core.p4 does not declare error.") + name);
            }
        }
        BindArchitecture();
        if (m_failed)
        {
            return;
        }
        for (const auto& decl : m_program.declarations)
        {
            if (decl->IsSystem())
            {
                continue;
            }
            if (const auto* instance = decl->As<InstanceDecl>())
            {
                if (instance->name != "main")
                {
                    CollectInstance(*instance, "");
                }
            }
            else if (const auto* action = decl->As<ActionDecl>())
            {
                CollectAction(*action, "");
            }
            else if (const auto* function = decl->As<FunctionDecl>())
            {
                Unsupported(function->location, "function '" + function->name + "'");
            }
        }
        // NoAction, from core.p4, is every table's implicit default.
        for (const auto& decl : m_program.declarations)
        {
            if (decl->IsSystem() && decl->Is<ActionDecl>() && decl->name == "NoAction")
            {
                m_noAction = decl->As<ActionDecl>();
                CollectAction(*m_noAction, "");
            }
        }
        CollectParser(*m_parser);
        for (const ControlDecl* control : m_controls)
        {
            CollectControl(*control);
        }
    }

    /// A location naming the program's file, for errors about the program as a whole.
    SourceLocation WholeProgram() const
    {
        return {m_diags.Sources().Get(m_options.sourcePath)};
    }

    void BindArchitecture()
    {
        const InstanceDecl* main = nullptr;
        for (const auto& decl : m_program.declarations)
        {
            if (decl->Is<InstanceDecl>() && decl->name == "main")
            {
                main = decl->As<InstanceDecl>();
            }
        }
        if (!main)
        {
            Fail(WholeProgram(), "the program has no 'main' (V1Switch(...) main;)");
            return;
        }
        const Declaration* package = NamedDecl(main->type.get());
        if (!package || package->name != "V1Switch" || !package->Is<PackageTypeDecl>())
        {
            Unsupported(main->location, "package '" + ToString(*main->type) + "'",
                        "incsim targets v1model's V1Switch");
            return;
        }
        const auto& params = package->As<PackageTypeDecl>()->params;
        if (main->args.size() != params.size() || params.size() != 6)
        {
            Fail(main->location, "V1Switch takes six blocks");
            return;
        }
        std::vector<const Declaration*> blocks;
        for (size_t i = 0; i < params.size(); ++i)
        {
            // By name (V1Switch(p = MyParser(), ...)) or by position.
            const Expression* value = Argument(main->args, params, i);
            const auto* call = value ? value->As<CallExpr>() : nullptr;
            const auto* name = call ? call->callee->As<NameExpr>() : nullptr;
            if (!name || !name->resolved || !call->args.empty())
            {
                Unsupported(value ? value->location : main->location,
                            "this V1Switch argument",
                            "pass a parser or control instantiated without arguments");
                return;
            }
            blocks.push_back(name->resolved);
            // The architecture's parameter list for this block: its slots by type.
            const Declaration* archType = NamedDecl(params[i]->type.get());
            const PtrList<Parameter>* archParams = nullptr;
            if (const auto* parserType = archType ? archType->As<ParserTypeDecl>() : nullptr)
            {
                archParams = &parserType->params;
            }
            else if (const auto* controlType =
                         archType ? archType->As<ControlTypeDecl>() : nullptr)
            {
                archParams = &controlType->params;
            }
            const PtrList<Parameter>* userParams = nullptr;
            if (const auto* parser = name->resolved->As<ParserDecl>())
            {
                userParams = &parser->params;
            }
            else if (const auto* control = name->resolved->As<ControlDecl>())
            {
                userParams = &control->params;
            }
            if (!archParams || !userParams || archParams->size() != userParams->size())
            {
                Fail(value->location, "internal: V1Switch block does not match its type");
                return;
            }
            for (size_t p = 0; p < userParams->size(); ++p)
            {
                BindSlot(*(*userParams)[p], *(*archParams)[p]);
            }
        }
        m_parser = blocks[0]->As<ParserDecl>();
        m_verify = blocks[1]->As<ControlDecl>();
        m_ingress = blocks[2]->As<ControlDecl>();
        m_egress = blocks[3]->As<ControlDecl>();
        m_compute = blocks[4]->As<ControlDecl>();
        m_deparser = blocks[5]->As<ControlDecl>();
        if (!m_parser || !m_verify || !m_ingress || !m_egress || !m_compute || !m_deparser)
        {
            Fail(main->location, "internal: V1Switch blocks of the wrong kind");
            return;
        }
        for (const ControlDecl* control : {m_verify, m_ingress, m_egress, m_compute})
        {
            if (std::find(m_controls.begin(), m_controls.end(), control) == m_controls.end())
            {
                m_controls.push_back(control);
            }
        }
        if (!m_hdrType || !m_metaType || !m_smType)
        {
            Fail(main->location, "internal: could not bind the headers, metadata and "
                                 "standard metadata types");
        }
    }

    /// A block parameter takes the state slot of the architecture parameter in its place.
    void BindSlot(const Parameter& user, const Parameter& arch)
    {
        const Declaration* archDecl = NamedDecl(arch.type.get());
        const StructLikeDecl* userType = StructOf(user.type.get());
        if (archDecl && archDecl->Is<TypeParameter>())
        {
            if (archDecl->name == "H")
            {
                m_names[&user] = "s.hdr";
                m_hdrType = userType;
            }
            else if (archDecl->name == "M")
            {
                m_names[&user] = "s.meta";
                m_metaType = userType;
            }
        }
        else if (archDecl && archDecl->name == "standard_metadata_t")
        {
            m_names[&user] = "s.sm";
            m_smType = userType;
        }
        else if (archDecl && (archDecl->name == "packet_in" || archDecl->name == "packet_out"))
        {
            m_packetParams.insert(&user);
        }
    }

    std::string Qualified(const std::string& prefix, const std::string& name) const
    {
        return prefix.empty() ? name : prefix + "." + name;
    }

    void CollectInstance(const InstanceDecl& instance, const std::string& prefix)
    {
        const auto* typeName = Canon(instance.type.get())->As<NamedType>();
        const Declaration* decl = NamedDecl(instance.type.get());
        const std::string externName = decl ? decl->name : "";
        ExternInfo info;
        info.controlPlaneName = Qualified(prefix, instance.name);
        // V1MODEL_VERSION >= 20200408 adds the index type: register<T, I>, counter<I>.
        const size_t indexArg = externName == "register" ? 1 : 0;
        if (typeName && typeName->typeArgs.size() == indexArg + 1 &&
            (externName == "register" || externName == "counter"))
        {
            const Type& index = *typeName->typeArgs[indexArg];
            const uint32_t width = Width(&index);
            if (width == 0 || width > 64 || !Canon(&index)->Is<BitsType>())
            {
                Unsupported(instance.location, "an index of type " + ToString(index));
                return;
            }
        }
        if (externName == "register" && typeName &&
            (typeName->typeArgs.size() == 1 || typeName->typeArgs.size() == 2) &&
            instance.args.size() == 1)
        {
            info.kind = ExternKind::Register;
            info.width = Width(typeName->typeArgs[0].get());
            if (info.width == 0)
            {
                Unsupported(instance.location, "a register of " +
                                                   ToString(*typeName->typeArgs[0]));
            }
        }
        else if (externName == "counter" && instance.args.size() == 2)
        {
            info.kind = ExternKind::Counter;
            const auto* type = instance.args[1]->value->As<MemberExpr>();
            const std::string kind = type ? type->member : "";
            info.counterType = kind == "packets"  ? "Packets"
                               : kind == "bytes" ? "Bytes"
                                                 : "PacketsAndBytes";
        }
        else
        {
            const auto found = kUnsupportedExterns.find(externName);
            Unsupported(instance.location, "extern '" + externName + "'",
                        found != kUnsupportedExterns.end() ? found->second : "");
            return;
        }
        const auto size = EvalConst(*instance.args[0]->value);
        if (!size || *size == 0)
        {
            Fail(instance.args[0]->value->location,
                 "the size of '" + instance.name + "' must be a positive constant");
            return;
        }
        info.size = *size;
        info.member = fmt::format("{}{}_{}", info.kind == ExternKind::Register ? "register"
                                                                                : "counter",
                                  m_externs.size(), instance.name);
        m_externs.emplace(&instance, info);
        m_externOrder.push_back(&instance);
    }

    void CollectAction(const ActionDecl& action, const std::string& prefix)
    {
        if (m_actionIndex.count(&action))
        {
            return;
        }
        ActionInfo info;
        info.decl = &action;
        info.controlPlaneName = Qualified(prefix, action.name);
        info.function = fmt::format("Action{}_{}", m_actions.size(), action.name);
        info.mayExit = MayExit(*action.body);
        m_actionIndex[&action] = m_actions.size();
        m_actions.push_back(info);
    }

    /// Whether running `node` may execute `exit`: directly, or by calling an action that may
    /// (actions are declared before use, so those are collected already).
    bool MayExit(const Node& node) const
    {
        if (node.Is<ExitStmt>())
        {
            return true;
        }
        if (const auto* call = node.As<CallExpr>())
        {
            const auto* name = call->callee->As<NameExpr>();
            const auto found = name ? m_actionIndex.find(name->resolved) : m_actionIndex.end();
            if (found != m_actionIndex.end() && m_actions[found->second].mayExit)
            {
                return true;
            }
        }
        bool found = false;
        ForEachChild(node, [&](const Node& child) { found = found || MayExit(child); });
        return found;
    }

    void CollectParser(const ParserDecl& parser)
    {
        for (const auto& local : parser.locals)
        {
            CollectBlockLocal(*local, parser.name);
        }
        for (size_t i = 0; i < parser.states.size(); ++i)
        {
            m_stateLabels[parser.states[i].get()] =
                fmt::format("state{}_{}", i, parser.states[i]->name);
        }
    }

    void CollectControl(const ControlDecl& control)
    {
        for (const auto& local : control.locals)
        {
            if (const auto* action = local->As<ActionDecl>())
            {
                CollectAction(*action, control.name);
            }
        }
        for (const auto& local : control.locals)
        {
            if (local->Is<ActionDecl>())
            {
                continue;
            }
            if (const auto* table = local->As<TableDecl>())
            {
                CollectTable(*table, control);
            }
            else
            {
                CollectBlockLocal(*local, control.name);
            }
        }
    }

    /// Variables and constants declared at block level, and extern instances.
    void CollectBlockLocal(const Declaration& local, const std::string& block)
    {
        if (const auto* variable = local.As<VariableDecl>())
        {
            const std::string member = fmt::format("local{}_{}", m_blockVariables.size(),
                                                   variable->name);
            m_blockVariables.push_back({variable, member});
            m_names[variable] = "s." + member;
        }
        else if (const auto* instance = local.As<InstanceDecl>())
        {
            const Declaration* decl = NamedDecl(instance->type.get());
            if (decl && (decl->Is<ControlDecl>() || decl->Is<ParserDecl>()))
            {
                Unsupported(instance->location, "instantiating '" + decl->name +
                                                    "' inside another block");
                return;
            }
            CollectInstance(*instance, block);
        }
        else if (!local.Is<ConstDecl>())
        {
            Unsupported(local.location, "this declaration");
        }
    }

    void CollectTable(const TableDecl& table, const ControlDecl& control)
    {
        TableInfo info;
        info.decl = &table;
        info.controlPlaneName = Qualified(control.name, table.name);
        info.member = fmt::format("table{}_{}", m_tables.size(), table.name);
        info.function = fmt::format("Apply{}_{}", m_tables.size(), table.name);
        for (const auto& property : table.properties)
        {
            if (property->which == TablePropertyKind::Value && property->name != "size")
            {
                Unsupported(property->location, "table property '" + property->name + "'");
            }
        }
        if (const auto* actions = table.Actions())
        {
            for (const auto& ref : actions->actions)
            {
                const auto* action = ref->action->resolved
                                         ? ref->action->resolved->As<ActionDecl>()
                                         : nullptr;
                if (!action || !m_actionIndex.count(action))
                {
                    Fail(ref->location, "internal: table action is not an action");
                    continue;
                }
                info.actions.push_back(action);
                info.refs.push_back(ref.get());
                info.scopes.push_back(FindAnnotation(ref->annotations, "defaultonly")
                                          ? "DefaultOnly"
                                      : FindAnnotation(ref->annotations, "tableonly")
                                          ? "TableOnly"
                                          : "TableAndDefault");
                info.mayExit = info.mayExit || m_actions[m_actionIndex[action]].mayExit;
            }
        }
        if (!table.DefaultAction() && m_noAction &&
            std::find(info.actions.begin(), info.actions.end(), m_noAction) ==
                info.actions.end())
        {
            info.actions.push_back(m_noAction);
            info.refs.push_back(nullptr);
            info.scopes.push_back("DefaultOnly");
        }
        if (const auto* key = table.Key())
        {
            for (const auto& element : key->keys)
            {
                const std::string kind = element->matchKind;
                if (kind != "exact" && kind != "lpm" && kind != "ternary" && kind != "optional")
                {
                    Unsupported(element->matchKindLocation, "match kind '" + kind + "'",
                                "incsim tables match exact, lpm, ternary and optional");
                }
            }
        }
        m_tableIndex[&table] = m_tables.size();
        m_tables.push_back(info);
    }

    // -----------------------------------------------------------------------------------
    // Constants
    // -----------------------------------------------------------------------------------

    /// The value of a compile-time constant expression up to 64 bits, as the pattern of its
    /// type's width (InfInt: as int64 two's complement).
    std::optional<uint64_t> EvalConst(const Expression& expression, int depth = 0) const
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

    std::optional<uint64_t> EnumOrErrorValue(const MemberExpr& member, int depth) const
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

    /// A constant as a p4rt::BitString expression (for table schemas), wide literals too.
    std::string BitStringOf(const Expression& expression)
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

    static std::string BytesInitializer(const BigUint& value)
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

    /// A wide constant: hoisted to a namespace-scope object so it is built once.
    std::string WideConstant(const BigUint& value, unsigned width)
    {
        const std::string name = fmt::format("kWide{}", m_wideConstantCount++);
        m_constants.Line(fmt::format("const p4rt::WideBits<{}> {} = *p4rt::WideBits<{}>::FromHex(\"{}\");",
                                     width, name, width, value.ToString(16)));
        return name;
    }

    // -----------------------------------------------------------------------------------
    // Expressions
    // -----------------------------------------------------------------------------------

    std::string Temp(const char* stem) { return fmt::format("{}{}", stem, m_tempCount++); }

    /// `value` (a uint64_t pattern) reduced to `width` bits, unless it already is.
    static std::string Masked(const std::string& value, unsigned width)
    {
        if (width >= 64 || width == 0)
        {
            return value;
        }
        return fmt::format("({} & {})", value, Hex(p4rt::WidthMask(width)));
    }

    /// The value of `expression` as a `width`-bit operand: InfInt literals are reduced.
    std::string Operand(const Expression& expression, unsigned width)
    {
        const std::string value = Value(expression);
        return IsInfInt(expression.type) ? Masked(value, width) : value;
    }

    std::string Value(const Expression& expression)
    {
        const Type* type = Canon(expression.type);
        const unsigned width = Width(type);
        if (const auto constant = EvalConst(expression); constant && width <= 64 &&
                                                         !IsBool(type))
        {
            return Hex(*constant);
        }
        if (const auto* literal = expression.As<IntegerLiteral>())
        {
            if (width > 64)
            {
                return WideConstant(literal->value, width);
            }
            Unsupported(expression.location, "an integer literal wider than 64 bits here");
            return "0";
        }
        if (const auto* boolean = expression.As<BoolLiteral>())
        {
            return boolean->value ? "true" : "false";
        }
        if (const auto* name = expression.As<NameExpr>())
        {
            return NameValue(*name);
        }
        if (const auto* member = expression.As<MemberExpr>())
        {
            return MemberValue(*member);
        }
        if (const auto* index = expression.As<IndexExpr>())
        {
            return IndexValue(*index);
        }
        if (const auto* slice = expression.As<SliceExpr>())
        {
            return SliceValue(*slice);
        }
        if (const auto* unary = expression.As<UnaryExpr>())
        {
            return UnaryValue(*unary);
        }
        if (const auto* binary = expression.As<BinaryExpr>())
        {
            return BinaryValue(*binary);
        }
        if (const auto* ternary = expression.As<TernaryExpr>())
        {
            const std::string condition = Value(*ternary->condition);
            ++m_conditional;
            std::string a = Operand(*ternary->ifTrue, width);
            std::string b = Operand(*ternary->ifFalse, width);
            --m_conditional;
            return fmt::format("({} ? {} : {})", condition, a, b);
        }
        if (const auto* cast = expression.As<CastExpr>())
        {
            return CastValue(*cast);
        }
        if (const auto* call = expression.As<CallExpr>())
        {
            return CallValue(*call);
        }
        Unsupported(expression.location, "this expression (" + ToString(expression) + ")");
        return "0";
    }

    std::string NameValue(const NameExpr& name)
    {
        const Declaration* decl = name.resolved;
        if (const auto found = m_names.find(decl); found != m_names.end())
        {
            return found->second;
        }
        if (const auto* constant = decl ? decl->As<ConstDecl>() : nullptr)
        {
            if (const auto folded = m_constValues.find(constant);
                folded != m_constValues.end() && folded->second && IsBool(constant->type.get()))
            {
                return *folded->second ? "true" : "false";
            }
            if (constant->value)
            {
                if (IsWide(constant->type.get()))
                {
                    const Expression* value = constant->value.get();
                    if (const auto* literal = value->As<IntegerLiteral>())
                    {
                        return WideConstant(literal->value, Width(constant->type.get()));
                    }
                }
                return Value(*constant->value);
            }
        }
        Unsupported(name.location, "this use of '" + name.name + "'");
        return "0";
    }

    /// A header stack's element at a run-time position (next/last), as an lvalue.
    static std::string StackElement(const std::string& stack, const std::string& member)
    {
        if (member == "next")
        {
            return stack + ".element[" + stack + ".nextIndex]";
        }
        return fmt::format("{0}.element[{0}.nextIndex == 0 ? 0 : {0}.nextIndex - 1]", stack);
    }

    std::string MemberValue(const MemberExpr& member)
    {
        if (const auto value = EnumOrErrorValue(member, 0))
        {
            return Hex(*value);
        }
        const Type* objectType = Canon(member.object->type);
        if (objectType && objectType->Is<StackType>())
        {
            const std::string stack = LValue(*member.object);
            const auto* stackType = objectType->As<StackType>();
            if (member.member == "next" || member.member == "last")
            {
                if (member.member == "next")
                {
                    Unsupported(member.location, "reading a header stack's .next");
                }
                return StackElement(stack, member.member);
            }
            if (member.member == "size")
            {
                return Hex(stackType->count);
            }
            if (member.member == "nextIndex")
            {
                return "uint64_t{" + stack + ".nextIndex}";
            }
            if (member.member == "lastIndex")
            {
                return fmt::format("((uint64_t{{{}.nextIndex}} - 1) & 0xffffffff)", stack);
            }
        }
        if (const auto* call = member.object->As<CallExpr>())
        {
            if (IsTableApply(*call))
            {
                const std::string result = ApplyTable(*call);
                if (member.member == "hit")
                {
                    return result + ".hit";
                }
                if (member.member == "miss")
                {
                    return "!" + result + ".hit";
                }
                return result + ".actionRun";
            }
        }
        return Value(*member.object) + "." + member.member + "_";
    }

    std::string IndexValue(const IndexExpr& index)
    {
        const Type* objectType = Canon(index.object->type);
        const auto* stack = objectType ? objectType->As<StackType>() : nullptr;
        const auto position = EvalConst(*index.index);
        if (!stack)
        {
            Unsupported(index.location, "indexing a value that is not a header stack");
            return "0";
        }
        if (!position)
        {
            Unsupported(index.index->location, "a header stack index that is not a constant");
            return "0";
        }
        return fmt::format("{}.element[{}]", Value(*index.object), *position);
    }

    std::string SliceValue(const SliceExpr& slice)
    {
        const auto high = EvalConst(*slice.high);
        const auto low = EvalConst(*slice.low);
        if (!high || !low || *high < *low)
        {
            Fail(slice.location, "slice bounds must be constants with high >= low");
            return "0";
        }
        const unsigned width = static_cast<unsigned>(*high - *low + 1);
        const unsigned objectWidth = Width(slice.object->type);
        if (objectWidth > 64)
        {
            if (width > 64)
            {
                Unsupported(slice.location, "a slice wider than 64 bits");
            }
            return fmt::format("p4rt::ExtractBits({}.Bytes(), {}, {})", Value(*slice.object),
                               (objectWidth + 7) / 8 * 8 - 1 - *high, width);
        }
        return Masked(fmt::format("({} >> {})", Value(*slice.object), *low), width);
    }

    std::string UnaryValue(const UnaryExpr& unary)
    {
        const unsigned width = Width(unary.type);
        const std::string operand = Value(*unary.operand);
        switch (unary.op)
        {
        case UnaryOp::Not:
            return "!" + operand;
        case UnaryOp::Plus:
            return operand;
        case UnaryOp::Negate:
            if (width > 64)
            {
                Unsupported(unary.location, "arithmetic on values wider than 64 bits");
            }
            return Masked("(UINT64_C(0) - " + operand + ")", width);
        case UnaryOp::Complement:
            if (width > 64)
            {
                return "~" + operand;
            }
            return Masked("(~" + operand + ")", width);
        }
        return operand;
    }

    std::string BinaryValue(const BinaryExpr& binary)
    {
        const BinaryOp op = binary.op;
        if (op == BinaryOp::And || op == BinaryOp::Or)
        {
            const std::string left = Value(*binary.left);
            ++m_conditional;
            const std::string right = Value(*binary.right);
            --m_conditional;
            return fmt::format("({} {} {})", left, op == BinaryOp::And ? "&&" : "||", right);
        }
        if (op == BinaryOp::Mask || op == BinaryOp::Range)
        {
            Unsupported(binary.location,
                        std::string("'") + ToString(op) + "' outside a select or an entry");
            return "0";
        }
        const Type* leftType = IsInfInt(binary.left->type) ? binary.right->type : binary.left->type;
        const unsigned width = Width(leftType);
        const bool isSigned = IsSigned(leftType);
        const bool comparison = op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt ||
                                op == BinaryOp::Le || op == BinaryOp::Gt || op == BinaryOp::Ge;
        if (comparison && (StructOf(leftType) || Canon(leftType)->Is<StackType>()))
        {
            Unsupported(binary.location, "comparing headers or structs");
            return "false";
        }
        if (width > 64 || (op == BinaryOp::Concat && Width(binary.type) > 64))
        {
            if (op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::BitAnd ||
                op == BinaryOp::BitOr || op == BinaryOp::BitXor)
            {
                return fmt::format("({} {} {})", Value(*binary.left), ToString(op),
                                   Value(*binary.right));
            }
            Unsupported(binary.location, std::string("'") + ToString(op) +
                                             "' on values wider than 64 bits");
            return "0";
        }
        const bool isBool = IsBool(leftType);
        std::string a = isBool ? Value(*binary.left) : Operand(*binary.left, width);
        std::string b;
        if (op == BinaryOp::Shl || op == BinaryOp::Shr)
        {
            b = Value(*binary.right);
        }
        else
        {
            b = isBool ? Value(*binary.right) : Operand(*binary.right, width);
        }
        if (isSigned && (op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt ||
                         op == BinaryOp::Ge))
        {
            a = fmt::format("p4rt::SignExtend({}, {})", a, width);
            b = fmt::format("p4rt::SignExtend({}, {})", b, width);
        }
        switch (op)
        {
        case BinaryOp::Add:
        case BinaryOp::Sub:
        case BinaryOp::Mul:
            return Masked(fmt::format("({} {} {})", a, ToString(op), b), width);
        case BinaryOp::Div:
        case BinaryOp::Mod:
            if (isSigned)
            {
                Unsupported(binary.location, "division of signed values");
            }
            return fmt::format("p4rt::{}Unsigned({}, {})", op == BinaryOp::Div ? "Divide" : "Modulo",
                               a, b);
        case BinaryOp::AddSat:
        case BinaryOp::SubSat:
            return fmt::format("p4rt::{}Sat{}({}, {}, {})", op == BinaryOp::AddSat ? "Add" : "Sub",
                               isSigned ? "Signed" : "Unsigned", a, b, width);
        case BinaryOp::Shl:
            return fmt::format("p4rt::ShiftLeft({}, {}, {})", a, b, width);
        case BinaryOp::Shr:
            return isSigned ? fmt::format("p4rt::ShiftRightSigned({}, {}, {})", a, b, width)
                            : fmt::format("p4rt::ShiftRightUnsigned({}, {})", a, b);
        case BinaryOp::Concat:
            return fmt::format("(({} << {}) | {})", a, Width(binary.right->type), b);
        default:
            // The remaining operators are spelled alike in P4 and C++.
            return fmt::format("({} {} {})", a, ToString(op), b);
        }
    }

    std::string CastValue(const CastExpr& cast)
    {
        const Type* to = Canon(cast.target.get());
        const Type* from = Canon(cast.operand->type);
        const unsigned toWidth = Width(to);
        const unsigned fromWidth = Width(from);
        const std::string value = Value(*cast.operand);
        if (IsBool(to))
        {
            return IsBool(from) ? value : "(" + value + " != 0)";
        }
        if (IsBool(from))
        {
            return "uint64_t{" + value + " ? 1u : 0u}";
        }
        if (toWidth > 64 || fromWidth > 64)
        {
            if (toWidth > 64 && fromWidth > 64)
            {
                if (toWidth != fromWidth)
                {
                    Unsupported(cast.location, "a cast between different widths above 64 bits");
                }
                return value;
            }
            if (toWidth > 64)
            {
                return fmt::format("p4rt::WideBits<{}>::FromUint64({})", toWidth, value);
            }
            return Masked(value + ".Low64()", toWidth);
        }
        if (IsInfInt(from))
        {
            return Masked(value, toWidth);
        }
        if (IsSigned(from) && toWidth > fromWidth)
        {
            return fmt::format("p4rt::FromSigned(p4rt::SignExtend({}, {}), {})", value, fromWidth,
                               toWidth);
        }
        return toWidth < fromWidth ? Masked(value, toWidth) : value;
    }

    std::string CallValue(const CallExpr& call)
    {
        const auto* member = call.callee->As<MemberExpr>();
        if (member && member->member == "isValid")
        {
            return Value(*member->object) + ".valid";
        }
        if (member && member->member == "lookahead" && IsPacketParam(*member->object))
        {
            return Lookahead(call);
        }
        if (IsTableApply(call))
        {
            Unsupported(call.location, "using apply()'s result other than .hit, .miss or "
                                       ".action_run");
            return "0";
        }
        Unsupported(call.location, "a call used as a value (" + ToString(call) + ")");
        return "0";
    }

    bool IsPacketParam(const Expression& expression) const
    {
        const auto* name = expression.As<NameExpr>();
        return name && m_packetParams.count(name->resolved);
    }

    static bool IsTableApply(const CallExpr& call)
    {
        const auto* member = call.callee->As<MemberExpr>();
        const auto* object = member ? member->object->As<NameExpr>() : nullptr;
        return member && member->member == "apply" && object && object->resolved &&
               object->resolved->Is<TableDecl>();
    }

    /// The table a `t.apply()` call applies (IsTableApply(call) must hold).
    const TableInfo& TableOf(const CallExpr& call) const
    {
        const Declaration* table = call.callee->As<MemberExpr>()->object->As<NameExpr>()->resolved;
        return m_tables[m_tableIndex.at(table)];
    }

    /// Where `action` is in the table's action list (its ActionId), if it is there.
    static std::optional<size_t> ActionPosition(const TableInfo& table, const Declaration* action)
    {
        const auto position = std::find(table.actions.begin(), table.actions.end(), action);
        if (position == table.actions.end())
        {
            return std::nullopt;
        }
        return static_cast<size_t>(position - table.actions.begin());
    }

    /// Applies the table now (hoisted before the statement being generated); returns the
    /// name of the p4rt::ApplyResult.
    std::string ApplyTable(const CallExpr& call)
    {
        if (m_conditional > 0)
        {
            Unsupported(call.location, "a table apply() inside &&, || or ?:");
        }
        const TableInfo& info = TableOf(call);
        const std::string result = Temp("applied");
        m_pre.push_back(fmt::format("const p4rt::ApplyResult {} = {}(s, md);", result,
                                    info.function));
        if (info.mayExit)
        {
            m_pre.push_back("if (s.base.exited) return;");
        }
        return result;
    }

    std::string Lookahead(const CallExpr& call)
    {
        if (m_context != Context::Parser || call.typeArgs.size() != 1)
        {
            Unsupported(call.location, "lookahead outside a parser state");
            return "0";
        }
        const Type* type = Canon(call.typeArgs[0].get());
        const std::string result = Temp("lookahead");
        if (const auto* header = StructOf(type); header && header->Is<HeaderDecl>())
        {
            const unsigned bytes = HeaderBytes(*header);
            m_pre.push_back(NeedBytes(std::to_string(bytes)));
            m_pre.push_back(fmt::format("{} {}{{}};", StructName(*header), result));
            m_pre.push_back(fmt::format("ExtractHeader(pkt + off, {});", result));
            m_pre.push_back(result + ".valid = true;");
            return result;
        }
        const unsigned width = Width(type);
        if (width == 0 || width > 64 || IsBool(type))
        {
            Unsupported(call.location, "lookahead<" + ToString(*call.typeArgs[0]) + ">");
            return "0";
        }
        m_pre.push_back(NeedBytes(std::to_string((width + 7) / 8)));
        m_pre.push_back(fmt::format("const uint64_t {} = p4rt::ExtractBits(pkt + off, 0, {});",
                                    result, width));
        return result;
    }

    std::string ParserError(const std::string& error)
    {
        return fmt::format("s.sm.parser_error_ = {}; goto reject;", Hex(m_errorCodes.at(error)));
    }

    std::string NeedBytes(const std::string& bytes)
    {
        return fmt::format("if (len - off < {}) {{ {} }}", bytes, ParserError("PacketTooShort"));
    }

    // -----------------------------------------------------------------------------------
    // Lvalues and assignment
    // -----------------------------------------------------------------------------------

    std::string LValue(const Expression& expression)
    {
        if (const auto* name = expression.As<NameExpr>())
        {
            if (const auto found = m_names.find(name->resolved); found != m_names.end())
            {
                return found->second;
            }
            Fail(name->location, "'" + name->name + "' cannot be written");
            return "unused";
        }
        if (const auto* member = expression.As<MemberExpr>())
        {
            const Type* objectType = Canon(member->object->type);
            if (objectType && objectType->Is<StackType>() &&
                (member->member == "next" || member->member == "last"))
            {
                if (member->member == "next")
                {
                    Unsupported(member->location, "writing a header stack's .next outside "
                                                  "extract");
                }
                return StackElement(LValue(*member->object), member->member);
            }
            return LValue(*member->object) + "." + member->member + "_";
        }
        if (const auto* index = expression.As<IndexExpr>())
        {
            const auto position = EvalConst(*index->index);
            if (!position)
            {
                Unsupported(index->index->location, "a header stack index that is not a constant");
                return "unused";
            }
            return fmt::format("{}.element[{}]", LValue(*index->object), *position);
        }
        Unsupported(expression.location, "assigning to " + ToString(expression));
        return "unused";
    }

    /// `value`, converted for storing into something of type `to`.
    std::string ValueFor(const Expression& value, const Type* to)
    {
        const unsigned width = Width(to);
        if (IsInfInt(value.type) && width > 0 && width <= 64)
        {
            return Operand(value, width);
        }
        return Value(value);
    }

    /// Statements for `target = value`.
    void Assign(const Expression& target, const Expression& value, CodeWriter& out)
    {
        if (const auto* slice = target.As<SliceExpr>())
        {
            const auto high = EvalConst(*slice->high);
            const auto low = EvalConst(*slice->low);
            if (!high || !low || Width(slice->object->type) > 64)
            {
                Unsupported(slice->location, "this slice as an assignment target");
                return;
            }
            const std::string object = LValue(*slice->object);
            const std::string v = ValueFor(value, slice->type);
            Flush(out);
            out.Line(fmt::format("{0} = p4rt::ReplaceSlice({0}, {1}, {2}, {3});", object, *high,
                                 *low, v));
            return;
        }
        const Type* targetType = Canon(target.type);
        if (const auto* decl = StructOf(targetType);
            decl && (value.Is<ListExpr>() || value.Is<StructExpr>()))
        {
            const std::string object = LValue(target);
            std::vector<std::pair<std::string, std::string>> fields;
            if (const auto* list = value.As<ListExpr>())
            {
                for (size_t i = 0; i < list->elements.size() && i < decl->fields.size(); ++i)
                {
                    fields.emplace_back(decl->fields[i]->name,
                                        ValueFor(*list->elements[i], decl->fields[i]->type.get()));
                }
            }
            else
            {
                for (const auto& field : value.As<StructExpr>()->fields)
                {
                    const StructField* declared = decl->FindField(field->name);
                    fields.emplace_back(field->name,
                                        ValueFor(*field->value,
                                                 declared ? declared->type.get() : nullptr));
                }
            }
            Flush(out);
            for (const auto& [name, v] : fields)
            {
                out.Line(fmt::format("{}.{}_ = {};", object, name, v));
            }
            if (decl->Is<HeaderDecl>())
            {
                out.Line(object + ".valid = true;");
            }
            return;
        }
        const std::string v = ValueFor(value, targetType);
        const std::string object = LValue(target);
        Flush(out);
        out.Line(object + " = " + v + ";");
    }

    /// Writes the hoisted statements (table applies, lookaheads) before the current one.
    void Flush(CodeWriter& out)
    {
        for (const std::string& line : m_pre)
        {
            out.Line(line);
        }
        m_pre.clear();
    }

    // -----------------------------------------------------------------------------------
    // Statements
    // -----------------------------------------------------------------------------------

    void Statement(const ast::Statement& statement, CodeWriter& out)
    {
        if (const auto* block = statement.As<BlockStmt>())
        {
            out.Open("");
            for (const auto& inner : block->statements)
            {
                Statement(*inner, out);
            }
            out.Close();
        }
        else if (const auto* assign = statement.As<AssignStmt>())
        {
            Assign(*assign->left, *assign->right, out);
        }
        else if (const auto* call = statement.As<CallStmt>())
        {
            CallStatement(*call->call, out);
        }
        else if (const auto* ifStmt = statement.As<IfStmt>())
        {
            const std::string condition = Value(*ifStmt->condition);
            Flush(out);
            out.Open("if (" + condition + ")");
            Statement(*ifStmt->thenBranch, out);
            out.Close();
            if (ifStmt->elseBranch)
            {
                out.Open("else");
                Statement(*ifStmt->elseBranch, out);
                out.Close();
            }
        }
        else if (const auto* switchStmt = statement.As<SwitchStmt>())
        {
            Switch(*switchStmt, out);
        }
        else if (statement.Is<ExitStmt>())
        {
            if (m_context == Context::Parser || m_context == Context::Deparser)
            {
                Unsupported(statement.location, "exit here");
            }
            out.Line("s.base.exited = true;");
            out.Line("return;");
        }
        else if (const auto* ret = statement.As<ReturnStmt>())
        {
            if (ret->value)
            {
                Unsupported(ret->location, "return with a value");
            }
            out.Line(m_context == Context::Deparser ? "goto deparsed;" : "return;");
        }
        else if (statement.Is<EmptyStmt>())
        {
        }
        else if (const auto* declStmt = statement.As<DeclStmt>())
        {
            LocalDeclaration(*declStmt->declaration, out);
        }
        else
        {
            Unsupported(statement.location, "this statement");
        }
    }

    void LocalDeclaration(const Declaration& declaration, CodeWriter& out)
    {
        const std::string name = declaration.name + "_";
        if (const auto* variable = declaration.As<VariableDecl>())
        {
            const std::string type = ValueType(variable->type.get(), variable->location);
            if (variable->initializer && !variable->initializer->Is<ListExpr>() &&
                !variable->initializer->Is<StructExpr>())
            {
                const std::string v = ValueFor(*variable->initializer, variable->type.get());
                Flush(out);
                out.Line(fmt::format("{} {} = {};", type, name, v));
            }
            else
            {
                out.Line(fmt::format("{} {}{{}};", type, name));
            }
            m_names[variable] = name;
            if (variable->initializer && (variable->initializer->Is<ListExpr>() ||
                                          variable->initializer->Is<StructExpr>()))
            {
                NameExpr target(variable->location);
                target.name = variable->name;
                target.resolved = variable;
                target.type = variable->type.get();
                Assign(target, *variable->initializer, out);
            }
        }
        else if (const auto* constant = declaration.As<ConstDecl>())
        {
            if (!EvalConst(*constant->value))
            {
                const std::string v = ValueFor(*constant->value, constant->type.get());
                Flush(out);
                out.Line(fmt::format("const {} {} = {};",
                                     ValueType(constant->type.get(), constant->location), name,
                                     v));
                m_names[constant] = name;
            }
        }
        else
        {
            Unsupported(declaration.location, "this local declaration");
        }
    }

    void Switch(const SwitchStmt& switchStmt, CodeWriter& out)
    {
        const auto* member = switchStmt.expression->As<MemberExpr>();
        const auto* call = member ? member->object->As<CallExpr>() : nullptr;
        const TableInfo* table = nullptr;
        std::string subject;
        if (call && IsTableApply(*call) && member->member == "action_run")
        {
            table = &TableOf(*call);
            subject = ApplyTable(*call) + ".actionRun";
        }
        else
        {
            subject = Value(*switchStmt.expression);
        }
        Flush(out);
        out.Open("switch (" + subject + ")");
        for (const auto& switchCase : switchStmt.cases)
        {
            const Expression& label = *switchCase->label;
            if (label.Is<DefaultExpr>())
            {
                out.Line("default:");
            }
            else if (table)
            {
                const auto* name = label.As<NameExpr>();
                const auto position = ActionPosition(*table, name ? name->resolved : nullptr);
                if (!position)
                {
                    Fail(label.location, "'" + ToString(label) + "' is not an action of table '" +
                                             table->decl->name + "'");
                    continue;
                }
                out.Line(fmt::format("case {}:", *position));
            }
            else
            {
                const auto value = EvalConst(label);
                if (!value)
                {
                    Fail(label.location, "a switch label must be a constant");
                    continue;
                }
                out.Line(fmt::format("case {}:", Hex(*value)));
            }
            if (switchCase->body)
            {
                out.Open("");
                for (const auto& inner : switchCase->body->statements)
                {
                    Statement(*inner, out);
                }
                out.Close();
                out.Line("break;");
            }
        }
        if (!switchStmt.cases.empty() && !switchStmt.cases.back()->body)
        {
            out.Line("break;");
        }
        out.Close();
    }

    /// The argument bound to parameter `i` of a call, by position or name.
    static const Expression* Argument(const CallExpr& call, const PtrList<Parameter>& params,
                                      size_t i)
    {
        return Argument(call.args, params, i);
    }

    /// The argument for params[i]: named, or at position i.
    static const Expression* Argument(const PtrList<ast::Argument>& args,
                                      const PtrList<Parameter>& params, size_t i)
    {
        for (const auto& argument : args)
        {
            if (!argument->name.empty() && argument->name == params[i]->name)
            {
                return argument->value.get();
            }
        }
        return i < args.size() && args[i]->name.empty() ? args[i]->value.get() : nullptr;
    }

    void CallStatement(const CallExpr& call, CodeWriter& out)
    {
        if (IsTableApply(call))
        {
            ApplyTable(call);
            Flush(out);
            return;
        }
        if (const auto* member = call.callee->As<MemberExpr>())
        {
            MethodCall(call, *member, out);
            return;
        }
        const auto* name = call.callee->As<NameExpr>();
        const Declaration* decl = name ? name->resolved : nullptr;
        if (const auto* action = decl ? decl->As<ActionDecl>() : nullptr)
        {
            ActionCall(call, *action, out);
            return;
        }
        if (const auto* function = decl ? decl->As<FunctionDecl>() : nullptr)
        {
            ExternFunction(call, *function, out);
            return;
        }
        Unsupported(call.location, "this call");
    }

    void ActionCall(const CallExpr& call, const ActionDecl& action, CodeWriter& out)
    {
        if (m_context == Context::Parser)
        {
            Unsupported(call.location, "calling an action from a parser");
            return;
        }
        const ActionInfo& info = m_actions[m_actionIndex.at(&action)];
        std::vector<std::string> values(action.params.size());
        for (size_t i = 0; i < action.params.size(); ++i)
        {
            if (!Argument(call, action.params, i))
            {
                Fail(call.location, "missing argument for '" + action.params[i]->name + "'");
                return;
            }
        }
        InvokeAction(action, call.args, values, out);
        if (info.mayExit)
        {
            out.Line("if (s.base.exited) return;");
        }
    }

    /// Calls `action` in a block of its own: a parameter with a non-empty `values[i]` gets
    /// that C++ value (a table entry's control-plane argument), the others their argument in
    /// `args`, out and inout ones through a temporary copied back after the call.
    void InvokeAction(const ActionDecl& action, const PtrList<ast::Argument>& args,
                      const std::vector<std::string>& values, CodeWriter& out)
    {
        const ActionInfo& info = m_actions[m_actionIndex.at(&action)];
        std::vector<std::string> passed;
        std::vector<std::string> copyBack;
        std::vector<std::string> setup;
        for (size_t i = 0; i < action.params.size(); ++i)
        {
            const Parameter& param = *action.params[i];
            if (!values[i].empty())
            {
                passed.push_back(values[i]);
                continue;
            }
            const Expression* argument = Argument(args, action.params, i);
            if (!argument)
            {
                Fail(param.location, "no argument is bound to '" + param.name + "'");
                return;
            }
            if (param.direction == Direction::Out || param.direction == Direction::InOut)
            {
                const std::string temp = Temp("argument");
                const std::string target = LValue(*argument);
                setup.push_back(fmt::format("{} {} = {};",
                                            ValueType(param.type.get(), param.location), temp,
                                            target));
                copyBack.push_back(target + " = " + temp + ";");
                passed.push_back(temp);
            }
            else
            {
                passed.push_back(ValueFor(*argument, param.type.get()));
            }
        }
        Flush(out);
        out.Open("");
        for (const auto& line : setup)
        {
            out.Line(line);
        }
        std::string joined;
        for (const auto& arg : passed)
        {
            joined += ", " + arg;
        }
        out.Line(fmt::format("{}(s, md{});", info.function, joined));
        for (const auto& line : copyBack)
        {
            out.Line(line);
        }
        out.Close();
    }

    void MethodCall(const CallExpr& call, const MemberExpr& member, CodeWriter& out)
    {
        const Type* objectType = Canon(member.object->type);
        const std::string& method = member.member;
        if (const auto* header = StructOf(objectType); header && header->Is<HeaderDecl>())
        {
            if (method == "isValid")
            {
                return;
            }
            const std::string object = LValue(*member.object);
            Flush(out);
            out.Line(object + ".valid = " + (method == "setValid" ? "true;" : "false;"));
            return;
        }
        if (objectType && objectType->Is<StackType>())
        {
            Unsupported(call.location, "header stack operation '" + method + "'");
            return;
        }
        if (IsPacketParam(*member.object))
        {
            PacketCall(call, method, out);
            return;
        }
        const auto* objectName = member.object->As<NameExpr>();
        const auto found = objectName ? m_externs.find(objectName->resolved) : m_externs.end();
        if (found == m_externs.end())
        {
            Unsupported(call.location, "calling '" + method + "' on " + ToString(*member.object));
            return;
        }
        const ExternInfo& info = found->second;
        if (info.kind == ExternKind::Counter && method == "count" && call.args.size() == 1)
        {
            const std::string index = Value(*call.args[0]->value);
            Flush(out);
            out.Line(fmt::format("{}.Count({}, md.packetLength);", info.member, index));
            return;
        }
        if (info.kind == ExternKind::Register && method == "read" && call.args.size() == 2)
        {
            const std::string target = LValue(*call.args[0]->value);
            const std::string index = Value(*call.args[1]->value);
            const std::string temp = Temp("cell");
            Flush(out);
            out.Open("");
            out.Line(fmt::format("{} {} = {};",
                                 info.width > 64 ? fmt::format("p4rt::WideBits<{}>", info.width)
                                                 : std::string("uint64_t"),
                                 temp, target));
            out.Line(fmt::format("{}.Read({}, {});", info.member, index, temp));
            out.Line(fmt::format("{} = {};", target, temp));
            out.Close();
            return;
        }
        if (info.kind == ExternKind::Register && method == "write" && call.args.size() == 2)
        {
            const std::string index = Value(*call.args[0]->value);
            const std::string value = Operand(*call.args[1]->value, info.width);
            Flush(out);
            out.Line(fmt::format("{}.Write({}, {});", info.member, index, value));
            return;
        }
        Unsupported(call.location, "method '" + method + "'");
    }

    void PacketCall(const CallExpr& call, const std::string& method, CodeWriter& out)
    {
        if (method == "extract" && m_context == Context::Parser && call.args.size() == 1)
        {
            Extract(*call.args[0]->value, out);
            return;
        }
        if (method == "emit" && m_context == Context::Deparser && call.args.size() == 1)
        {
            Emit(*call.args[0]->value, out);
            return;
        }
        if (method == "lookahead")
        {
            Lookahead(call);
            Flush(out);
            return;
        }
        if (method == "advance" && m_context == Context::Parser && call.args.size() == 1)
        {
            const std::string bits = Value(*call.args[0]->value);
            const std::string bytes = Temp("advance");
            Flush(out);
            out.Open("");
            out.Line(fmt::format("const uint64_t {} = ({} + 7) / 8;", bytes, bits));
            out.Line(NeedBytes(bytes));
            out.Line(fmt::format("off += static_cast<uint32_t>({});", bytes));
            out.Close();
            return;
        }
        Unsupported(call.location, "packet." + method + " here");
    }

    void Extract(const Expression& target, CodeWriter& out)
    {
        const Type* type = Canon(target.type);
        const auto* header = StructOf(type);
        if (!header || !header->Is<HeaderDecl>())
        {
            Unsupported(target.location, "extracting something that is not a header");
            return;
        }
        const unsigned bytes = HeaderBytes(*header);
        const auto* member = target.As<MemberExpr>();
        const Type* objectType = member ? Canon(member->object->type) : nullptr;
        out.Open("");
        if (objectType && objectType->Is<StackType>() && member->member == "next")
        {
            const std::string stack = LValue(*member->object);
            Flush(out);
            out.Line(fmt::format("if ({}.nextIndex >= {}) {{ {} }}", stack,
                                 objectType->As<StackType>()->count,
                                 ParserError("StackOutOfBounds")));
            out.Line(NeedBytes(std::to_string(bytes)));
            out.Line(fmt::format("auto& header = {}.element[{}.nextIndex++];", stack, stack));
        }
        else
        {
            const std::string object = LValue(target);
            Flush(out);
            out.Line(NeedBytes(std::to_string(bytes)));
            out.Line(fmt::format("auto& header = {};", object));
        }
        out.Line("ExtractHeader(pkt + off, header);");
        out.Line("header.valid = true;");
        out.Line(fmt::format("off += {};", bytes));
        out.Close();
    }

    void Emit(const Expression& value, CodeWriter& out)
    {
        const std::string object = Value(value);
        Flush(out);
        EmitObject(object, Canon(value.type), value.location, out);
    }

    void EmitObject(const std::string& object, const Type* type, const SourceLocation& where,
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

    void ExternFunction(const CallExpr& call, const FunctionDecl& function, CodeWriter& out)
    {
        const std::string& name = function.name;
        const auto arg = [&](size_t i) -> const Expression& { return *call.args[i]->value; };
        const bool inControl = m_context == Context::Control || m_context == Context::Action;
        if (name == "verify" && m_context == Context::Parser)
        {
            const std::string condition = Value(arg(0));
            const std::string error = Value(arg(1));
            Flush(out);
            out.Line(fmt::format("if (!({})) {{ s.sm.parser_error_ = {}; goto reject; }}",
                                 condition, error));
        }
        else if (name == "mark_to_drop" && inControl)
        {
            const std::string sm = LValue(arg(0));
            Flush(out);
            out.Line(fmt::format("{}.egress_spec_ = p4rt::kV1DropPort; {}.mcast_grp_ = 0;", sm, sm));
        }
        else if (name == "hash" && inControl)
        {
            const unsigned width = Width(arg(0).type);
            const std::string target = LValue(arg(0));
            const std::string algorithm = HashAlgorithm(arg(1));
            const std::string base = Value(arg(2));
            const std::string max = Value(arg(4));
            const PackedInput input = Pack(arg(3));
            Flush(out);
            out.Open("");
            EmitPacked(input, out);
            out.Line(fmt::format("{} = {};", target,
                                 Masked(fmt::format("p4rt::ReduceHash({}, {}, {})",
                                                    HashOf(algorithm, input), base, max),
                                        width)));
            out.Close();
        }
        else if ((name == "update_checksum" || name == "verify_checksum") && inControl)
        {
            const std::string condition = Value(arg(0));
            const std::string checksum = name == "update_checksum" ? LValue(arg(2)) : Value(arg(2));
            const unsigned width = Width(arg(2).type);
            const std::string algorithm = HashAlgorithm(arg(3));
            const PackedInput input = Pack(arg(1));
            Flush(out);
            out.Open("if (" + condition + ")");
            EmitPacked(input, out);
            const std::string computed = Masked(HashOf(algorithm, input), width);
            if (name == "update_checksum")
            {
                out.Line(fmt::format("{} = {};", checksum, computed));
            }
            else
            {
                out.Line(fmt::format("if ({} != {}) s.sm.checksum_error_ = 1;", computed,
                                     checksum));
            }
            out.Close();
        }
        else if ((name == "clone" || name == "clone_preserving_field_list") && inControl)
        {
            const std::string session = Value(arg(1));
            const std::string list = name == "clone" ? "0" : Value(arg(2));
            Flush(out);
            out.Line(fmt::format("md.clone = true; md.cloneSession = static_cast<uint32_t>({}); "
                                 "md.cloneFieldList = static_cast<uint8_t>({});",
                                 session, list));
        }
        else if (name == "resubmit_preserving_field_list" && inControl)
        {
            const std::string list = Value(arg(0));
            Flush(out);
            out.Line(fmt::format("md.resubmit = true; md.resubmitFieldList = "
                                 "static_cast<uint8_t>({});",
                                 list));
        }
        else if (name == "recirculate_preserving_field_list" && inControl)
        {
            const std::string list = Value(arg(0));
            Flush(out);
            out.Line(fmt::format("md.recirculate = true; md.recirculateFieldList = "
                                 "static_cast<uint8_t>({});",
                                 list));
        }
        else if (name == "truncate" && inControl)
        {
            const std::string length = Value(arg(0));
            Flush(out);
            out.Line(fmt::format("md.truncateLength = static_cast<uint32_t>({});", length));
        }
        else if (name == "log_msg")
        {
            // Logging has no effect on forwarding; incsim's traces record what matters.
        }
        else
        {
            const auto found = kUnsupportedExterns.find(name);
            Unsupported(call.location, "extern '" + name + "'" +
                                           (inControl || found != kUnsupportedExterns.end()
                                                ? ""
                                                : " here"),
                        found != kUnsupportedExterns.end() ? found->second : "");
        }
    }

    std::string HashAlgorithm(const Expression& algorithm)
    {
        const auto* member = algorithm.As<MemberExpr>();
        const auto found = member ? kHashAlgorithms.find(member->member) : kHashAlgorithms.end();
        if (found == kHashAlgorithms.end())
        {
            Unsupported(algorithm.location, "hash algorithm " + ToString(algorithm),
                        "incsim has crc16, crc32, identity, csum16 and xor16");
            return "p4rt::HashAlgorithm::Crc32";
        }
        return "p4rt::HashAlgorithm::" + found->second;
    }

    /// A hash or checksum input: a zeroed byte buffer and the stores that fill it.
    struct PackedInput
    {
        std::string buffer;
        size_t bits = 0;
        std::vector<std::string> stores;
    };

    PackedInput Pack(const Expression& data)
    {
        PackedInput input;
        input.buffer = Temp("input");
        input.bits = PackData(data, input.buffer, input.stores);
        return input;
    }

    static void EmitPacked(const PackedInput& input, CodeWriter& out)
    {
        out.Line(fmt::format("uint8_t {}[{}] = {{}};", input.buffer,
                             std::max<size_t>(1, (input.bits + 7) / 8)));
        for (const auto& line : input.stores)
        {
            out.Line(line);
        }
    }

    /// The unreduced hash of a packed input. Identity over whole bytes, up to 8 of them, is
    /// the packed value itself.
    static std::string HashOf(const std::string& algorithm, const PackedInput& input)
    {
        const size_t bytes = (input.bits + 7) / 8;
        if (algorithm == "p4rt::HashAlgorithm::Identity" && input.bits % 8 == 0 && bytes <= 8 &&
            bytes > 0)
        {
            return fmt::format("p4rt::LoadBigEndian({}, {})", input.buffer, bytes);
        }
        return fmt::format("p4rt::ComputeHash({}, {}, {})", algorithm, input.buffer, bytes);
    }

    /// Stores that pack a field list, a header, a struct or a single value into the bytes
    /// `buffer` (zeroed) as BMv2 hashes them: bits concatenated MSB-first, the last byte padded
    /// at its low end. Offsets are known here, so each field is one store. Returns the bits.
    size_t PackData(const Expression& data, const std::string& buffer,
                    std::vector<std::string>& lines, size_t offset = 0)
    {
        if (const auto* list = data.As<ListExpr>())
        {
            for (const auto& element : list->elements)
            {
                offset = PackData(*element, buffer, lines, offset);
            }
            return offset;
        }
        const Type* type = Canon(data.type);
        if (const auto* decl = StructOf(type))
        {
            return PackFields(Value(data), *decl, buffer, lines, offset);
        }
        if (Width(type) == 0)
        {
            Fail(data.location, "a hash or checksum input needs a width: cast it");
            return offset;
        }
        std::string value = Value(data);
        if (IsBool(type))
        {
            value = "uint64_t{" + value + "}";
        }
        return PackValue(value, Width(type), buffer, lines, offset);
    }

    size_t PackFields(const std::string& object, const StructLikeDecl& decl,
                      const std::string& buffer, std::vector<std::string>& lines, size_t offset)
    {
        for (const auto& field : decl.fields)
        {
            const Type* type = Canon(field->type.get());
            const std::string value = object + "." + field->name + "_";
            if (const auto* inner = StructOf(type))
            {
                offset = PackFields(value, *inner, buffer, lines, offset);
            }
            else if (Width(type) > 0)
            {
                offset = PackValue(value, Width(type), buffer, lines, offset);
            }
            else
            {
                Unsupported(field->location, "hashing a field of this type");
            }
        }
        return offset;
    }

    static size_t PackValue(const std::string& value, unsigned width, const std::string& buffer,
                            std::vector<std::string>& lines, size_t offset)
    {
        if (width > 64)
        {
            lines.push_back(fmt::format("{}.Insert({}, {});", value, buffer, offset));
        }
        else if (offset % 8 == 0 && width % 8 == 0)
        {
            lines.push_back(fmt::format("p4rt::StoreBigEndian({} + {}, {}, {});", buffer,
                                        offset / 8, value, width / 8));
        }
        else
        {
            lines.push_back(
                fmt::format("p4rt::InsertBits({}, {}, {}, {});", buffer, offset, width, value));
        }
        return offset + width;
    }

    // -----------------------------------------------------------------------------------
    // Output: types, state, program class
    // -----------------------------------------------------------------------------------

    void EmitTypes(CodeWriter& out)
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

    /// ExtractHeader and EmitHeader for one header type. Fields are grouped into runs that
    /// start and end on byte boundaries (version ++ ihl, flags ++ fragOffset) and span at most
    /// 64 bits, so each run is one big-endian load or store plus shifts; a run that cannot be
    /// closed within 64 bits falls back to bit-level access per field.
    void EmitHeaderCodec(const StructLikeDecl& header, CodeWriter& out)
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

    void EmitState(CodeWriter& out)
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

    void EmitProgramClass(CodeWriter& out)
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

    void EmitMembers(CodeWriter& out)
    {
        for (const TableInfo& table : m_tables)
        {
            out.Line("std::unique_ptr<p4rt::Table> " + table.member + ";");
        }
        for (const InstanceDecl* instance : m_externOrder)
        {
            const ExternInfo& info = m_externs.at(instance);
            if (info.kind == ExternKind::Register)
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

    void EmitConstructor(CodeWriter& out)
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
                                 info.kind == ExternKind::Register ? "RegisterRegister"
                                                                   : "RegisterCounter",
                                 info.member));
        }
        out.Close();
        out.Line("");
    }

    std::vector<std::pair<std::string, unsigned>>
    ControlPlaneParams(const ActionDecl& action) const
    {
        std::vector<std::pair<std::string, unsigned>> params;
        for (const auto& param : action.params)
        {
            if (param->direction == Direction::None)
            {
                params.emplace_back(param->name, Width(param->type.get()));
            }
        }
        return params;
    }

    /// The control-plane arguments of a default action or an entry: those of the action's
    /// directionless parameters (the directional ones are bound by the table's action list).
    std::string ArgsList(const ActionRef& ref)
    {
        const auto* action =
            ref.action->resolved ? ref.action->resolved->As<ActionDecl>() : nullptr;
        std::string list = "{";
        bool first = true;
        for (size_t i = 0; i < ref.args.size(); ++i)
        {
            if (action && i < action->params.size() &&
                action->params[i]->direction != Direction::None)
            {
                continue;
            }
            list += (first ? "" : ", ") + BitStringOf(*ref.args[i]->value);
            first = false;
        }
        return list + "}";
    }

    size_t ActionPosition(const TableInfo& table, const ActionRef& ref)
    {
        const auto position = ActionPosition(table, ref.action->resolved);
        if (!position)
        {
            Fail(ref.location, "'" + ref.action->name + "' is not in the actions of table '" +
                                   table.decl->name + "'");
        }
        return position.value_or(0);
    }

    /// The control plane's names of a table's key fields: @name, or the expression as written.
    static std::vector<std::string> KeyNames(const TableDecl& table)
    {
        std::vector<std::string> names;
        if (const auto* key = table.Key())
        {
            for (const auto& element : key->keys)
            {
                const auto* nameAnnotation = FindAnnotation(element->annotations, "name");
                const auto annotated = nameAnnotation ? nameAnnotation->StringArg() : std::nullopt;
                names.push_back(annotated ? *annotated : ToString(*element->expression));
            }
        }
        return names;
    }

    void EmitTableSchema(const TableInfo& table, CodeWriter& out)
    {
        const TableDecl& decl = *table.decl;
        out.Open("");
        out.Line("p4rt::TableSchema schema;");
        out.Line(fmt::format("schema.name = \"{}\";", table.controlPlaneName));
        if (const auto* key = decl.Key())
        {
            const std::vector<std::string> names = KeyNames(decl);
            for (size_t k = 0; k < key->keys.size(); ++k)
            {
                const auto& element = key->keys[k];
                const std::string& name = names[k];
                const unsigned width = Width(element->expression->type);
                if (width == 0)
                {
                    Unsupported(element->expression->location,
                                "a table key of type " + TypeText(element->expression->type));
                }
                std::string kind = element->matchKind;
                kind[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(kind[0])));
                out.Line(fmt::format("schema.keys.push_back({{\"{}\", {}, p4rt::MatchKind::{}}});",
                                     name, width, kind));
            }
        }
        for (size_t i = 0; i < table.actions.size(); ++i)
        {
            const ActionInfo& action = m_actions[m_actionIndex.at(table.actions[i])];
            std::string params = "{";
            for (const auto& [name, width] : ControlPlaneParams(*table.actions[i]))
            {
                params += fmt::format("{}{{\"{}\", {}}}", params.size() > 1 ? ", " : "", name,
                                      width);
            }
            params += "}";
            out.Line(fmt::format("schema.actions.push_back({{{}, \"{}\", {}, "
                                 "p4rt::ActionScope::{}}});",
                                 i, action.controlPlaneName, params, table.scopes[i]));
        }
        if (const auto* property = decl.DefaultAction())
        {
            out.Line(fmt::format("schema.defaultAction = {};",
                                 ActionPosition(table, *property->defaultAction)));
            out.Line("schema.defaultArgs = " + ArgsList(*property->defaultAction) + ";");
            out.Line(std::string("schema.defaultIsConst = ") +
                     (property->isConst ? "true;" : "false;"));
        }
        else
        {
            out.Line(fmt::format("schema.defaultAction = {};",
                                 ActionPosition(table, m_noAction).value_or(0)));
        }
        if (const auto* size = decl.Size())
        {
            const auto value = size->value ? EvalConst(*size->value) : std::nullopt;
            if (!value || *value == 0)
            {
                Fail(size->location, "a table size must be a positive constant");
            }
            else
            {
                out.Line(fmt::format("schema.size = {};", *value));
            }
        }
        if (const auto* entries = decl.Entries())
        {
            const std::vector<std::optional<int32_t>> ranks = EntryRanks(*entries);
            for (size_t i = 0; i < entries->entries.size(); ++i)
            {
                EmitConstEntry(table, *entries->entries[i], ranks[i], out);
            }
            out.Line(std::string("schema.entriesAreConst = ") +
                     (entries->isConst ? "true;" : "false;"));
        }
        out.Line(fmt::format("{} = std::make_unique<p4rt::Table>(std::move(schema));",
                             table.member));
        out.Line(fmt::format("m_control.RegisterTable(*{});", table.member));
        out.Close();
    }

    static std::string TypeText(const Type* type) { return type ? ToString(*type) : "unknown"; }

    /// BMv2's ranks for a table whose entries carry `@priority(N)`: an entry's priority is N,
    /// or else its position from 1, and the lowest wins (p4c's BMv2 back end). Turned into the
    /// runtime's convention, where the highest wins. Without @priority, no ranks: the runtime
    /// ranks entries by order (first wins).
    std::vector<std::optional<int32_t>> EntryRanks(const TableProperty& entries)
    {
        std::vector<std::optional<int32_t>> ranks(entries.entries.size());
        std::vector<int64_t> bmv2(entries.entries.size());
        bool annotated = false;
        int64_t highest = 0;
        for (size_t i = 0; i < entries.entries.size(); ++i)
        {
            bmv2[i] = static_cast<int64_t>(i) + 1;
            const Annotation* annotation =
                FindAnnotation(entries.entries[i]->annotations, "priority");
            if (annotation)
            {
                const auto value = annotation->args.size() == 1
                                       ? EvalConst(*annotation->args[0])
                                       : std::nullopt;
                if (!value || *value > INT32_MAX / 2)
                {
                    Fail(annotation->location,
                         "@priority takes one constant from 0 to " +
                             std::to_string(INT32_MAX / 2));
                    continue;
                }
                bmv2[i] = static_cast<int64_t>(*value);
                annotated = true;
            }
            highest = std::max(highest, bmv2[i]);
        }
        if (annotated)
        {
            for (size_t i = 0; i < ranks.size(); ++i)
            {
                ranks[i] = static_cast<int32_t>(highest + 1 - bmv2[i]);
            }
        }
        return ranks;
    }

    void EmitConstEntry(const TableInfo& table, const ast::TableEntry& entry,
                        std::optional<int32_t> rank, CodeWriter& out)
    {
        const auto* keyProperty = table.decl->Key();
        const size_t keyCount = keyProperty ? keyProperty->keys.size() : 0;
        std::vector<const Expression*> keys;
        for (const auto& key : entry.keys)
        {
            keys.push_back(key.get());
        }
        // `(a, b) : action` arrives as one ListExpr key, and so does `{ a } : action` for a
        // table of one key.
        if (keys.size() == 1 && keys[0]->Is<ListExpr>() &&
            (keyCount != 1 || keys[0]->As<ListExpr>()->elements.size() == 1))
        {
            const auto* list = keys[0]->As<ListExpr>();
            keys.clear();
            for (const auto& element : list->elements)
            {
                keys.push_back(element.get());
            }
        }
        if (keys.size() != keyCount)
        {
            Fail(entry.location, fmt::format("this entry has {} keys; the table has {}",
                                             keys.size(), keyCount));
            return;
        }
        std::string match = "{";
        for (size_t i = 0; i < keys.size(); ++i)
        {
            match += (i ? ", " : "") + MatchValueOf(*keys[i], keyProperty->keys[i]->matchKind,
                                                    Width(keyProperty->keys[i]->expression->type));
        }
        match += "}";
        std::string priority;
        if (entry.priority)
        {
            const auto value = EvalConst(*entry.priority);
            if (!value)
            {
                Fail(entry.priority->location, "an entry priority must be a constant");
            }
            priority = fmt::format(", {}", value.value_or(0));
        }
        else if (rank)
        {
            priority = fmt::format(", {}", *rank);
        }
        out.Line(fmt::format("schema.entries.push_back({{{}, {}, {}{}}});", match,
                             ActionPosition(table, *entry.action), ArgsList(*entry.action),
                             priority.empty() ? ", std::nullopt" : priority));
    }

    /// The prefix length of an lpm entry's mask (`v &&& 0xffffff00`): it must be ones then
    /// zeros in the key's width.
    unsigned PrefixLength(const Expression& mask, unsigned width)
    {
        const auto value = EvalConst(mask);
        if (!value || width > 64)
        {
            Unsupported(mask.location, "an lpm entry mask that is not a constant of at most 64 bits",
                        "write value/length as a prefix");
            return 0;
        }
        unsigned prefix = 0;
        while (prefix < width && ((*value >> (width - 1 - prefix)) & 1))
        {
            ++prefix;
        }
        const uint64_t expected =
            prefix == 0 ? 0 : (~uint64_t{0} << (64 - prefix)) >> (64 - width);
        if (*value != expected)
        {
            Fail(mask.location, "this lpm mask is not a prefix (ones followed by zeros)");
        }
        return prefix;
    }

    std::string MatchValueOf(const Expression& key, const std::string& matchKind, unsigned width)
    {
        if (key.Is<DefaultExpr>() || key.Is<DontCareExpr>())
        {
            return "p4rt::MatchValue::Wildcard()";
        }
        if (const auto* binary = key.As<BinaryExpr>())
        {
            if (binary->op == BinaryOp::Mask)
            {
                std::string value = BitStringOf(*binary->left);
                const std::string mask = BitStringOf(*binary->right);
                // As p4c: value bits outside the mask are a warning, and are masked off.
                const auto bits = EvalConst(*binary->left);
                const auto maskBits = EvalConst(*binary->right);
                if (bits && maskBits && (*bits & ~*maskBits) != 0)
                {
                    m_diags.Warning(binary->location,
                                    fmt::format("value 0x{:x} has bits outside the mask "
                                                "0x{:x}; they are ignored (the entry matches "
                                                "0x{:x})",
                                                *bits, *maskBits, *bits & *maskBits));
                    value = fmt::format("p4rt::BitString({})", Hex(*bits & *maskBits));
                }
                if (matchKind == "lpm")
                {
                    return fmt::format("p4rt::MatchValue::Lpm({}, {})", value,
                                       PrefixLength(*binary->right, width));
                }
                return fmt::format("p4rt::MatchValue::Ternary({}, {})", value, mask);
            }
            if (binary->op == BinaryOp::Range)
            {
                Unsupported(binary->location, "a range in a table entry");
                return "p4rt::MatchValue::Wildcard()";
            }
        }
        const std::string value = BitStringOf(key);
        if (matchKind == "lpm")
        {
            return fmt::format("p4rt::MatchValue::Lpm({}, {})", value, width);
        }
        if (matchKind == "ternary")
        {
            return fmt::format("p4rt::MatchValue::Ternary({}, p4rt::BitString::AllOnes({}))",
                               value, width);
        }
        return fmt::format("p4rt::MatchValue::Exact({})", value);
    }

    void EmitEntryPoints(CodeWriter& out)
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
        out.Line("s.sm.egress_spec_ = 0;");
        out.Line("s.base.exited = false;");
        out.Line(fmt::format("Control_{}(s, md);", m_egress->name));
        out.Line("s.base.exited = false;");
        out.Line(fmt::format("Control_{}(s, md);", m_compute->name));
        StoreMetadata(out, false);
        out.Close();
        out.Line("");
    }

    void CollectFieldLists(const StructLikeDecl& decl, const std::string& prefix,
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

    const StructField* SmField(const std::string& name) const { return m_smType->FindField(name); }

    void LoadMetadata(CodeWriter& out, bool ingress)
    {
        for (const MetadataRole& role : kMetadataRoles)
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

    void StoreMetadata(CodeWriter& out, bool ingress)
    {
        for (const MetadataRole& role : kMetadataRoles)
        {
            if ((ingress ? role.storeIngress : role.storeEgress) && SmField(role.field))
            {
                out.Line(fmt::format("md.{} = static_cast<uint32_t>(s.sm.{}_);", role.member,
                                     role.field));
            }
        }
    }

    void EmitMetadataFields(CodeWriter& out)
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

    void EmitReset(CodeWriter& out)
    {
        out.Open("void Reset() override");
        for (const InstanceDecl* instance : m_externOrder)
        {
            out.Line(m_externs.at(instance).member + ".Reset();");
        }
        out.Close();
    }

    void EmitParser(CodeWriter& out)
    {
        m_context = Context::Parser;
        out.Line("");
        out.Open(fmt::format("void Parser_{}(State& s, const uint8_t* pkt, uint32_t len)",
                             m_parser->name));
        out.Line("uint32_t off = 0;");
        InitializeBlockVariables(m_parser->locals, out);
        const ParserState* start = m_parser->FindState("start");
        if (!start)
        {
            Fail(m_parser->location, "parser '" + m_parser->name + "' has no 'start' state");
            out.Close();
            return;
        }
        out.Line("goto " + m_stateLabels.at(start) + ";");
        for (const auto& state : m_parser->states)
        {
            out.Line(m_stateLabels.at(state.get()) + ":");
            out.Open("");
            for (const auto& statement : state->statements)
            {
                Statement(*statement, out);
            }
            Transition(state->transition.get(), out);
            out.Close();
        }
        out.Line("accept:");
        out.Line("reject:");
        out.Line("s.base.parsedBytes = off;");
        out.Close();
    }

    std::string StateTarget(const NameExpr& name)
    {
        const Declaration* state = name.resolved;
        if (const auto found = m_stateLabels.find(state); found != m_stateLabels.end())
        {
            return "goto " + found->second + ";";
        }
        if (name.name == "accept")
        {
            return "goto accept;";
        }
        return "goto reject;";
    }

    void Transition(const TransitionStmt* transition, CodeWriter& out)
    {
        if (!transition)
        {
            out.Line("goto reject;");
            return;
        }
        if (const auto* name = transition->target->As<NameExpr>())
        {
            out.Line(StateTarget(*name));
            return;
        }
        const auto* select = transition->target->As<SelectExpr>();
        if (!select)
        {
            Unsupported(transition->location, "this transition");
            return;
        }
        std::vector<std::string> selectors;
        std::vector<unsigned> widths;
        for (const auto& selector : select->selectors)
        {
            const unsigned width = Width(selector->type);
            if (width == 0 || width > 64)
            {
                Unsupported(selector->location, "selecting on " + ToString(*selector));
            }
            widths.push_back(width);
            const std::string value = Value(*selector);
            const std::string name = Temp("key");
            m_pre.push_back(fmt::format("const uint64_t {} = {};", name,
                                        IsBool(selector->type) ? "uint64_t{" + value + "}" : value));
            selectors.push_back(name);
        }
        Flush(out);
        for (const auto& selectCase : select->cases)
        {
            std::vector<const Expression*> keys;
            for (const auto& key : selectCase->keys)
            {
                keys.push_back(key.get());
            }
            if (keys.size() == 1 && selectors.size() > 1 && keys[0]->Is<ListExpr>())
            {
                const auto* list = keys[0]->As<ListExpr>();
                keys.clear();
                for (const auto& element : list->elements)
                {
                    keys.push_back(element.get());
                }
            }
            std::string condition;
            if (!(keys.size() == 1 && (keys[0]->Is<DefaultExpr>() || keys[0]->Is<DontCareExpr>())))
            {
                if (keys.size() != selectors.size())
                {
                    Fail(selectCase->location, "this case has the wrong number of keys");
                    continue;
                }
                for (size_t i = 0; i < keys.size(); ++i)
                {
                    const std::string test = KeysetTest(*keys[i], selectors[i], widths[i]);
                    if (!test.empty())
                    {
                        condition += (condition.empty() ? "" : " && ") + test;
                    }
                }
            }
            const std::string target = StateTarget(*selectCase->state);
            out.Line(condition.empty() ? target : "if (" + condition + ") " + target);
            if (condition.empty())
            {
                return;  // a default case: nothing after it can run
            }
        }
        out.Line(ParserError("NoMatch"));
    }

    std::string KeysetTest(const Expression& key, const std::string& selector, unsigned width)
    {
        if (key.Is<DefaultExpr>() || key.Is<DontCareExpr>())
        {
            return "";
        }
        const auto constant = [&](const Expression& e) -> std::string {
            const auto value = EvalConst(e);
            if (!value)
            {
                Fail(e.location, "a select case must be a compile-time constant");
                return "0";
            }
            return Hex(p4rt::Truncate(*value, std::min(width, 64u)));
        };
        if (const auto* binary = key.As<BinaryExpr>())
        {
            if (binary->op == BinaryOp::Mask)
            {
                const std::string mask = constant(*binary->right);
                return fmt::format("({} & {}) == ({} & {})", selector, mask,
                                   constant(*binary->left), mask);
            }
            if (binary->op == BinaryOp::Range)
            {
                return fmt::format("({} <= {} && {} <= {})", constant(*binary->left), selector,
                                   selector, constant(*binary->right));
            }
        }
        return fmt::format("{} == {}", selector, constant(key));
    }

    void EmitAction(const ActionInfo& action, CodeWriter& out)
    {
        m_context = Context::Action;
        std::string params;
        for (const auto& param : action.decl->params)
        {
            const std::string type = ValueType(param->type.get(), param->location);
            const bool byReference =
                param->direction == Direction::Out || param->direction == Direction::InOut;
            params += fmt::format(", {}{} {}_", type, byReference ? "&" : "", param->name);
            m_names[param.get()] = param->name + "_";
        }
        out.Line("");
        out.Open(fmt::format("void {}(State& s, p4rt::V1Metadata& md{})", action.function,
                             params));
        for (const auto& statement : action.decl->body->statements)
        {
            Statement(*statement, out);
        }
        out.Close();
    }

    void EmitTableApply(const TableInfo& table, CodeWriter& out)
    {
        m_context = Context::Control;
        out.Line("");
        out.Open(fmt::format("p4rt::ApplyResult {}(State& s, p4rt::V1Metadata& md)",
                             table.function));
        size_t keyBytes = 0;
        std::vector<std::string> packing;
        if (const auto* key = table.decl->Key())
        {
            for (const auto& element : key->keys)
            {
                const Expression& expression = *element->expression;
                const unsigned width = Width(expression.type);
                const size_t bytes = (width + 7) / 8;
                std::string value = Value(expression);
                if (width > 64)
                {
                    packing.push_back(fmt::format("std::memcpy(key + {}, {}.Bytes(), {});",
                                                  keyBytes, value, bytes));
                }
                else
                {
                    if (IsBool(expression.type))
                    {
                        value = "uint64_t{" + value + "}";
                    }
                    packing.push_back(fmt::format("p4rt::StoreBigEndian(key + {}, {}, {});",
                                                  keyBytes, value, bytes));
                }
                keyBytes += bytes;
            }
        }
        Flush(out);
        out.Line(keyBytes == 0 ? std::string("uint8_t key[1] = {};")
                               : fmt::format("uint8_t key[{}];", keyBytes));
        for (const auto& line : packing)
        {
            out.Line(line);
        }
        out.Line(fmt::format("const p4rt::TableEntry* entry = {}->Lookup(key);", table.member));
        out.Open("switch (entry->action)");
        for (size_t i = 0; i < table.actions.size(); ++i)
        {
            const ActionDecl& action = *table.actions[i];
            // Directionless parameters come from the entry; the others are bound where the
            // table lists the action (`actions = { a(hdr.x); }`).
            std::vector<std::string> values;
            std::string args;
            bool bound = false;
            size_t word = 0;
            for (const auto& param : action.params)
            {
                if (param->direction != Direction::None)
                {
                    values.emplace_back();
                    bound = true;
                    continue;
                }
                const unsigned width = Width(param->type.get());
                if (width > 64)
                {
                    values.push_back(fmt::format(
                        "p4rt::WideBits<{}>::FromWords(&entry->args[{}])", width, word));
                    word += (width + 63) / 64;
                }
                else
                {
                    values.push_back(fmt::format("entry->args[{}]", word));
                    word += 1;
                }
                args += ", " + values.back();
            }
            out.Line(fmt::format("case {}:", i));
            if (bound)
            {
                out.Open("");
                InvokeAction(action, table.refs[i]->args, values, out);
                out.Line("break;");
                out.Close();
                continue;
            }
            out.Line(fmt::format("    {}(s, md{});",
                                 m_actions[m_actionIndex.at(&action)].function, args));
            out.Line("    break;");
        }
        out.Close();
        out.Line("return {entry->hit, entry->action};");
        out.Close();
    }

    /// Block-level variables live in the state (zeroed by Parse); their initializers run each
    /// time the block starts.
    void InitializeBlockVariables(const PtrList<Declaration>& locals, CodeWriter& out)
    {
        for (const auto& local : locals)
        {
            if (const auto* variable = local->As<VariableDecl>(); variable && variable->initializer)
            {
                NameExpr target(variable->location);
                target.name = variable->name;
                target.resolved = variable;
                target.type = variable->type.get();
                Assign(target, *variable->initializer, out);
            }
        }
    }

    void EmitControl(const ControlDecl& control, CodeWriter& out)
    {
        m_context = Context::Control;
        out.Line("");
        out.Open(fmt::format("void Control_{}(State& s, p4rt::V1Metadata& md)", control.name));
        InitializeBlockVariables(control.locals, out);
        for (const auto& statement : control.apply->statements)
        {
            Statement(*statement, out);
        }
        out.Close();
    }

    void EmitDeparser(CodeWriter& out)
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

    // -----------------------------------------------------------------------------------
    // File framing
    // -----------------------------------------------------------------------------------

    std::string HeaderText() const
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

    std::string SourcePrologue() const
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

    std::string SourceEpilogue(uint64_t hash) const
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

    // -----------------------------------------------------------------------------------
    // State
    // -----------------------------------------------------------------------------------

    const Program& m_program;
    const CppBackendOptions& m_options;
    Diagnostics& m_diags;
    bool m_failed = false;

    const ParserDecl* m_parser = nullptr;
    const ControlDecl* m_verify = nullptr;
    const ControlDecl* m_ingress = nullptr;
    const ControlDecl* m_egress = nullptr;
    const ControlDecl* m_compute = nullptr;
    const ControlDecl* m_deparser = nullptr;
    std::vector<const ControlDecl*> m_controls;
    const StructLikeDecl* m_hdrType = nullptr;
    const StructLikeDecl* m_metaType = nullptr;
    const StructLikeDecl* m_smType = nullptr;
    std::set<const Declaration*> m_packetParams;
    const ActionDecl* m_noAction = nullptr;

    std::map<std::string, uint32_t> m_errorCodes;
    std::map<const Declaration*, uint32_t> m_errorOfMember;
    std::map<const Declaration*, const EnumDecl*> m_enumOf;
    /// Every constant's folded value (nullopt: inlined at each use), and its inlined size.
    std::map<const ConstDecl*, std::optional<uint64_t>> m_constValues;
    std::map<const ConstDecl*, size_t> m_constSizes;
    bool m_constantTooLarge = false;

    std::map<const Declaration*, std::string> m_names;
    std::vector<std::pair<const VariableDecl*, std::string>> m_blockVariables;
    std::map<const Declaration*, std::string> m_stateLabels;
    std::vector<ActionInfo> m_actions;
    std::map<const Declaration*, size_t> m_actionIndex;
    std::vector<TableInfo> m_tables;
    std::map<const Declaration*, size_t> m_tableIndex;
    std::map<const Declaration*, ExternInfo> m_externs;
    std::vector<const InstanceDecl*> m_externOrder;

    Context m_context = Context::Control;
    std::vector<std::string> m_pre;
    int m_conditional = 0;
    unsigned m_tempCount = 0;
    unsigned m_maxEmitBytes = 0;
    unsigned m_wideConstantCount = 0;
    CodeWriter m_constants;
};

} // namespace

std::optional<CppCode>
GenerateCpp(const ast::Program& program, const CppBackendOptions& options, Diagnostics& diags)
{
    return Generator(program, options, diags).Run();
}

std::optional<std::string>
GenerateLibraryContract(const ast::Program& program, const CppBackendOptions& options,
                        Diagnostics& diags)
{
    return Generator(program, options, diags).RunLibrary();
}

} // namespace incsim::p4
