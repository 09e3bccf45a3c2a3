// Statements, action calls, method-call dispatch, action and control bodies.

#include "p4/compiler/backend-generator.h"

namespace incsim::p4::backend
{

void
Generator::Statement(const ast::Statement& statement, CodeWriter& out)
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

void
Generator::LocalDeclaration(const Declaration& declaration, CodeWriter& out)
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

void
Generator::Switch(const SwitchStmt& switchStmt, CodeWriter& out)
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

const Expression*
Generator::Argument(const CallExpr& call, const PtrList<Parameter>& params, size_t i)
{
    return Argument(call.args, params, i);
}

const Expression*
Generator::Argument(const PtrList<ast::Argument>& args, const PtrList<Parameter>& params, size_t i)
{
    return ArgumentFor(args, params, i);
}

void
Generator::CallStatement(const CallExpr& call, CodeWriter& out)
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

void
Generator::ActionCall(const CallExpr& call, const ActionDecl& action, CodeWriter& out)
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

void
Generator::InvokeAction(const ActionDecl& action, const PtrList<ast::Argument>& args,
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

void
Generator::MethodCall(const CallExpr& call, const MemberExpr& member, CodeWriter& out)
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
    if (info.kind == ExternRuntime::Counter && method == "count" && call.args.size() == 1)
    {
        const std::string index = Value(*call.args[0]->value);
        Flush(out);
        out.Line(fmt::format("{}.Count({}, md.packetLength);", info.member, index));
        return;
    }
    if (info.kind == ExternRuntime::Register && method == "read" && call.args.size() == 2)
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
    if (info.kind == ExternRuntime::Register && method == "write" && call.args.size() == 2)
    {
        const std::string index = Value(*call.args[0]->value);
        const std::string value = Operand(*call.args[1]->value, info.width);
        Flush(out);
        out.Line(fmt::format("{}.Write({}, {});", info.member, index, value));
        return;
    }
    Unsupported(call.location, "method '" + method + "'");
}

void
Generator::EmitAction(const ActionInfo& action, CodeWriter& out)
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

void
Generator::InitializeBlockVariables(const PtrList<Declaration>& locals, CodeWriter& out)
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

void
Generator::EmitControl(const ControlDecl& control, CodeWriter& out)
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

} // namespace incsim::p4::backend
