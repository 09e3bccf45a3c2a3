#include "p4/compiler/midend-inline.h"

#include "p4/compiler/checker.h"
#include "p4/compiler/diagnostics.h"

#include <algorithm>
#include <set>

namespace incsim::p4
{

using namespace ast;

namespace
{

using Statements = PtrList<Statement>;

/// The function with a body that `call` calls, if it calls one.
const FunctionDecl*
InlinedFunction(const CallExpr& call)
{
    const auto* name = call.callee->As<NameExpr>();
    const auto* function = name && name->resolved ? name->resolved->As<FunctionDecl>() : nullptr;
    return function && function->body ? function : nullptr;
}

/// The control or parser that `instance` instantiates, if it is one.
const Declaration*
BlockOf(const InstanceDecl& instance)
{
    const Declaration* decl = NamedDecl(instance.type.get());
    return decl && (decl->Is<ControlDecl>() || decl->Is<ParserDecl>()) ? decl : nullptr;
}

/// Whether `param` (a constructor parameter) takes a control or parser instance.
bool
TakesBlock(const Parameter& param)
{
    const Declaration* decl = NamedDecl(param.type.get());
    return decl && (decl->Is<ControlDecl>() || decl->Is<ParserDecl>() ||
                    decl->Is<ControlTypeDecl>() || decl->Is<ParserTypeDecl>());
}

/// The control or parser instance (or the constructor parameter holding one) whose apply
/// `call` is: `inst.apply(...)`.
const Declaration*
AppliedInstance(const CallExpr& call)
{
    const auto* member = call.callee->As<MemberExpr>();
    const auto* object = member ? member->object->As<NameExpr>() : nullptr;
    if (!object || member->member != "apply" || !object->resolved)
    {
        return nullptr;
    }
    if (const auto* instance = object->resolved->As<InstanceDecl>())
    {
        return BlockOf(*instance) ? instance : nullptr;
    }
    const auto* param = object->resolved->As<Parameter>();
    return param && TakesBlock(*param) ? param : nullptr;
}

bool
Contains(const Node& node, const std::function<bool(const Node&)>& test)
{
    if (test(node))
    {
        return true;
    }
    bool found = false;
    ForEachChild(node, [&](const Node& child) { found = found || Contains(child, test); });
    return found;
}

bool
CallsFunction(const Node& node)
{
    return Contains(node, [](const Node& n) {
        const auto* call = n.As<CallExpr>();
        return call && InlinedFunction(*call);
    });
}

bool
ContainsReturn(const Node& node)
{
    return Contains(node, [](const Node& n) { return n.Is<ReturnStmt>(); });
}

bool NeedsReturnFlag(const Statements& statements);

/// Whether a `return` inside `statement` is followed by more statements within it.
bool
NeedsReturnFlag(const Statement& statement)
{
    if (const auto* block = statement.As<BlockStmt>())
    {
        return NeedsReturnFlag(block->statements);
    }
    if (const auto* ifStmt = statement.As<IfStmt>())
    {
        return NeedsReturnFlag(*ifStmt->thenBranch) ||
               (ifStmt->elseBranch && NeedsReturnFlag(*ifStmt->elseBranch));
    }
    if (const auto* switchStmt = statement.As<SwitchStmt>())
    {
        for (const auto& switchCase : switchStmt->cases)
        {
            if (switchCase->body && NeedsReturnFlag(switchCase->body->statements))
            {
                return true;
            }
        }
    }
    return false;
}

/// Whether a `return` in `statements` (or nested in them) is followed by more statements, so
/// that the inlined body needs a flag to skip them.
bool
NeedsReturnFlag(const Statements& statements)
{
    for (size_t i = 0; i < statements.size(); ++i)
    {
        const Statement& statement = *statements[i];
        if ((i + 1 < statements.size() && !statement.Is<ReturnStmt>() &&
             ContainsReturn(statement)) ||
            NeedsReturnFlag(statement))
        {
            return true;
        }
    }
    return false;
}

/// The name an lvalue or argument is rooted at (`hdr` of `hdr.ipv4.ttl`), or nullptr.
const NameExpr*
RootName(const Expression& expression)
{
    if (const auto* name = expression.As<NameExpr>())
    {
        return name;
    }
    if (const auto* member = expression.As<MemberExpr>())
    {
        return RootName(*member->object);
    }
    if (const auto* index = expression.As<IndexExpr>())
    {
        return RootName(*index->object);
    }
    if (const auto* slice = expression.As<SliceExpr>())
    {
        return RootName(*slice->object);
    }
    return nullptr;
}

/// Parameters of extern types (packet_in, packet_out, externs): bound to their argument, never
/// copied.
bool
IsExternParameter(const Parameter& param)
{
    const Declaration* decl = NamedDecl(param.type.get());
    return decl && decl->Is<ExternDecl>();
}

struct Instance;

/// What a declaration of the source becomes in the copy: a new name, or an expression (a
/// constructor argument, or the argument a parameter is bound to).
struct Replacement
{
    std::string name;
    const Expression* expression = nullptr;
};

/// The names of one body being copied.
struct Scope
{
    std::map<const Declaration*, Replacement> replace;
    /// Controls and parsers instantiated in this block.
    std::map<const Declaration*, Instance*> instances;
    /// Variables of the block whose initializers run where its body starts (all of an
    /// inlined instance's, so that they see its arguments; a block's own from the first
    /// initializer that calls a function on).
    std::vector<const VariableDecl*> initializedInBody;
    /// Locals declared in statements get fresh names (a function's or a sub-block's body).
    bool renameLocals = false;
    /// `return` assigns returnValue (if any), sets returnFlag (if any) and skips the rest.
    bool inlineReturns = false;
    std::string returnValue;
    std::string returnFlag;
    /// A sub-parser's `accept`: the caller's state that goes on after the call.
    std::string accept;
    /// Fresh names start with it; the control-plane path of the block's objects.
    std::string prefix;
    std::string path;
};

/// A control or parser instantiated inside another block.
struct Instance
{
    const InstanceDecl* decl = nullptr;
    const Declaration* block = nullptr;
    Scope scope;
    /// Per apply parameter: the variable the argument is copied through ("" when bound to it).
    std::vector<std::string> copies;
    PtrList<Expression> owned;
};

const PtrList<Parameter>&
ApplyParams(const Declaration& block)
{
    if (const auto* control = block.As<ControlDecl>())
    {
        return control->params;
    }
    return block.As<ParserDecl>()->params;
}

const PtrList<Parameter>&
ConstructorParams(const Declaration& block)
{
    if (const auto* control = block.As<ControlDecl>())
    {
        return control->constructorParams;
    }
    return block.As<ParserDecl>()->constructorParams;
}

/// Copies the program, inlining as it goes (midend-inline.h).
class Inliner
{
  public:
    Inliner(const Program& program, Diagnostics& diags, InlinedProgram& result)
        : m_program(program),
          m_diags(diags),
          m_result(result)
    {
        for (const auto& decl : program.declarations)
        {
            CollectNames(*decl);
            m_topLevel.insert(decl.get());
        }
    }

    bool Run()
    {
        auto copy = std::make_unique<Program>();
        copy->sources = m_program.sources;
        Scope top;
        m_scope = &top;
        for (const auto& decl : m_program.declarations)
        {
            if (const auto* function = decl->As<FunctionDecl>(); function && function->body)
            {
                continue;
            }
            copy->declarations.push_back(Decl(*decl, nullptr));
        }
        if (m_failed)
        {
            return false;
        }
        m_result.program = std::move(copy);
        return true;
    }

  private:
    void CollectNames(const Node& node)
    {
        if (const auto* decl = node.As<Declaration>())
        {
            m_used.insert(decl->name);
        }
        else if (const auto* name = node.As<NameExpr>())
        {
            m_used.insert(name->name);
        }
        else if (const auto* type = node.As<NamedType>())
        {
            m_used.insert(type->name);
        }
        ForEachChild(node, [&](const Node& child) { CollectNames(child); });
    }

    /// A name used nowhere in the program yet.
    std::string Fresh(const std::string& base)
    {
        std::string name = base;
        size_t& suffix = m_suffixes[base];
        while (m_used.count(name))
        {
            name = base + "_" + std::to_string(++suffix);
        }
        m_used.insert(name);
        return name;
    }

