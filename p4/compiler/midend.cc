#include "p4/compiler/midend.h"

#include "p4/compiler/diagnostics.h"

#include <fmt/format.h>

#include <algorithm>

namespace incsim::p4
{

using namespace ast;

namespace
{

/// Builds the IR: binds the architecture, folds the constants, collects and numbers the
/// objects in declaration order (the numbers the back end names them by), then makes the
/// parser's control flow explicit. Errors are reported in that order.
class Lowering
{
  public:
    Lowering(const Program& program, const SourceLocation& whole, Diagnostics& diags,
             const std::vector<const Architecture*>& architectures, ir::Program& lowered)
        : m_program(program),
          m_whole(whole),
          m_diags(diags),
          m_architectures(architectures),
          m_ir(lowered)
    {
    }

    /// False after errors.
    bool Run()
    {
        m_failed = !m_ir.constants.Collect(m_program, m_diags);
        for (const char* name : {"NoError", "PacketTooShort", "NoMatch", "StackOutOfBounds"})
        {
            if (!m_ir.constants.ErrorCodes().count(name))
            {
                Fail(m_whole, std::string("core.p4 does not declare error.") + name);
            }
        }
        auto binding = BindArchitecture(m_program, m_architectures, m_whole, m_diags);
        if (!binding || m_failed)
        {
            return false;
        }
        m_ir.binding = std::move(*binding);
        BlocksInOrder();
        // Lowering passes that rewrite the AST's blocks before they are numbered go here:
        // inlining functions and sub-controls/sub-parsers, header_union, varbit (ir.h).
        for (const auto& decl : m_program.declarations)
        {
            if (decl->IsSystem())
            {
                continue;
            }
            if (const auto* constant = decl->As<ConstDecl>())
            {
                m_ir.constDecls.push_back(constant);
            }
            else if (const auto* instance = decl->As<InstanceDecl>())
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
                m_ir.noAction = decl->As<ActionDecl>();
                CollectAction(*m_ir.noAction, "");
            }
        }
        if (m_ir.parser)
        {
            CollectParser(*m_ir.parser);
        }
        for (const ControlDecl* control : m_ir.controls)
        {
            CollectControl(*control);
        }
        for (ir::State& state : m_ir.states)
        {
            state.transition = LowerTransition(state.decl->transition.get());
        }
        return !m_failed;
    }

  private:
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

    /// The parser and the controls with objects, in the architecture's order, each once.
    void BlocksInOrder()
    {
        const auto& roles = m_ir.binding.architecture->blocks;
        for (size_t i = 0; i < roles.size(); ++i)
        {
            const Declaration* block = m_ir.binding.blocks[i];
            if (roles[i].kind == BlockKind::Parser && !m_ir.parser)
            {
                m_ir.parser = block->As<ParserDecl>();
            }
            else if (roles[i].kind == BlockKind::Control)
            {
                const auto* control = block->As<ControlDecl>();
                if (std::find(m_ir.controls.begin(), m_ir.controls.end(), control) ==
                    m_ir.controls.end())
                {
                    m_ir.controls.push_back(control);
                }
            }
        }
    }

    std::string Qualified(const std::string& prefix, const std::string& name) const;
    void CollectInstance(const InstanceDecl& instance, const std::string& prefix);
    void CollectAction(const ActionDecl& action, const std::string& prefix);
    /// Whether running `node` may execute `exit`: directly, or by calling an action that may
    /// (actions are declared before use, so those are collected already).
    bool MayExit(const Node& node) const;
    void CollectParser(const ParserDecl& parser);
    void CollectControl(const ControlDecl& control);
    /// Variables and constants declared at block level, and extern instances.
    void CollectBlockLocal(const Declaration& local, const std::string& block);
    void CollectTable(const TableDecl& table, const ControlDecl& control);

    ir::Target TargetOf(const NameExpr& name) const
    {
        if (const auto found = m_ir.stateIndex.find(name.resolved);
            found != m_ir.stateIndex.end())
        {
            return {ir::Target::Kind::State, found->second};
        }
        return {name.name == "accept" ? ir::Target::Kind::Accept : ir::Target::Kind::Reject, 0};
    }

