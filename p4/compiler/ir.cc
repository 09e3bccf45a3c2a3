// The IR's lookups and its text form (DumpIr, `incsim p4 compile --dump-ir`).

#include "p4/compiler/ir.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace incsim::p4::ir
{

using namespace ast;

namespace
{

template <typename T>
const T*
Lookup(const std::vector<T>& objects, const std::map<const Declaration*, size_t>& index,
       const Declaration* decl)
{
    const auto found = index.find(decl);
    return found != index.end() ? &objects[found->second] : nullptr;
}

const char*
RuntimeName(ExternRuntime runtime)
{
    switch (runtime)
    {
    case ExternRuntime::Register:
        return "Register";
    case ExternRuntime::Counter:
        return "Counter";
    case ExternRuntime::Verify:
        return "Verify";
    case ExternRuntime::MarkToDrop:
        return "MarkToDrop";
    case ExternRuntime::Hash:
        return "Hash";
    case ExternRuntime::UpdateChecksum:
        return "UpdateChecksum";
    case ExternRuntime::VerifyChecksum:
        return "VerifyChecksum";
    case ExternRuntime::Clone:
        return "Clone";
    case ExternRuntime::ClonePreservingFieldList:
        return "ClonePreservingFieldList";
    case ExternRuntime::ResubmitPreservingFieldList:
        return "ResubmitPreservingFieldList";
    case ExternRuntime::RecirculatePreservingFieldList:
        return "RecirculatePreservingFieldList";
    case ExternRuntime::Truncate:
        return "Truncate";
    case ExternRuntime::LogMsg:
        return "LogMsg";
    case ExternRuntime::Unsupported:
        break;
    }
    return "Unsupported";
}

const char*
SlotName(ArchSlot slot)
{
    switch (slot)
    {
    case ArchSlot::Packet:
        return "packet";
    case ArchSlot::Headers:
        return "headers";
    case ArchSlot::Metadata:
        return "metadata";
    case ArchSlot::Intrinsic:
        break;
    }
    return "intrinsic";
}

/// Writes the IR as text: objects in their IR order, bodies as statements whose expressions
/// carry their types, constants folded and references by IR object.
class Dumper
{
  public:
    explicit Dumper(const Program& program)
        : m_ir(program)
    {
    }

    std::string Run()
    {
        const Architecture& arch = *m_ir.binding.architecture;
        Line(0, fmt::format("architecture {} (package {})", arch.name, arch.package));
        for (size_t i = 0; i < arch.blocks.size(); ++i)
        {
            Line(1, fmt::format("block {}: {}", arch.blocks[i].role, m_ir.binding.blocks[i]->name));
        }
        for (const auto& [slot, type] : m_ir.binding.types)
        {
            Line(1, fmt::format("slot {}: {}", SlotName(slot), type ? type->name : "?"));
        }
        std::vector<std::pair<uint32_t, std::string>> errors;
        for (const auto& [name, code] : m_ir.constants.ErrorCodes())
        {
            errors.emplace_back(code, name);
        }
        std::sort(errors.begin(), errors.end());
        for (const auto& [code, name] : errors)
        {
            Line(0, fmt::format("error.{} = {}", name, code));
        }
        for (const ConstDecl* constant : m_ir.constDecls)
        {
            const auto value = m_ir.constants.Folded(constant);
            Line(0, fmt::format("const {}: {} = {}", constant->name, TypeText(constant->type.get()),
                                value ? Folded(*value) : "(inlined at each use) " +
                                                             Expr(*constant->value)));
        }
        for (size_t i = 0; i < m_ir.externs.size(); ++i)
        {
            const Extern& object = m_ir.externs[i];
            Line(0, fmt::format("extern#{} {}: {}{}[{}]{}", i, object.controlPlaneName,
                                RuntimeName(object.runtime),
                                object.width ? fmt::format("<bit<{}>>", object.width) : "",
                                object.size,
                                object.counterType.empty() ? "" : " " + object.counterType));
        }
        for (size_t i = 0; i < m_ir.actions.size(); ++i)
        {
            const Action& action = m_ir.actions[i];
            std::string params;
            for (const auto& param : action.decl->params)
            {
                const std::string direction = ToString(param->direction);
                params += fmt::format("{}{}{} {}", params.empty() ? "" : ", ",
                                      direction.empty() ? "" : direction + " ",
                                      TypeText(param->type.get()), param->name);
            }
            Line(0, fmt::format("action#{} {}({}){}", i, action.controlPlaneName, params,
                                action.mayExit ? " may-exit" : ""));
            Statements(action.decl->body->statements, 1);
        }
        for (size_t i = 0; i < m_ir.tables.size(); ++i)
        {
            Table(i);
        }
        for (size_t i = 0; i < m_ir.variables.size(); ++i)
        {
            const Variable& variable = m_ir.variables[i];
            Line(0, fmt::format("variable#{} {}.{}: {}{}", i, variable.block, variable.decl->name,
                                TypeText(variable.decl->type.get()),
                                variable.decl->initializer
                                    ? " = " + Expr(*variable.decl->initializer)
                                    : ""));
        }
        if (m_ir.parser)
        {
            Line(0, "parser " + m_ir.parser->name);
            for (size_t i = 0; i < m_ir.states.size(); ++i)
            {
                State(i);
            }
        }
        for (const ControlDecl* control : m_ir.controls)
        {
            Line(0, "control " + control->name);
            Statements(control->apply->statements, 1);
        }
        for (size_t i = 0; i < arch.blocks.size(); ++i)
        {
            const auto* deparser = m_ir.binding.blocks[i]->As<ControlDecl>();
            if (arch.blocks[i].kind == BlockKind::Deparser && deparser)
            {
                Line(0, "deparser " + deparser->name);
                Statements(deparser->apply->statements, 1);
            }
        }
        return m_out;
    }

  private:
    void Line(int indent, const std::string& text)
    {
        m_out += std::string(indent * 4, ' ') + text + "\n";
    }

    static std::string TypeText(const Type* type) { return type ? ToString(*type) : "?"; }

    static std::string Folded(uint64_t value) { return fmt::format("0x{:x}", value); }

    std::string Typed(const std::string& text, const Expression& expression) const
    {
        return text + ": " + TypeText(expression.type);
    }

    /// `action#2 MyIngress.drop`, `table#0 ...`, `extern#1 ...`, or the name.
    std::string Reference(const Declaration* decl, const std::string& name) const
    {
        if (const auto found = m_ir.actionIndex.find(decl); found != m_ir.actionIndex.end())
        {
            return fmt::format("action#{} {}", found->second,
                               m_ir.actions[found->second].controlPlaneName);
        }
        if (const auto found = m_ir.tableIndex.find(decl); found != m_ir.tableIndex.end())
        {
            return fmt::format("table#{} {}", found->second,
                               m_ir.tables[found->second].controlPlaneName);
        }
        if (const auto found = m_ir.externIndex.find(decl); found != m_ir.externIndex.end())
        {
            return fmt::format("extern#{} {}", found->second,
                               m_ir.externs[found->second].controlPlaneName);
        }
        return name;
    }

    std::string Args(const PtrList<Argument>& args) const
    {
        std::string text;
        for (const auto& argument : args)
        {
            text += (text.empty() ? "" : ", ") +
                    (argument->name.empty() ? "" : argument->name + " = ") +
                    (argument->value ? Expr(*argument->value) : "_");
        }
        return text;
    }

    std::string Expr(const Expression& expression) const
    {
        // Anything that folds prints folded, but for enum members and errors, which keep
        // their names, and keysets and defaults, which have no value.
        if (!expression.Is<DefaultExpr>() && !expression.Is<DontCareExpr>() &&
            !expression.Is<BoolLiteral>() && !expression.Is<MemberExpr>() && expression.type)
        {
            if (const auto value = m_ir.constants.Evaluate(expression))
            {
                return Typed(Folded(*value), expression);
            }
        }
        if (const auto* literal = expression.As<IntegerLiteral>())
        {
            return Typed("0x" + literal->value.ToString(16), expression);
        }
        if (const auto* boolean = expression.As<BoolLiteral>())
        {
            return boolean->value ? "true" : "false";
        }
        if (const auto* text = expression.As<StringLiteral>())
        {
            return ToString(*text);
        }
        if (const auto* name = expression.As<NameExpr>())
        {
            return Typed(Reference(name->resolved, name->name), expression);
        }
        if (expression.Is<MemberExpr>() || expression.Is<IndexExpr>())
        {
            return Typed(Path(expression), expression);
        }
        if (const auto* slice = expression.As<SliceExpr>())
        {
            return Typed(fmt::format("{}[{}:{}]", Expr(*slice->object), Bound(*slice->high),
                                     Bound(*slice->low)),
                         expression);
        }
        if (const auto* unary = expression.As<UnaryExpr>())
        {
            return Typed(fmt::format("({}{})", ToString(unary->op), Expr(*unary->operand)),
                         expression);
        }
        if (const auto* binary = expression.As<BinaryExpr>())
        {
            return Typed(fmt::format("({} {} {})", Expr(*binary->left), ToString(binary->op),
                                     Expr(*binary->right)),
                         expression);
        }
        if (const auto* ternary = expression.As<TernaryExpr>())
        {
            return Typed(fmt::format("({} ? {} : {})", Expr(*ternary->condition),
                                     Expr(*ternary->ifTrue), Expr(*ternary->ifFalse)),
                         expression);
        }
        if (const auto* cast = expression.As<CastExpr>())
        {
            return Typed(fmt::format("(({}) {})", TypeText(cast->target.get()),
                                     Expr(*cast->operand)),
                         expression);
        }
        if (const auto* call = expression.As<CallExpr>())
        {
            return Typed(Callee(*call->callee) + "(" + Args(call->args) + ")", expression);
        }
        if (const auto* list = expression.As<ListExpr>())
        {
            std::string text;
            for (const auto& element : list->elements)
            {
                text += (text.empty() ? "" : ", ") + Expr(*element);
            }
            return "{" + text + "}";
        }
        if (const auto* structExpr = expression.As<StructExpr>())
        {
            std::string text;
            for (const auto& field : structExpr->fields)
            {
                text += (text.empty() ? "" : ", ") + field->name + " = " + Expr(*field->value);
            }
            return Typed("{" + text + "}", expression);
        }
        if (expression.Is<DefaultExpr>())
        {
            return "default";
        }
        if (expression.Is<DontCareExpr>())
        {
            return "_";
        }
        return ToString(expression);
    }

    /// A chain of names, members and indices (`hdr.ipv4.ttl`, `hdr.stack[1]`) without the
    /// types of its inner links, IR objects by reference; anything else typed.
    std::string Path(const Expression& object) const
    {
        if (const auto* name = object.As<NameExpr>())
        {
            return Reference(name->resolved, name->name);
        }
        if (const auto* member = object.As<MemberExpr>())
        {
            return Path(*member->object) + "." + member->member;
        }
        if (const auto* index = object.As<IndexExpr>())
        {
            return Path(*index->object) + "[" + Bound(*index->index) + "]";
        }
        return Expr(object);
    }

    /// A slice bound or a stack index: the number when it folds.
    std::string Bound(const Expression& bound) const
    {
        const auto value = m_ir.constants.Evaluate(bound);
        return value ? std::to_string(*value) : Expr(bound);
    }

    /// What a call calls: an IR object's method, an action, an extern function with the
    /// runtime kind that implements it.
    std::string Callee(const Expression& callee) const
    {
        if (const auto* member = callee.As<MemberExpr>())
        {
            return Path(*member->object) + "." + member->member;
        }
        if (const auto* name = callee.As<NameExpr>())
        {
            const auto* function = name->resolved ? name->resolved->As<FunctionDecl>() : nullptr;
            if (function)
            {
                const ArchitectureExtern* known =
                    m_ir.binding.architecture->FindExtern(function->name);
                return fmt::format("extern {}[{}]", function->name,
                                   RuntimeName(known ? known->runtime
                                                     : ExternRuntime::Unsupported));
            }
            return Reference(name->resolved, name->name);
        }
        return Expr(callee);
    }

    void Statements(const PtrList<Statement>& statements, int indent)
    {
        for (const auto& statement : statements)
        {
            Statement(*statement, indent);
        }
    }

    void Statement(const ast::Statement& statement, int indent)
    {
        if (const auto* block = statement.As<BlockStmt>())
        {
            Line(indent, "{");
            Statements(block->statements, indent + 1);
            Line(indent, "}");
        }
        else if (const auto* assign = statement.As<AssignStmt>())
        {
            Line(indent, Expr(*assign->left) + " = " + Expr(*assign->right));
        }
        else if (const auto* call = statement.As<CallStmt>())
        {
            Line(indent, Callee(*call->call->callee) + "(" + Args(call->call->args) + ")");
        }
        else if (const auto* ifStmt = statement.As<IfStmt>())
        {
            Line(indent, "if " + Expr(*ifStmt->condition));
            Branch(*ifStmt->thenBranch, indent + 1);
            if (ifStmt->elseBranch)
            {
                Line(indent, "else");
                Branch(*ifStmt->elseBranch, indent + 1);
            }
        }
        else if (const auto* switchStmt = statement.As<SwitchStmt>())
        {
            Line(indent, "switch " + Expr(*switchStmt->expression));
            for (const auto& switchCase : switchStmt->cases)
            {
                Line(indent + 1, "case " + (switchCase->label->Is<DefaultExpr>()
                                                ? std::string("default")
                                                : Path(*switchCase->label)) +
                                     (switchCase->body ? "" : " (falls through)"));
                if (switchCase->body)
                {
                    Statements(switchCase->body->statements, indent + 2);
                }
            }
        }
        else if (statement.Is<ExitStmt>())
        {
            Line(indent, "exit");
        }
        else if (const auto* returnStmt = statement.As<ReturnStmt>())
        {
            Line(indent, returnStmt->value ? "return " + Expr(*returnStmt->value) : "return");
        }
        else if (const auto* decl = statement.As<DeclStmt>())
        {
            if (const auto* variable = decl->declaration->As<VariableDecl>())
            {
                Line(indent, fmt::format("var {}: {}{}", variable->name,
                                         TypeText(variable->type.get()),
                                         variable->initializer
                                             ? " = " + Expr(*variable->initializer)
                                             : ""));
            }
            else if (const auto* constant = decl->declaration->As<ConstDecl>())
            {
                Line(indent, fmt::format("const {}: {} = {}", constant->name,
                                         TypeText(constant->type.get()),
                                         Expr(*constant->value)));
            }
        }
        else if (!statement.Is<EmptyStmt>())
        {
            std::ostringstream text;
            Dump(text, statement);
            Line(indent, "(statement) " + text.str());
        }
    }

    /// A branch of an if: a block's statements without its braces.
    void Branch(const ast::Statement& branch, int indent)
    {
        if (const auto* block = branch.As<BlockStmt>())
        {
            Statements(block->statements, indent);
        }
        else
        {
            Statement(branch, indent);
        }
    }

    void Table(size_t i)
    {
        const ir::Table& table = m_ir.tables[i];
        Line(0, fmt::format("table#{} {}{}", i, table.controlPlaneName,
                            table.mayExit ? " may-exit" : ""));
        if (const auto* key = table.decl->Key())
        {
            for (const auto& element : key->keys)
            {
                Line(1, fmt::format("key {} {}", Expr(*element->expression), element->matchKind));
            }
        }
        for (const TableAction& row : table.actions)
        {
            Line(1, fmt::format("action#{} {} {}{}", row.action,
                                m_ir.actions[row.action].controlPlaneName, row.scope,
                                row.ref && row.ref->hasArgList && !row.ref->args.empty()
                                    ? " bound (" + Args(row.ref->args) + ")"
                                    : ""));
        }
        if (const auto* defaultAction = table.decl->DefaultAction();
            defaultAction && defaultAction->defaultAction)
        {
            const ActionRef& ref = *defaultAction->defaultAction;
            Line(1, fmt::format("default {}{}({})", defaultAction->isConst ? "const " : "",
                                Reference(ref.action->resolved, ref.action->name),
                                Args(ref.args)));
        }
        if (const auto* entries = table.decl->Entries())
        {
            for (const auto& entry : entries->entries)
            {
                std::string keys;
                for (const auto& key : entry->keys)
                {
                    keys += (keys.empty() ? "" : ", ") + Expr(*key);
                }
                Line(1, fmt::format("entry ({}) -> {}({})", keys,
                                    Reference(entry->action->action->resolved,
                                              entry->action->action->name),
                                    Args(entry->action->args)));
            }
        }
        if (const auto* size = table.decl->Size(); size && size->value)
        {
            Line(1, "size " + Expr(*size->value));
        }
    }

    std::string TargetText(const Target& target) const
    {
        switch (target.kind)
        {
        case Target::Kind::State:
            return fmt::format("state#{} {}", target.state, m_ir.states[target.state].decl->name);
        case Target::Kind::Accept:
            return "accept";
        case Target::Kind::Reject:
            break;
        }
        return "reject";
    }

    void State(size_t i)
    {
        const ir::State& state = m_ir.states[i];
        Line(1, fmt::format("state#{} {}", i, state.decl->name));
        Statements(state.decl->statements, 2);
        const Transition& transition = state.transition;
        if (!transition.isSelect)
        {
            Line(2, "-> " + TargetText(transition.target) +
                        (transition.source ? "" : " (no transition)"));
            return;
        }
        std::string selectors;
        for (const Expression* selector : transition.selectors)
        {
            selectors += (selectors.empty() ? "" : ", ") + Expr(*selector);
        }
        Line(2, "-> select (" + selectors + ")");
        for (const SelectCase& selectCase : transition.cases)
        {
            std::string keysets;
            for (const Expression* keyset : selectCase.keysets)
            {
                keysets += (keysets.empty() ? "" : ", ") + Expr(*keyset);
            }
            Line(3, (selectCase.isDefault ? std::string("default") : "(" + keysets + ")") +
                        " -> " + TargetText(selectCase.target));
        }
    }

    const Program& m_ir;
    std::string m_out;
};

} // namespace

const Action*
Program::ActionOf(const Declaration* decl) const
{
    return Lookup(actions, actionIndex, decl);
}

const Table*
Program::TableOf(const Declaration* decl) const
{
    return Lookup(tables, tableIndex, decl);
}

const Extern*
Program::ExternOf(const Declaration* decl) const
{
    return Lookup(externs, externIndex, decl);
}

std::string
DumpIr(const Program& program)
{
    return Dumper(program).Run();
}

} // namespace incsim::p4::ir