    void Fail(const SourceLocation& location, const std::string& message)
    {
        m_failed = true;
        m_diags.Error(location, message);
    }

    /// Counts one more inlined call or instance; false (after one error) past the limit, so
    /// that calls that each call the next twice cannot blow the program up exponentially.
    bool Expand(const SourceLocation& location)
    {
        if (++m_expansions <= kMaxExpansions)
        {
            return true;
        }
        if (m_expansions == kMaxExpansions + 1)
        {
            Fail(location, "inlining stops here: the program would inline more than " +
                               std::to_string(kMaxExpansions) +
                               " calls and instances (each level of calls that calls the "
                               "next more than once multiplies them)");
        }
        return false;
    }

    std::string Joined(const std::string& prefix, const std::string& name) const
    {
        return prefix.empty() ? name : prefix + "_" + name;
    }

    // --- Building nodes -------------------------------------------------------------------

    static Ptr<Expression> Name(const std::string& name, const SourceLocation& location)
    {
        auto expression = std::make_unique<NameExpr>(location);
        expression->name = name;
        return expression;
    }

    static Ptr<Statement> Assign(Ptr<Expression> left, Ptr<Expression> right,
                                 const SourceLocation& location)
    {
        auto assign = std::make_unique<AssignStmt>(location);
        assign->left = std::move(left);
        assign->right = std::move(right);
        return assign;
    }

    static Ptr<Statement> Declare(Ptr<Type> type, const std::string& name,
                                  Ptr<Expression> initializer, const SourceLocation& location)
    {
        auto variable = std::make_unique<VariableDecl>(location);
        variable->name = name;
        variable->type = std::move(type);
        variable->initializer = std::move(initializer);
        auto statement = std::make_unique<DeclStmt>(location);
        statement->declaration = std::move(variable);
        return statement;
    }

    static Ptr<Expression> Bool(bool value, const SourceLocation& location)
    {
        auto literal = std::make_unique<BoolLiteral>(location);
        literal->value = value;
        return literal;
    }

    static Ptr<Expression> Not(Ptr<Expression> operand, const SourceLocation& location)
    {
        auto expression = std::make_unique<UnaryExpr>(location);
        expression->op = UnaryOp::Not;
        expression->operand = std::move(operand);
        return expression;
    }

    // --- Copying --------------------------------------------------------------------------

    template <typename T, typename F>
    PtrList<T> List(const PtrList<T>& items, F copy)
    {
        PtrList<T> result;
        for (const auto& item : items)
        {
            result.push_back(copy(*item));
        }
        return result;
    }

    Ptr<Type> TypeCopy(const Type* type)
    {
        return type ? TypeCopy(*type) : nullptr;
    }

    Ptr<Type> TypeCopy(const Type& type)
    {
        switch (type.kind)
        {
        case NodeKind::BitsType: {
            const auto& from = static_cast<const BitsType&>(type);
            auto to = std::make_unique<BitsType>(from.location);
            to->isSigned = from.isSigned;
            to->width = from.width;
            to->widthExpr = ExprOrNull(from.widthExpr.get(), nullptr);
            return to;
        }
        case NodeKind::VarbitType: {
            const auto& from = static_cast<const VarbitType&>(type);
            auto to = std::make_unique<VarbitType>(from.location);
            to->width = from.width;
            to->widthExpr = ExprOrNull(from.widthExpr.get(), nullptr);
            return to;
        }
        case NodeKind::InfIntType:
            return std::make_unique<InfIntType>(type.location);
        case NodeKind::BoolType:
            return std::make_unique<BoolType>(type.location);
        case NodeKind::ErrorType:
            return std::make_unique<ErrorType>(type.location);
        case NodeKind::StringType:
            return std::make_unique<StringType>(type.location);
        case NodeKind::VoidType:
            return std::make_unique<VoidType>(type.location);
        case NodeKind::DontCareType:
            return std::make_unique<DontCareType>(type.location);
        case NodeKind::NamedType: {
            const auto& from = static_cast<const NamedType&>(type);
            auto to = std::make_unique<NamedType>(from.location);
            to->name = from.name;
            to->global = from.global;
            to->typeArgs = List(from.typeArgs, [&](const Type& t) { return TypeCopy(t); });
            return to;
        }
        case NodeKind::StackType: {
            const auto& from = static_cast<const StackType&>(type);
            auto to = std::make_unique<StackType>(from.location);
            to->element = TypeCopy(from.element.get());
            to->size = ExprOrNull(from.size.get(), nullptr);
            to->count = from.count;
            return to;
        }
        case NodeKind::TupleType: {
            const auto& from = static_cast<const TupleType&>(type);
            auto to = std::make_unique<TupleType>(from.location);
            to->elements = List(from.elements, [&](const Type& t) { return TypeCopy(t); });
            return to;
        }
        default:
            Fail(type.location, "internal: cannot copy this type");
            return std::make_unique<VoidType>(type.location);
        }
    }

    Ptr<Annotation> AnnotationCopy(const Annotation& from)
    {
        auto to = std::make_unique<Annotation>(from.location);
        to->name = from.name;
        to->body = from.body;
        to->hasBody = from.hasBody;
        to->argsParsed = from.argsParsed;
        to->isStructured = from.isStructured;
        to->args = List(from.args, [&](const Expression& e) { return Expr(e, nullptr); });
        to->pairs = List(from.pairs, [&](const NamedExpr& e) { return NamedCopy(e, nullptr); });
        return to;
    }

    Annotations AnnotationsCopy(const Annotations& from)
    {
        return List(from, [&](const Annotation& a) { return AnnotationCopy(a); });
    }

    Ptr<NamedExpr> NamedCopy(const NamedExpr& from, Statements* pre)
    {
        auto to = std::make_unique<NamedExpr>(from.location);
        to->name = from.name;
        to->value = Expr(*from.value, pre);
        return to;
    }

    Ptr<Argument> ArgumentCopy(const Argument& from, Statements* pre)
    {
        auto to = std::make_unique<Argument>(from.location);
        to->name = from.name;
        to->value = Expr(*from.value, pre);
        return to;
    }

    PtrList<Argument> Args(const PtrList<Argument>& from, Statements* pre)
    {
        return List(from, [&](const Argument& a) { return ArgumentCopy(a, pre); });
    }

    Ptr<Parameter> ParamCopy(const Parameter& from)
    {
        auto to = std::make_unique<Parameter>(from.location);
        to->name = from.name;
        to->annotations = AnnotationsCopy(from.annotations);
        to->direction = from.direction;
        to->type = TypeCopy(from.type.get());
        to->defaultValue = ExprOrNull(from.defaultValue.get(), nullptr);
        return to;
    }

    PtrList<Parameter> Params(const PtrList<Parameter>& from)
    {
        return List(from, [&](const Parameter& p) { return ParamCopy(p); });
    }

    PtrList<TypeParameter> TypeParams(const PtrList<TypeParameter>& from)
    {
        return List(from, [&](const TypeParameter& p) {
            auto to = std::make_unique<TypeParameter>(p.location);
            to->name = p.name;
            to->annotations = AnnotationsCopy(p.annotations);
            return to;
        });
    }

    Ptr<Expression> ExprOrNull(const Expression* from, Statements* pre)
    {
        return from ? Expr(*from, pre) : nullptr;
    }

    /// Whether evaluating `expression` before a call of a function with a body could give
    /// another value than after it (it reads something the call may write).
    static bool IsStable(const Expression& expression)
    {
        if (expression.Is<IntegerLiteral>() || expression.Is<BoolLiteral>() ||
            expression.Is<StringLiteral>())
        {
            return true;
        }
        const auto* name = expression.As<NameExpr>();
        return name && name->resolved && !name->resolved->Is<VariableDecl>() &&
               !name->resolved->Is<Parameter>();
    }