    /// The transition as explicit edges. Malformed selects (a case with the wrong number of
    /// keys) are kept as written; the back end reports them where it generates the case.
    ir::Transition LowerTransition(const TransitionStmt* transition) const
    {
        ir::Transition lowered;
        lowered.source = transition;
        if (!transition)
        {
            return lowered;
        }
        if (const auto* name = transition->target->As<NameExpr>())
        {
            lowered.target = TargetOf(*name);
            return lowered;
        }
        const auto* select = transition->target->As<SelectExpr>();
        if (!select)
        {
            return lowered;
        }
        lowered.isSelect = true;
        for (const auto& selector : select->selectors)
        {
            lowered.selectors.push_back(selector.get());
        }
        for (const auto& selectCase : select->cases)
        {
            ir::SelectCase lowCase;
            lowCase.source = selectCase.get();
            for (const auto& key : selectCase->keys)
            {
                lowCase.keysets.push_back(key.get());
            }
            // (a, b) as one tuple keyset for two selectors: one keyset per selector.
            if (lowCase.keysets.size() == 1 && lowered.selectors.size() > 1 &&
                lowCase.keysets[0]->Is<ListExpr>())
            {
                const auto* list = lowCase.keysets[0]->As<ListExpr>();
                lowCase.keysets.clear();
                for (const auto& element : list->elements)
                {
                    lowCase.keysets.push_back(element.get());
                }
            }
            lowCase.isDefault = lowCase.keysets.size() == 1 &&
                                (lowCase.keysets[0]->Is<DefaultExpr>() ||
                                 lowCase.keysets[0]->Is<DontCareExpr>());
            lowCase.target = TargetOf(*selectCase->state);
            lowered.cases.push_back(lowCase);
        }
        return lowered;
    }

