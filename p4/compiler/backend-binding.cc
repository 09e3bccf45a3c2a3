// Collection: binds the architecture's blocks and names every object (actions, tables, externs,
// parser states, block variables).

#include "p4/compiler/backend-generator.h"

namespace incsim::p4::backend
{

void
Generator::CollectConstants()
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

void
Generator::Collect()
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

SourceLocation
Generator::WholeProgram() const
{
    return {m_diags.Sources().Get(m_options.sourcePath)};
}

void
Generator::BindArchitecture()
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

void
Generator::BindSlot(const Parameter& user, const Parameter& arch)
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

std::string
Generator::Qualified(const std::string& prefix, const std::string& name) const
{
    return prefix.empty() ? name : prefix + "." + name;
}

void
Generator::CollectInstance(const InstanceDecl& instance, const std::string& prefix)
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

void
Generator::CollectAction(const ActionDecl& action, const std::string& prefix)
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

bool
Generator::MayExit(const Node& node) const
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

void
Generator::CollectParser(const ParserDecl& parser)
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

void
Generator::CollectControl(const ControlDecl& control)
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

void
Generator::CollectBlockLocal(const Declaration& local, const std::string& block)
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

void
Generator::CollectTable(const TableDecl& table, const ControlDecl& control)
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

} // namespace incsim::p4::backend