    /// `expression` held in a fresh variable (evaluated now, before what follows is).
    Ptr<Expression> Hoisted(const Expression& expression, Statements* pre)
    {
        auto value = Expr(expression, pre);
        if (!pre || !expression.type || IsStable(expression) ||
            Canon(expression.type)->Is<InfIntType>())
        {
            return value;
        }
        const std::string name = Fresh("tmp");
        pre->push_back(Declare(TypeCopy(*expression.type), name, std::move(value),
                               expression.location));
        return Name(name, expression.location);
    }

    Ptr<Expression> Expr(const Expression& expression, Statements* pre)
    {
        switch (expression.kind)
        {
        case NodeKind::IntegerLiteral: {
            const auto& from = static_cast<const IntegerLiteral&>(expression);
            auto to = std::make_unique<IntegerLiteral>(from.location);
            to->value = from.value;
            to->width = from.width;
            to->isSigned = from.isSigned;
            to->base = from.base;
            return to;
        }
        case NodeKind::BoolLiteral:
            return Bool(static_cast<const BoolLiteral&>(expression).value, expression.location);
        case NodeKind::StringLiteral: {
            auto to = std::make_unique<StringLiteral>(expression.location);
            to->value = static_cast<const StringLiteral&>(expression).value;
            return to;
        }
        case NodeKind::NameExpr: {
            const auto& from = static_cast<const NameExpr&>(expression);
            if (m_scope->instances.count(from.resolved))
            {
                Fail(from.location, "'" + from.name + "', an instance of a control or parser "
                                    "that is inlined, is outside incsim's P4 subset here: "
                                    "such an instance can only be applied");
            }
            if (from.resolved == &AcceptState() && !m_scope->accept.empty())
            {
                return Name(m_scope->accept, from.location);
            }
            if (const auto found = m_scope->replace.find(from.resolved);
                from.resolved && found != m_scope->replace.end())
            {
                if (found->second.expression)
                {
                    return Expr(*found->second.expression, nullptr);
                }
                return Name(found->second.name, from.location);
            }
            auto to = std::make_unique<NameExpr>(from.location);
            to->name = from.name;
            // A body copied into another block names the program's declarations from the top
            // (`.K`), so that a local of the block called K cannot capture them.
            to->global = from.global || (m_scope->renameLocals && m_topLevel.count(from.resolved));
            return to;
        }
        case NodeKind::MemberExpr: {
            const auto& from = static_cast<const MemberExpr&>(expression);
            auto to = std::make_unique<MemberExpr>(from.location);
            to->object = Expr(*from.object, pre);
            to->member = from.member;
            return to;
        }
        case NodeKind::IndexExpr: {
            const auto& from = static_cast<const IndexExpr&>(expression);
            auto to = std::make_unique<IndexExpr>(from.location);
            to->object = Expr(*from.object, pre);
            to->index = Expr(*from.index, pre);
            return to;
        }
        case NodeKind::SliceExpr: {
            const auto& from = static_cast<const SliceExpr&>(expression);
            auto to = std::make_unique<SliceExpr>(from.location);
            to->object = Expr(*from.object, pre);
            to->high = Expr(*from.high, pre);
            to->low = Expr(*from.low, pre);
            return to;
        }
        case NodeKind::UnaryExpr: {
            const auto& from = static_cast<const UnaryExpr&>(expression);
            auto to = std::make_unique<UnaryExpr>(from.location);
            to->op = from.op;
            to->operand = Expr(*from.operand, pre);
            return to;
        }
        case NodeKind::BinaryExpr: {
            const auto& from = static_cast<const BinaryExpr&>(expression);
            if ((from.op == BinaryOp::And || from.op == BinaryOp::Or) && pre &&
                CallsFunction(*from.right))
            {
                return ShortCircuit(from, *pre);
            }
            auto to = std::make_unique<BinaryExpr>(from.location);
            to->op = from.op;
            // Left to right: a call on the right must not change what the left read.
            to->left = CallsFunction(*from.right) ? Hoisted(*from.left, pre)
                                                  : Expr(*from.left, pre);
            to->right = Expr(*from.right, pre);
            return to;
        }
        case NodeKind::TernaryExpr: {
            const auto& from = static_cast<const TernaryExpr&>(expression);
            if (pre && (CallsFunction(*from.ifTrue) || CallsFunction(*from.ifFalse)))
            {
                return Conditional(from, *pre);
            }
            auto to = std::make_unique<TernaryExpr>(from.location);
            to->condition = Expr(*from.condition, pre);
            to->ifTrue = Expr(*from.ifTrue, pre);
            to->ifFalse = Expr(*from.ifFalse, pre);
            return to;
        }
        case NodeKind::CastExpr: {
            const auto& from = static_cast<const CastExpr&>(expression);
            auto to = std::make_unique<CastExpr>(from.location);
            to->target = TypeCopy(from.target.get());
            to->operand = Expr(*from.operand, pre);
            return to;
        }
        case NodeKind::CallExpr: {
            const auto& from = static_cast<const CallExpr&>(expression);
            if (const FunctionDecl* function = InlinedFunction(from))
            {
                if (!pre)
                {
                    Fail(from.location, "a call of function '" + function->name +
                                            "' is outside incsim's P4 subset here: functions "
                                            "with a body are inlined, and only calls inside "
                                            "statements can be");
                    return Name(function->name, from.location);
                }
                auto result = InlineCall(from, *function, *pre);
                if (!result)
                {
                    Fail(from.location, "internal: a void function call used as a value");
                    return Name(function->name, from.location);
                }
                return result;
            }
            auto to = std::make_unique<CallExpr>(from.location);
            to->callee = Expr(*from.callee, pre);
            to->typeArgs = List(from.typeArgs, [&](const Type& t) { return TypeCopy(t); });
            to->args = Args(from.args, pre);
            return to;
        }
        case NodeKind::ListExpr: {
            const auto& from = static_cast<const ListExpr&>(expression);
            auto to = std::make_unique<ListExpr>(from.location);
            to->elements = List(from.elements, [&](const Expression& e) { return Expr(e, pre); });
            return to;
        }
        case NodeKind::StructExpr: {
            const auto& from = static_cast<const StructExpr&>(expression);
            auto to = std::make_unique<StructExpr>(from.location);
            to->fields = List(from.fields, [&](const NamedExpr& e) { return NamedCopy(e, pre); });
            return to;
        }
        case NodeKind::DefaultExpr:
            return std::make_unique<DefaultExpr>(expression.location);
        case NodeKind::DontCareExpr:
            return std::make_unique<DontCareExpr>(expression.location);
        case NodeKind::SelectExpr: {
            const auto& from = static_cast<const SelectExpr&>(expression);
            auto to = std::make_unique<SelectExpr>(from.location);
            to->selectors =
                List(from.selectors, [&](const Expression& e) { return Expr(e, pre); });
            to->cases = List(from.cases, [&](const SelectCase& c) {
                auto copy = std::make_unique<SelectCase>(c.location);
                copy->keys = List(c.keys, [&](const Expression& e) { return Expr(e, nullptr); });
                auto state = Expr(*c.state, nullptr);
                copy->state.reset(static_cast<NameExpr*>(state.release()));
                return copy;
            });
            return to;
        }
        default:
            Fail(expression.location, "internal: cannot copy this expression");
            return Name("?", expression.location);
        }
    }

    /// `a && f(x)`, `a || f(x)`: f runs only when the left does not decide.
    Ptr<Expression> ShortCircuit(const BinaryExpr& from, Statements& pre)
    {
        const std::string result = Fresh("tmp");
        pre.push_back(Declare(std::make_unique<BoolType>(from.location), result,
                              Expr(*from.left, &pre), from.location));
        auto ifStmt = std::make_unique<IfStmt>(from.location);
        ifStmt->condition = from.op == BinaryOp::And ? Name(result, from.location)
                                                     : Not(Name(result, from.location),
                                                           from.location);
        auto block = std::make_unique<BlockStmt>(from.location);
        auto right = Expr(*from.right, &block->statements);
        block->statements.push_back(
            Assign(Name(result, from.location), std::move(right), from.location));
        ifStmt->thenBranch = std::move(block);
        pre.push_back(std::move(ifStmt));
        return Name(result, from.location);
    }