    const Program& m_program;
    SourceLocation m_whole;
    Diagnostics& m_diags;
    const std::vector<const Architecture*>& m_architectures;
    ir::Program& m_ir;
    bool m_failed = false;
};

std::string
Lowering::Qualified(const std::string& prefix, const std::string& name) const
{
    return prefix.empty() ? name : prefix + "." + name;
}

void
Lowering::CollectInstance(const InstanceDecl& instance, const std::string& prefix)
{
    const auto* typeName = Canon(instance.type.get())->As<NamedType>();
    const Declaration* decl = NamedDecl(instance.type.get());
    const std::string externName = decl ? decl->name : "";
    const ArchitectureExtern* known = m_ir.binding.architecture->FindExtern(externName);
    const ExternRuntime runtime = known ? known->runtime : ExternRuntime::Unsupported;
    ir::Extern info;
    info.decl = &instance;
    info.controlPlaneName = Qualified(prefix, instance.name);
    // A version of the architecture may add an index type (v1model 20200408: register<T, I>,
    // counter<I>).
    const size_t indexArg = known ? known->indexTypeArg : 0;
    if (typeName && typeName->typeArgs.size() == indexArg + 1 &&
        (runtime == ExternRuntime::Register || runtime == ExternRuntime::Counter))
    {
        const Type& index = *typeName->typeArgs[indexArg];
        const uint32_t width = ScalarWidth(&index);
        if (width == 0 || width > 64 || !Canon(&index)->Is<BitsType>())
        {
            Unsupported(instance.location, "an index of type " + ToString(index));
            return;
        }
    }
    if (runtime == ExternRuntime::Register && typeName &&
        (typeName->typeArgs.size() == 1 || typeName->typeArgs.size() == 2) &&
        instance.args.size() == 1)
    {
        info.runtime = ExternRuntime::Register;
        info.width = ScalarWidth(typeName->typeArgs[0].get());
        if (info.width == 0)
        {
            Unsupported(instance.location, "a register of " +
                                               ToString(*typeName->typeArgs[0]));
        }
    }
    else if (runtime == ExternRuntime::Counter && instance.args.size() == 2)
    {
        info.runtime = ExternRuntime::Counter;
        const auto* type = instance.args[1]->value->As<MemberExpr>();
        const std::string kind = type ? type->member : "";
        info.counterType = kind == "packets"  ? "Packets"
                           : kind == "bytes" ? "Bytes"
                                             : "PacketsAndBytes";
    }
    else
    {
        Unsupported(instance.location, "extern '" + externName + "'",
                    known ? known->reason : "");
        return;
    }
    const auto size = m_ir.constants.Evaluate(*instance.args[0]->value);
    if (!size || *size == 0)
    {
        Fail(instance.args[0]->value->location,
             "the size of '" + instance.name + "' must be a positive constant");
        return;
    }
    info.size = *size;
    m_ir.externIndex[&instance] = m_ir.externs.size();
    m_ir.externs.push_back(info);
}

void
Lowering::CollectAction(const ActionDecl& action, const std::string& prefix)
{
    if (m_ir.actionIndex.count(&action))
    {
        return;
    }
    ir::Action info;
    info.decl = &action;
    info.controlPlaneName = Qualified(prefix, action.name);
    info.mayExit = MayExit(*action.body);
    m_ir.actionIndex[&action] = m_ir.actions.size();
    m_ir.actions.push_back(info);
}

bool
Lowering::MayExit(const Node& node) const
{
    if (node.Is<ExitStmt>())
    {
        return true;
    }
    if (const auto* call = node.As<CallExpr>())
    {
        const auto* name = call->callee->As<NameExpr>();
        const auto found = name ? m_ir.actionIndex.find(name->resolved) : m_ir.actionIndex.end();
        if (found != m_ir.actionIndex.end() && m_ir.actions[found->second].mayExit)
        {
            return true;
        }
    }
    bool found = false;
    ForEachChild(node, [&](const Node& child) { found = found || MayExit(child); });
    return found;
}

void
Lowering::CollectParser(const ParserDecl& parser)
{
    for (const auto& local : parser.locals)
    {
        CollectBlockLocal(*local, parser.name);
    }
    for (const auto& state : parser.states)
    {
        m_ir.stateIndex[state.get()] = m_ir.states.size();
        m_ir.states.push_back({state.get(), {}});
    }
}

void
Lowering::CollectControl(const ControlDecl& control)
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
Lowering::CollectBlockLocal(const Declaration& local, const std::string& block)
{
    if (const auto* variable = local.As<VariableDecl>())
    {
        m_ir.variables.push_back({variable, block});
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
Lowering::CollectTable(const TableDecl& table, const ControlDecl& control)
{
    ir::Table info;
    info.decl = &table;
    info.control = &control;
    info.controlPlaneName = Qualified(control.name, table.name);
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
            if (!action || !m_ir.actionIndex.count(action))
            {
                Fail(ref->location, "internal: table action is not an action");
                continue;
            }
            const size_t index = m_ir.actionIndex.at(action);
            info.actions.push_back({index, ref.get(),
                                    FindAnnotation(ref->annotations, "defaultonly") ? "DefaultOnly"
                                    : FindAnnotation(ref->annotations, "tableonly")
                                        ? "TableOnly"
                                        : "TableAndDefault"});
            info.mayExit = info.mayExit || m_ir.actions[index].mayExit;
        }
    }
    const auto isNoAction = [&](const ir::TableAction& row) {
        return m_ir.actions[row.action].decl == m_ir.noAction;
    };
    if (!table.DefaultAction() && m_ir.noAction &&
        std::none_of(info.actions.begin(), info.actions.end(), isNoAction))
    {
        info.actions.push_back({m_ir.actionIndex.at(m_ir.noAction), nullptr, "DefaultOnly"});
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
    m_ir.tableIndex[&table] = m_ir.tables.size();
    m_ir.tables.push_back(info);
}

} // namespace

std::unique_ptr<ir::Program>
LowerProgram(const ast::Program& program, const SourceLocation& whole, Diagnostics& diags,
             const std::vector<const Architecture*>& architectures)
{
    auto lowered = std::make_unique<ir::Program>();
    if (!Lowering(program, whole, diags, architectures, *lowered).Run())
    {
        return nullptr;
    }
    return lowered;
}

} // namespace incsim::p4