    /// `c ? f(x) : y`: only the branch taken runs.
    Ptr<Expression> Conditional(const TernaryExpr& from, Statements& pre)
    {
        if (!from.type)
        {
            Fail(from.location, "a conditional expression whose type is not known calls a "
                                "function: give its branches a type (a cast)");
            return Name("?", from.location);
        }
        const std::string result = Fresh("tmp");
        pre.push_back(Declare(TypeCopy(*from.type), result, nullptr, from.location));
        auto ifStmt = std::make_unique<IfStmt>(from.location);
        ifStmt->condition = Expr(*from.condition, &pre);
        for (const auto* branch : {from.ifTrue.get(), from.ifFalse.get()})
        {
            auto block = std::make_unique<BlockStmt>(branch->location);
            auto value = Expr(*branch, &block->statements);
            block->statements.push_back(
                Assign(Name(result, branch->location), std::move(value), branch->location));
            (ifStmt->thenBranch ? ifStmt->elseBranch : ifStmt->thenBranch) = std::move(block);
        }
        pre.push_back(std::move(ifStmt));
        return Name(result, from.location);
    }

    // --- Functions ------------------------------------------------------------------------

    /// Appends `function`'s body, bound to `call`'s arguments, to `pre`; the variable holding
    /// its result (null for a void function).
    Ptr<Expression> InlineCall(const CallExpr& call, const FunctionDecl& function,
                               Statements& pre)
    {
        if (!Expand(call.location))
        {
            return Name(function.name, call.location);
        }
        if (!function.typeParams.empty())
        {
            Fail(call.location, "a call of generic function '" + function.name +
                                    "' is outside incsim's P4 subset (functions with a body "
                                    "are inlined, generic ones not yet)");
            return Name(function.name, call.location);
        }
        Scope scope;
        scope.renameLocals = true;
        scope.inlineReturns = true;
        scope.prefix = function.name;
        scope.path = m_scope->path;
        std::vector<std::pair<const Expression*, std::string>> copyOut;
        for (size_t i = 0; i < function.params.size(); ++i)
        {
            const Parameter& param = *function.params[i];
            const Expression* arg = ArgumentFor(call.args, function.params, i);
            if (!arg)
            {
                arg = param.defaultValue.get();
            }
            const std::string name = Fresh(Joined(function.name, param.name));
            scope.replace[&param] = {name, nullptr};
            Ptr<Expression> initial;
            if ((param.direction == Direction::Out || param.direction == Direction::InOut) &&
                arg && !arg->Is<DontCareExpr>())
            {
                m_owned.push_back(StableCopy(*arg, pre));
                copyOut.emplace_back(m_owned.back().get(), name);
                if (param.direction == Direction::InOut)
                {
                    initial = Expr(*m_owned.back(), nullptr);
                }
            }
            else if (param.direction != Direction::Out && arg)
            {
                initial = Expr(*arg, &pre);
            }
            pre.push_back(Declare(TypeCopy(param.type.get()), name, std::move(initial),
                                  call.location));
        }
        if (!function.returnType->Is<VoidType>())
        {
            scope.returnValue = Fresh(Joined(function.name, "result"));
            pre.push_back(Declare(TypeCopy(*function.returnType), scope.returnValue, nullptr,
                                  call.location));
        }
        if (NeedsReturnFlag(function.body->statements))
        {
            scope.returnFlag = Fresh(Joined(function.name, "returned"));
            pre.push_back(Declare(std::make_unique<BoolType>(call.location), scope.returnFlag,
                                  Bool(false, call.location), call.location));
        }
        Scope* caller = m_scope;
        m_scope = &scope;
        StatementList(function.body->statements, 0, pre);
        m_scope = caller;
        for (const auto& [arg, name] : copyOut)
        {
            pre.push_back(Assign(Expr(*arg, nullptr), Name(name, call.location), call.location));
        }
        return scope.returnValue.empty() ? nullptr : Name(scope.returnValue, call.location);
    }

    // --- Statements -----------------------------------------------------------------------

    /// Copies statements[from...] to `out`. After a `return` of an inlined body, the rest is
    /// skipped (under the return flag when the return is conditional).
    void StatementList(const Statements& statements, size_t from, Statements& out)
    {
        for (size_t i = from; i < statements.size(); ++i)
        {
            const Statement& statement = *statements[i];
            Stmt(statement, out);
            if (!m_scope->inlineReturns || !ContainsReturn(statement))
            {
                continue;
            }
            if (!statement.Is<ReturnStmt>() && i + 1 < statements.size())
            {
                auto rest = std::make_unique<BlockStmt>(statements[i + 1]->location);
                StatementList(statements, i + 1, rest->statements);
                auto guard = std::make_unique<IfStmt>(statements[i + 1]->location);
                guard->condition =
                    Not(Name(m_scope->returnFlag, statement.location), statement.location);
                guard->thenBranch = std::move(rest);
                out.push_back(std::move(guard));
            }
            return;
        }
    }

    /// One statement copied as one (a block when it became several).
    Ptr<Statement> Single(const Statement& statement)
    {
        Statements out;
        Stmt(statement, out);
        if (out.size() == 1)
        {
            return std::move(out.front());
        }
        auto block = std::make_unique<BlockStmt>(statement.location);
        block->statements = std::move(out);
        return block;
    }

    Ptr<BlockStmt> Block(const BlockStmt& from)
    {
        auto to = std::make_unique<BlockStmt>(from.location);
        to->annotations = AnnotationsCopy(from.annotations);
        StatementList(from.statements, 0, to->statements);
        return to;
    }

    /// Appends `statement`, inlined, to `out` (with what its calls of functions became).
    void Stmt(const Statement& statement, Statements& out)
    {
        switch (statement.kind)
        {
        case NodeKind::BlockStmt:
            out.push_back(Block(static_cast<const BlockStmt&>(statement)));
            return;
        case NodeKind::AssignStmt: {
            const auto& from = static_cast<const AssignStmt&>(statement);
            // P4 evaluates the left side first: its indexes are fixed before a call on the
            // right runs (h[f(x)] = g(x) with g writing x).
            auto left = StableCopy(*from.left, out);
            auto right = Expr(*from.right, &out);
            out.push_back(Assign(std::move(left), std::move(right), from.location));
            return;
        }
        case NodeKind::CallStmt: {
            const auto& from = static_cast<const CallStmt&>(statement);
            // (A constructor parameter holding a control is applied as it is in a copy of
            // its own control; in an inlined instance it names the instance bound to it.)
            if (const Declaration* instance = AppliedInstance(*from.call);
                instance && (instance->Is<InstanceDecl>() || m_scope->instances.count(instance)))
            {
                ApplyBlock(*from.call, *instance, out);
                return;
            }
            if (const FunctionDecl* function = InlinedFunction(*from.call))
            {
                InlineCall(*from.call, *function, out);
                return;
            }
            auto to = std::make_unique<CallStmt>(from.location);
            to->annotations = AnnotationsCopy(from.annotations);
            auto call = Expr(*from.call, &out);
            to->call.reset(static_cast<CallExpr*>(call.release()));
            out.push_back(std::move(to));
            return;
        }
        case NodeKind::IfStmt: {
            const auto& from = static_cast<const IfStmt&>(statement);
            auto to = std::make_unique<IfStmt>(from.location);
            to->annotations = AnnotationsCopy(from.annotations);
            to->condition = Expr(*from.condition, &out);
            to->thenBranch = Single(*from.thenBranch);
            if (from.elseBranch)
            {
                to->elseBranch = Single(*from.elseBranch);
            }
            out.push_back(std::move(to));
            return;
        }
        case NodeKind::SwitchStmt: {
            const auto& from = static_cast<const SwitchStmt&>(statement);
            auto to = std::make_unique<SwitchStmt>(from.location);
            to->annotations = AnnotationsCopy(from.annotations);
            to->expression = Expr(*from.expression, &out);
            to->cases = List(from.cases, [&](const SwitchCase& c) {
                auto copy = std::make_unique<SwitchCase>(c.location);
                copy->label = Expr(*c.label, nullptr);
                if (c.body)
                {
                    copy->body = Block(*c.body);
                }
                return copy;
            });
            out.push_back(std::move(to));
            return;
        }
        case NodeKind::ExitStmt:
            out.push_back(std::make_unique<ExitStmt>(statement.location));
            return;
        case NodeKind::ReturnStmt: {
            const auto& from = static_cast<const ReturnStmt&>(statement);
            if (!m_scope->inlineReturns)
            {
                auto to = std::make_unique<ReturnStmt>(from.location);
                to->value = ExprOrNull(from.value.get(), &out);
                out.push_back(std::move(to));
                return;
            }
            if (from.value)
            {
                auto value = Expr(*from.value, &out);
                out.push_back(
                    Assign(Name(m_scope->returnValue, from.location), std::move(value),
                           from.location));
            }
            if (!m_scope->returnFlag.empty())
            {
                out.push_back(Assign(Name(m_scope->returnFlag, from.location),
                                     Bool(true, from.location), from.location));
            }
            return;
        }
        case NodeKind::EmptyStmt:
            out.push_back(std::make_unique<EmptyStmt>(statement.location));
            return;
        case NodeKind::DeclStmt: {
            const auto& from = static_cast<const DeclStmt&>(statement);
            auto to = std::make_unique<DeclStmt>(from.location);
            to->declaration = Decl(*from.declaration, &out);
            if (m_scope->renameLocals)
            {
                const std::string name = Fresh(Joined(m_scope->prefix, from.declaration->name));
                m_scope->replace[from.declaration.get()] = {name, nullptr};
                to->declaration->name = name;
            }
            out.push_back(std::move(to));
            return;
        }
        case NodeKind::TransitionStmt: {
            const auto& from = static_cast<const TransitionStmt&>(statement);
            auto to = std::make_unique<TransitionStmt>(from.location);
            to->target = Expr(*from.target, &out);
            out.push_back(std::move(to));
            return;
        }
        default:
            Fail(statement.location, "internal: cannot copy this statement");
        }
    }

    // --- Declarations ---------------------------------------------------------------------

    /// A copy of `decl` (its name as the scope renames it); `pre` receives what calls of
    /// functions in a local variable's initializer became.
    Ptr<Declaration> Decl(const Declaration& decl, Statements* pre)
    {
        Ptr<Declaration> copy = DeclBody(decl, pre);
        copy->name = decl.name;
        if (const auto found = m_scope->replace.find(&decl); found != m_scope->replace.end())
        {
            copy->name = found->second.name;
        }
        copy->annotations = AnnotationsCopy(decl.annotations);
        return copy;
    }

    Ptr<Declaration> DeclBody(const Declaration& decl, Statements* pre)
    {
        switch (decl.kind)
        {
        case NodeKind::ConstDecl: {
            const auto& from = static_cast<const ConstDecl&>(decl);
            auto to = std::make_unique<ConstDecl>(from.location);
            to->type = TypeCopy(from.type.get());
            to->value = Expr(*from.value, nullptr);
            return to;
        }
        case NodeKind::VariableDecl: {
            const auto& from = static_cast<const VariableDecl&>(decl);
            auto to = std::make_unique<VariableDecl>(from.location);
            to->type = TypeCopy(from.type.get());
            to->initializer = ExprOrNull(from.initializer.get(), pre);
            return to;
        }
        case NodeKind::InstanceDecl: {
            const auto& from = static_cast<const InstanceDecl&>(decl);
            auto to = std::make_unique<InstanceDecl>(from.location);
            to->type = TypeCopy(from.type.get());
            to->args = Args(from.args, nullptr);
            to->initializer =
                List(from.initializer, [&](const Declaration& d) { return Decl(d, nullptr); });
            to->hasInitializer = from.hasInitializer;
            return to;
        }
        case NodeKind::TypedefDecl: {
            const auto& from = static_cast<const TypedefDecl&>(decl);
            auto to = std::make_unique<TypedefDecl>(from.location);
            to->type = TypeCopy(from.type.get());
            to->isNewType = from.isNewType;
            return to;
        }
        case NodeKind::HeaderDecl:
        case NodeKind::StructDecl: {
            const auto& from = static_cast<const StructLikeDecl&>(decl);
            Ptr<StructLikeDecl> to;
            if (const auto* structDecl = from.As<StructDecl>())
            {
                auto s = std::make_unique<StructDecl>(from.location);
                s->isUnion = structDecl->isUnion;
                to = std::move(s);
            }
            else
            {
                to = std::make_unique<HeaderDecl>(from.location);
            }
            to->fields = List(from.fields, [&](const StructField& f) {
                auto field = std::make_unique<StructField>(f.location);
                field->name = f.name;
                field->annotations = AnnotationsCopy(f.annotations);
                field->type = TypeCopy(f.type.get());
                return field;
            });
            to->typeParams = TypeParams(from.typeParams);
            return to;
        }
        case NodeKind::EnumMember:
            return Member(static_cast<const EnumMember&>(decl));
        case NodeKind::EnumDecl: {
            const auto& from = static_cast<const EnumDecl&>(decl);
            auto to = std::make_unique<EnumDecl>(from.location);
            to->underlyingType = TypeCopy(from.underlyingType.get());
            to->members = Members(from.members);
            return to;
        }
        case NodeKind::ErrorDecl: {
            auto to = std::make_unique<ErrorDecl>(decl.location);
            to->members = Members(static_cast<const ErrorDecl&>(decl).members);
            return to;
        }
        case NodeKind::MatchKindDecl: {
            auto to = std::make_unique<MatchKindDecl>(decl.location);
            to->members = Members(static_cast<const MatchKindDecl&>(decl).members);
            return to;
        }
        case NodeKind::MethodDecl:
            return Method(static_cast<const MethodDecl&>(decl));
        case NodeKind::ExternDecl: {
            const auto& from = static_cast<const ExternDecl&>(decl);
            auto to = std::make_unique<ExternDecl>(from.location);
            to->typeParams = TypeParams(from.typeParams);
            to->methods = List(from.methods, [&](const MethodDecl& m) {
                auto method = Method(m);
                method->name = m.name;
                method->annotations = AnnotationsCopy(m.annotations);
                return method;
            });
            return to;
        }
        case NodeKind::FunctionDecl: {
            const auto& from = static_cast<const FunctionDecl&>(decl);
            auto to = std::make_unique<FunctionDecl>(from.location);
            to->returnType = TypeCopy(from.returnType.get());
            to->typeParams = TypeParams(from.typeParams);
            to->params = Params(from.params);
            if (from.body)
            {
                to->body = Block(*from.body);
            }
            to->isExtern = from.isExtern;
            return to;
        }
        case NodeKind::ParserTypeDecl: {
            const auto& from = static_cast<const ParserTypeDecl&>(decl);
            auto to = std::make_unique<ParserTypeDecl>(from.location);
            to->typeParams = TypeParams(from.typeParams);
            to->params = Params(from.params);
            return to;
        }
        case NodeKind::ControlTypeDecl: {
            const auto& from = static_cast<const ControlTypeDecl&>(decl);
            auto to = std::make_unique<ControlTypeDecl>(from.location);
            to->typeParams = TypeParams(from.typeParams);
            to->params = Params(from.params);
            return to;
        }
        case NodeKind::PackageTypeDecl: {
            const auto& from = static_cast<const PackageTypeDecl&>(decl);
            auto to = std::make_unique<PackageTypeDecl>(from.location);
            to->typeParams = TypeParams(from.typeParams);
            to->params = Params(from.params);
            return to;
        }
        case NodeKind::ParserDecl:
            return Parser(static_cast<const ParserDecl&>(decl));
        case NodeKind::ControlDecl:
            return Control(static_cast<const ControlDecl&>(decl));
        case NodeKind::ActionDecl: {
            const auto& from = static_cast<const ActionDecl&>(decl);
            auto to = std::make_unique<ActionDecl>(from.location);
            to->params = Params(from.params);
            to->body = Block(*from.body);
            return to;
        }
        case NodeKind::TableDecl:
            return Table(static_cast<const TableDecl&>(decl));
        case NodeKind::ValueSetDecl: {
            const auto& from = static_cast<const ValueSetDecl&>(decl);
            auto to = std::make_unique<ValueSetDecl>(from.location);
            to->elementType = TypeCopy(from.elementType.get());
            to->size = Expr(*from.size, nullptr);
            return to;
        }
        case NodeKind::Parameter:
            return ParamCopy(static_cast<const Parameter&>(decl));
        case NodeKind::TypeParameter:
            return std::make_unique<TypeParameter>(decl.location);
        default:
            Fail(decl.location, "internal: cannot copy this declaration");
            return std::make_unique<TypeParameter>(decl.location);
        }
    }

    Ptr<EnumMember> Member(const EnumMember& from)
    {
        auto to = std::make_unique<EnumMember>(from.location);
        to->name = from.name;
        to->annotations = AnnotationsCopy(from.annotations);
        to->value = ExprOrNull(from.value.get(), nullptr);
        return to;
    }

    PtrList<EnumMember> Members(const PtrList<EnumMember>& from)
    {
        return List(from, [&](const EnumMember& m) { return Member(m); });
    }

    Ptr<MethodDecl> Method(const MethodDecl& from)
    {
        auto to = std::make_unique<MethodDecl>(from.location);
        to->returnType = TypeCopy(from.returnType.get());
        to->isAbstract = from.isAbstract;
        to->typeParams = TypeParams(from.typeParams);
        to->params = Params(from.params);
        to->isConstructor = from.isConstructor;
        return to;
    }

    Ptr<ActionRef> ActionRefCopy(const ActionRef& from)
    {
        auto to = std::make_unique<ActionRef>(from.location);
        to->annotations = AnnotationsCopy(from.annotations);
        auto action = Expr(*from.action, nullptr);
        to->action.reset(static_cast<NameExpr*>(action.release()));
        to->args = Args(from.args, nullptr);
        to->hasArgList = from.hasArgList;
        return to;
    }

    Ptr<TableDecl> Table(const TableDecl& from)
    {
        auto to = std::make_unique<TableDecl>(from.location);
        to->properties = List(from.properties, [&](const TableProperty& p) {
            auto property = std::make_unique<TableProperty>(p.location);
            property->name = p.name;
            property->which = p.which;
            property->isConst = p.isConst;
            property->annotations = AnnotationsCopy(p.annotations);
            property->keys = List(p.keys, [&](const KeyElement& k) {
                auto key = std::make_unique<KeyElement>(k.location);
                key->expression = Expr(*k.expression, nullptr);
                key->matchKind = k.matchKind;
                key->matchKindLocation = k.matchKindLocation;
                key->annotations = AnnotationsCopy(k.annotations);
                // The control plane names a key by its text: the text as written.
                const std::string written = ToString(*k.expression);
                if (!FindAnnotation(k.annotations, "name") &&
                    ToString(*key->expression) != written)
                {
                    auto name = std::make_unique<Annotation>(k.location);
                    name->name = "name";
                    name->hasBody = true;
                    name->argsParsed = true;
                    auto text = std::make_unique<StringLiteral>(k.location);
                    text->value = written;
                    name->args.push_back(std::move(text));
                    key->annotations.push_back(std::move(name));
                }
                return key;
            });
            property->actions =
                List(p.actions, [&](const ActionRef& a) { return ActionRefCopy(a); });
            property->entries = List(p.entries, [&](const TableEntry& e) {
                auto entry = std::make_unique<TableEntry>(e.location);
                entry->annotations = AnnotationsCopy(e.annotations);
                entry->priority = ExprOrNull(e.priority.get(), nullptr);
                entry->keys = List(e.keys, [&](const Expression& k) { return Expr(k, nullptr); });
                entry->action = ActionRefCopy(*e.action);
                return entry;
            });
            if (p.defaultAction)
            {
                property->defaultAction = ActionRefCopy(*p.defaultAction);
            }
            property->value = ExprOrNull(p.value.get(), nullptr);
            return property;
        });
        return to;
    }

    // --- Blocks ---------------------------------------------------------------------------

    Ptr<ControlDecl> Control(const ControlDecl& from)
    {
        auto to = std::make_unique<ControlDecl>(from.location);
        to->typeParams = TypeParams(from.typeParams);
        to->params = Params(from.params);
        to->constructorParams = Params(from.constructorParams);
        Scope scope;
        Scope* outer = m_scope;
        m_scope = &scope;
        m_expanding.assign(1, &from);
        BlockLocals(from, to->locals);
        to->apply = std::make_unique<BlockStmt>(from.apply->location);
        to->apply->annotations = AnnotationsCopy(from.apply->annotations);
        InitializeInBody(scope, to->apply->statements);
        StatementList(from.apply->statements, 0, to->apply->statements);
        m_scope = outer;
        return to;
    }

    Ptr<ParserDecl> Parser(const ParserDecl& from)
    {
        auto to = std::make_unique<ParserDecl>(from.location);
        to->typeParams = TypeParams(from.typeParams);
        to->params = Params(from.params);
        to->constructorParams = Params(from.constructorParams);
        Scope scope;
        Scope* outer = m_scope;
        m_scope = &scope;
        m_expanding.assign(1, &from);
        BlockLocals(from, to->locals);
        // Variable initializers moved out of the locals run where `start` begins, once.
        const ParserState* start = from.FindState("start");
        if (!scope.initializedInBody.empty() && start &&
            Contains(from, [&](const Node& n) {
                const auto* name = n.As<NameExpr>();
                return name && name->resolved == start;
            }))
        {
            Fail(scope.initializedInBody.front()->initializer->location,
                 "a call of a function in the initializer of a parser's variable is outside "
                 "incsim's P4 subset when a transition goes back to 'start'");
        }
        for (const auto& state : from.states)
        {
            State(*state, to->states, state.get() == start);
        }
        m_scope = outer;
        return to;
    }

    /// Copies `block`'s locals to `out`, each instance of a control or parser replaced by its
    /// own locals (and the variables its arguments are copied through).
    void BlockLocals(const Declaration& block, PtrList<Declaration>& out)
    {
        const auto& locals = block.Is<ControlDecl>() ? block.As<ControlDecl>()->locals
                                                     : block.As<ParserDecl>()->locals;
        for (const auto& local : locals)
        {
            if (const auto* instance = local->As<InstanceDecl>(); instance && BlockOf(*instance))
            {
                Instantiate(*instance, block, out);
                continue;
            }
            if (m_scope->renameLocals)
            {
                m_scope->replace[local.get()] = {Fresh(Joined(m_scope->prefix, local->name)),
                                                 nullptr};
            }
            const auto* variable = local->As<VariableDecl>();
            if (variable && variable->initializer &&
                (m_scope->renameLocals || !m_scope->initializedInBody.empty() ||
                 CallsFunction(*variable->initializer)))
            {
                // Declared here, assigned where the body starts (InitializeInBody).
                auto copy = std::make_unique<VariableDecl>(variable->location);
                const auto found = m_scope->replace.find(variable);
                copy->name =
                    found == m_scope->replace.end() ? variable->name : found->second.name;
                copy->annotations = AnnotationsCopy(variable->annotations);
                copy->type = TypeCopy(variable->type.get());
                out.push_back(std::move(copy));
                m_scope->initializedInBody.push_back(variable);
            }
            else
            {
                out.push_back(Decl(*local, nullptr));
            }
            if (!m_scope->path.empty())
            {
                m_result.localNames[out.back().get()] = m_scope->path + "." + local->name;
            }
        }
    }

    /// The calls `inst.apply(...)` of `instance` in `block`.
    static std::vector<const CallExpr*> ApplyCalls(const Declaration& block,
                                                   const Declaration& instance)
    {
        std::vector<const CallExpr*> calls;
        std::function<void(const Node&)> visit = [&](const Node& node) {
            if (const auto* call = node.As<CallExpr>(); call && AppliedInstance(*call) == &instance)
            {
                calls.push_back(call);
            }
            ForEachChild(node, visit);
        };
        visit(block);
        return calls;
    }

    /// Whether every call binds parameter `index` to the same variable or parameter, which no
    /// other argument that may be written shares (so the callee can use it in place).
    static bool BindsInPlace(const std::vector<const CallExpr*>& calls,
                             const PtrList<Parameter>& params, size_t index)
    {
        const Declaration* root = nullptr;
        for (const CallExpr* call : calls)
        {
            const Expression* arg = ArgumentFor(call->args, params, index);
            const auto* name = arg ? arg->As<NameExpr>() : nullptr;
            if (!name || !name->resolved ||
                !(name->resolved->Is<Parameter>() || name->resolved->Is<VariableDecl>()) ||
                (root && root != name->resolved))
            {
                return false;
            }
            root = name->resolved;
            for (size_t other = 0; other < params.size(); ++other)
            {
                const Expression* otherArg = ArgumentFor(call->args, params, other);
                const NameExpr* otherRoot = otherArg ? RootName(*otherArg) : nullptr;
                const bool written = params[index]->direction == Direction::Out ||
                                     params[index]->direction == Direction::InOut ||
                                     params[other]->direction == Direction::Out ||
                                     params[other]->direction == Direction::InOut;
                if (other != index && written && otherRoot && otherRoot->resolved == root)
                {
                    return false;
                }
            }
        }
        return root != nullptr;
    }

    /// `instance` (of a control or parser, declared in `block`) becomes part of the block
    /// being copied: its locals go to `out`, renamed after it.
    void Instantiate(const InstanceDecl& instance, const Declaration& block,
                     PtrList<Declaration>& out)
    {
        const Declaration* callee = BlockOf(instance);
        if (m_failedInstances.count(&instance))
        {
            return;
        }
        if (std::find(m_expanding.begin(), m_expanding.end(), callee) != m_expanding.end())
        {
            m_failedInstances.insert(&instance);
            Fail(instance.location, "'" + callee->name + "' instantiates itself (directly or "
                                    "through the blocks it instantiates): P4 has no recursion");
            return;
        }
        if (!Expand(instance.location))
        {
            return;
        }
        const bool generic = callee->Is<ControlDecl>()
                                 ? !callee->As<ControlDecl>()->typeParams.empty()
                                 : !callee->As<ParserDecl>()->typeParams.empty();
        if (generic)
        {
            Fail(instance.location, "instantiating generic '" + callee->name +
                                        "' inside another block is outside incsim's P4 "
                                        "subset (such instances are inlined, generic ones "
                                        "not yet)");
            return;
        }
        auto inst = std::make_unique<Instance>();
        inst->decl = &instance;
        inst->block = callee;
        Scope& scope = inst->scope;
        scope.renameLocals = true;
        scope.prefix = Joined(m_scope->prefix, instance.name);
        scope.path = m_scope->path.empty() ? instance.name : m_scope->path + "." + instance.name;
        const auto& constructorParams = ConstructorParams(*callee);
        for (size_t i = 0; i < constructorParams.size(); ++i)
        {
            const Parameter& param = *constructorParams[i];
            const Expression* arg = ArgumentFor(instance.args, constructorParams, i);
            if (!arg)
            {
                arg = param.defaultValue.get();
            }
            if (TakesBlock(param))
            {
                const auto* name = arg ? arg->As<NameExpr>() : nullptr;
                const auto bound =
                    name ? m_scope->instances.find(name->resolved) : m_scope->instances.end();
                if (bound == m_scope->instances.end())
                {
                    Fail(arg ? arg->location : instance.location,
                         "constructor argument '" + param.name + "' of '" + instance.name +
                             "' is outside incsim's P4 subset: a control or parser passed to "
                             "an instance inlined into its block is an instance declared there");
                    return;
                }
                scope.instances[&param] = bound->second;
                continue;
            }
            if (!arg || arg->Is<CallExpr>())
            {
                Fail(arg ? arg->location : instance.location,
                     "constructor argument '" + param.name + "' of '" + instance.name +
                         "' is outside incsim's P4 subset: an instance inlined into its "
                         "block takes constant arguments");
                return;
            }
            inst->owned.push_back(Expr(*arg, nullptr));
            scope.replace[&param] = {"", inst->owned.back().get()};
        }
        const auto& params = ApplyParams(*callee);
        const auto calls = ApplyCalls(block, instance);
        for (size_t i = 0; i < params.size(); ++i)
        {
            const Parameter& param = *params[i];
            if (!calls.empty() && (IsExternParameter(param) || BindsInPlace(calls, params, i)))
            {
                const Expression* arg = ArgumentFor(calls.front()->args, params, i);
                if (IsExternParameter(param))
                {
                    for (const CallExpr* call : calls)
                    {
                        const Expression* other = ArgumentFor(call->args, params, i);
                        if (!other || ToString(*other) != ToString(*arg))
                        {
                            Fail(call->location, "'" + instance.name + "' is applied to "
                                                 "different '" + param.name + "' arguments: "
                                                 "outside incsim's P4 subset");
                            return;
                        }
                    }
                }
                inst->owned.push_back(Expr(*arg, nullptr));
                scope.replace[&param] = {"", inst->owned.back().get()};
                inst->copies.emplace_back();
                continue;
            }
            const std::string name = Fresh(Joined(scope.prefix, param.name));
            auto variable = std::make_unique<VariableDecl>(param.location);
            variable->name = name;
            variable->type = TypeCopy(param.type.get());
            out.push_back(std::move(variable));
            scope.replace[&param] = {name, nullptr};
            inst->copies.push_back(name);
        }
        bool copiesOut = false;
        for (size_t i = 0; i < params.size(); ++i)
        {
            copiesOut = copiesOut || (!inst->copies[i].empty() &&
                                      (params[i]->direction == Direction::Out ||
                                       params[i]->direction == Direction::InOut));
        }
        if (copiesOut && Contains(*callee, [](const Node& n) { return n.Is<ExitStmt>(); }))
        {
            Fail(instance.location,
                 "instantiating '" + callee->name + "' inside another block is outside "
                 "incsim's P4 subset here: it may exit, and an argument it writes is copied "
                 "(pass a whole parameter or variable of the caller, each once)");
            return;
        }
        Scope* outer = m_scope;
        m_scope = &scope;
        m_expanding.push_back(callee);
        BlockLocals(*callee, out);
        m_expanding.pop_back();
        m_scope = outer;
        m_scope->instances[&instance] = inst.get();
        m_instances.push_back(std::move(inst));
    }

    /// The initializers `scope` moved from its block's variables to where the body starts.
    void InitializeInBody(Scope& scope, Statements& out)
    {
        Scope* outer = m_scope;
        m_scope = &scope;
        for (const VariableDecl* variable : scope.initializedInBody)
        {
            auto value = Expr(*variable->initializer, &out);
            const auto found = scope.replace.find(variable);
            out.push_back(Assign(
                Name(found == scope.replace.end() ? variable->name : found->second.name,
                     variable->location),
                std::move(value), variable->location));
        }
        m_scope = outer;
    }

    /// Copy-in of the arguments `call` passes through copy variables; the lvalues that
    /// CopyOut writes back (indexes evaluated once, here).
    std::vector<const Expression*> CopyIn(const CallExpr& call, const Instance& inst,
                                          Statements& out)
    {
        const auto& params = ApplyParams(*inst.block);
        std::vector<const Expression*> lvalues(params.size(), nullptr);
        for (size_t i = 0; i < params.size(); ++i)
        {
            const Expression* arg = ArgumentFor(call.args, params, i);
            if (inst.copies[i].empty() || !arg || arg->Is<DontCareExpr>())
            {
                continue;
            }
            Ptr<Expression> value;
            if (params[i]->direction == Direction::Out || params[i]->direction == Direction::InOut)
            {
                m_owned.push_back(StableCopy(*arg, out));
                lvalues[i] = m_owned.back().get();
                if (params[i]->direction == Direction::InOut)
                {
                    value = Expr(*lvalues[i], nullptr);
                }
            }
            else
            {
                value = Expr(*arg, &out);
            }
            if (value)
            {
                out.push_back(
                    Assign(Name(inst.copies[i], call.location), std::move(value), call.location));
            }
        }
        return lvalues;
    }

    void CopyOut(const CallExpr& call, const Instance& inst,
                 const std::vector<const Expression*>& lvalues, Statements& out)
    {
        for (size_t i = 0; i < lvalues.size(); ++i)
        {
            if (lvalues[i])
            {
                out.push_back(Assign(Expr(*lvalues[i], nullptr),
                                     Name(inst.copies[i], call.location), call.location));
            }
        }
    }

    /// A copy of lvalue `from` whose indexes are evaluated now, into `pre` (so that copy-in
    /// and copy-out write the same element).
    Ptr<Expression> StableCopy(const Expression& from, Statements& pre)
    {
        if (const auto* member = from.As<MemberExpr>())
        {
            auto to = std::make_unique<MemberExpr>(member->location);
            to->object = StableCopy(*member->object, pre);
            to->member = member->member;
            return to;
        }
        if (const auto* index = from.As<IndexExpr>())
        {
            auto to = std::make_unique<IndexExpr>(index->location);
            to->object = StableCopy(*index->object, pre);
            to->index = Hoisted(*index->index, &pre);
            return to;
        }
        if (const auto* slice = from.As<SliceExpr>())
        {
            auto to = std::make_unique<SliceExpr>(slice->location);
            to->object = StableCopy(*slice->object, pre);
            to->high = Expr(*slice->high, &pre);
            to->low = Expr(*slice->low, &pre);
            return to;
        }
        return Expr(from, &pre);
    }

    /// `inst.apply(...)` of a control instance: its apply body, bound to the call.
    void ApplyBlock(const CallExpr& call, const Declaration& instance, Statements& out)
    {
        const auto found = m_scope->instances.find(&instance);
        if (m_failedInstances.count(&instance))
        {
            return;
        }
        if (found == m_scope->instances.end())
        {
            Fail(call.location, "applying '" + instance.name + "', declared outside the "
                                "block that applies it, is outside incsim's P4 subset "
                                "(controls and parsers are inlined into the block that "
                                "instantiates them)");
            return;
        }
        Instance& inst = *found->second;
        const auto* control = inst.block->As<ControlDecl>();
        if (!Expand(call.location))
        {
            return;
        }
        if (!control)
        {
            Fail(call.location, "a call of parser '" + instance.name + "' is outside incsim's "
                                "P4 subset here: sub-parsers are inlined where a state "
                                "calls them outside a conditional statement");
            return;
        }
        const auto lvalues = CopyIn(call, inst, out);
        Scope& scope = inst.scope;
        InitializeInBody(scope, out);
        scope.inlineReturns = true;
        scope.returnFlag.clear();
        if (NeedsReturnFlag(control->apply->statements))
        {
            scope.returnFlag = Fresh(Joined(scope.prefix, "returned"));
            out.push_back(Declare(std::make_unique<BoolType>(call.location), scope.returnFlag,
                                  Bool(false, call.location), call.location));
        }
        Scope* outer = m_scope;
        m_scope = &scope;
        auto body = std::make_unique<BlockStmt>(call.location);
        StatementList(control->apply->statements, 0, body->statements);
        m_scope = outer;
        scope.inlineReturns = false;
        out.push_back(std::move(body));
        CopyOut(call, inst, lvalues, out);
    }

    // --- Parser states --------------------------------------------------------------------

    void State(const ParserState& from, PtrList<ParserState>& states, bool initialize = false)
    {
        auto state = std::make_unique<ParserState>(from.location);
        state->name = from.name;
        if (const auto found = m_scope->replace.find(&from); found != m_scope->replace.end())
        {
            state->name = found->second.name;
        }
        state->annotations = AnnotationsCopy(from.annotations);
        ParserState& current = *state;
        states.push_back(std::move(state));
        if (initialize)
        {
            InitializeInBody(*m_scope, current.statements);
        }
        StateBody(from, 0, current, states);
    }

    /// Copies from.statements[first...] and from's transition into `current`; a sub-parser
    /// call ends `current` with a transition to the callee's start and goes on in a new state
    /// that the callee's accept leads to.
    void StateBody(const ParserState& from, size_t first, ParserState& current,
                   PtrList<ParserState>& states)
    {
        for (size_t i = first; i < from.statements.size(); ++i)
        {
            const Statement& statement = *from.statements[i];
            const auto* callStmt = statement.As<CallStmt>();
            const Declaration* instance = callStmt ? AppliedInstance(*callStmt->call) : nullptr;
            const auto found = m_scope->instances.find(instance);
            if (!instance || found == m_scope->instances.end() ||
                !found->second->block->Is<ParserDecl>())
            {
                Stmt(statement, current.statements);
                continue;
            }
            Instance& inst = *found->second;
            const CallExpr& call = *callStmt->call;
            if (!Expand(call.location))
            {
                return;
            }
            const auto& callee = *inst.block->As<ParserDecl>();
            const auto lvalues = CopyIn(call, inst, current.statements);
            Scope& scope = inst.scope;
            InitializeInBody(scope, current.statements);
            for (const auto& state : callee.states)
            {
                scope.replace[state.get()] = {Fresh(Joined(scope.prefix, state->name)), nullptr};
            }
            const ParserState* start = callee.FindState("start");
            if (!start)
            {
                Fail(callee.location, "parser '" + callee.name + "' has no 'start' state");
                return;
            }
            current.transition = Transition(scope.replace.at(start).name, call.location);
            const std::string after = Fresh(Joined(current.name, "after_" + instance->name));
            const std::string outerAccept = scope.accept;
            scope.accept = after;
            Scope* outer = m_scope;
            m_scope = &scope;
            for (const auto& state : callee.states)
            {
                State(*state, states);
            }
            m_scope = outer;
            scope.accept = outerAccept;
            auto next = std::make_unique<ParserState>(call.location);
            next->name = after;
            ParserState& nextRef = *next;
            states.push_back(std::move(next));
            CopyOut(call, inst, lvalues, nextRef.statements);
            StateBody(from, i + 1, nextRef, states);
            return;
        }
        if (from.transition)
        {
            auto transition = std::make_unique<TransitionStmt>(from.transition->location);
            transition->target = Expr(*from.transition->target, &current.statements);
            current.transition = std::move(transition);
        }
    }

    static Ptr<TransitionStmt> Transition(const std::string& state,
                                          const SourceLocation& location)
    {
        auto transition = std::make_unique<TransitionStmt>(location);
        transition->target = Name(state, location);
        return transition;
    }

    const Program& m_program;
    Diagnostics& m_diags;
    InlinedProgram& m_result;
    Scope* m_scope = nullptr;
    std::set<std::string> m_used;
    std::set<const Declaration*> m_topLevel;
    /// The last suffix Fresh gave each base name.
    std::map<std::string, size_t> m_suffixes;
    std::vector<std::unique_ptr<Instance>> m_instances;
    /// Expressions built once and copied at each use (lvalues of copy-out).
    PtrList<Expression> m_owned;
    /// The blocks being copied, outermost first (a block that instantiates one of them
    /// recurses).
    std::vector<const Declaration*> m_expanding;
    /// Instances reported as not inlinable (their applies are not reported again).
    std::set<const Declaration*> m_failedInstances;
    static constexpr size_t kMaxExpansions = 10000;
    size_t m_expansions = 0;
    bool m_failed = false;
};

} // namespace

bool
NeedsInlining(const Program& program)
{
    const auto inlined = [](const Node& node) {
        if (const auto* function = node.As<FunctionDecl>())
        {
            return function->body != nullptr;
        }
        if (const auto* call = node.As<CallExpr>())
        {
            return InlinedFunction(*call) != nullptr;
        }
        const auto* instance = node.As<InstanceDecl>();
        return instance && BlockOf(*instance);
    };
    for (const Ptr<Declaration>& decl : program.declarations)
    {
        if (Contains(*decl, inlined))
        {
            return true;
        }
    }
    return false;
}

InlinedProgram
InlineProgram(const Program& program, Diagnostics& diags)
{
    InlinedProgram result;
    const size_t errorsBefore = diags.ErrorCount();
    if (!Inliner(program, diags, result).Run())
    {
        result.program.reset();
        return result;
    }
    if (!CheckProgram(*result.program, diags) || diags.ErrorCount() != errorsBefore)
    {
        diags.Note({}, "internal: the program with its functions and sub-blocks inlined does "
                       "not check (a bug in incsim's mid-end)");
        result.program.reset();
    }
    return result;
}

} // namespace incsim::p4
