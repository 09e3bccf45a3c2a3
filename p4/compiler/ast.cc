#include "p4/compiler/ast.h"

#include <ostream>
#include <set>
#include <sstream>

namespace incsim::p4::ast
{
namespace
{

// Binding strength for printing with as few parentheses as the grammar allows (higher binds
// tighter). Matches the parser's table.
enum Precedence
{
    kKeyset = 0, // &&& ..
    kTernary = 1,
    kOr = 2,
    kAnd = 3,
    kEquality = 4,
    kRelational = 5,
    kBitOr = 6,
    kBitXor = 7,
    kBitAnd = 8,
    kShift = 9,
    kAdditive = 10,
    kMultiplicative = 11,
    kPrefix = 12,
    kPostfix = 13,
};

int
PrecedenceOf(BinaryOp op)
{
    switch (op)
    {
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Mod:
        return kMultiplicative;
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::AddSat:
    case BinaryOp::SubSat:
    case BinaryOp::Concat:
        return kAdditive;
    case BinaryOp::Shl:
    case BinaryOp::Shr:
        return kShift;
    case BinaryOp::BitAnd:
        return kBitAnd;
    case BinaryOp::BitXor:
        return kBitXor;
    case BinaryOp::BitOr:
        return kBitOr;
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
        return kRelational;
    case BinaryOp::Eq:
    case BinaryOp::Ne:
        return kEquality;
    case BinaryOp::And:
        return kAnd;
    case BinaryOp::Or:
        return kOr;
    case BinaryOp::Mask:
    case BinaryOp::Range:
        return kKeyset;
    }
    return kKeyset;
}

int
PrecedenceOf(const Expression& expression)
{
    switch (expression.kind)
    {
    case NodeKind::BinaryExpr:
        return PrecedenceOf(static_cast<const BinaryExpr&>(expression).op);
    case NodeKind::TernaryExpr:
        return kTernary;
    case NodeKind::UnaryExpr:
    case NodeKind::CastExpr:
        return kPrefix;
    default:
        return kPostfix;
    }
}

std::string
Quote(const std::string& value)
{
    std::string out = "\"";
    for (char c : value)
    {
        switch (c)
        {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            out += c;
            break;
        }
    }
    out += '"';
    return out;
}

std::string
IntegerText(const IntegerLiteral& literal)
{
    std::string out;
    if (literal.width)
    {
        out += std::to_string(*literal.width);
        out += literal.isSigned ? 's' : 'w';
    }
    switch (literal.base)
    {
    case 16:
        out += "0x";
        break;
    case 8:
        out += "0o";
        break;
    case 2:
        out += "0b";
        break;
    default:
        break;
    }
    out += literal.value.ToString(literal.base);
    return out;
}

// Prints nodes as P4 text. Expressions and types go to strings (they nest); declarations and
// statements go line by line to the stream.
class Printer
{
  public:
    explicit Printer(std::ostream& out)
        : m_out(out)
    {
    }

    std::string Expr(const Expression& expression, int minPrecedence = kKeyset) const;
    std::string TypeText(const Type& type) const;

    void Decl(const Declaration& declaration, int indent);
    /// `leadingIndent` false continues the current line (after `if (...) ` or `else `).
    void Stmt(const Statement& statement, int indent, bool leadingIndent = true);

  private:
    std::string Args(const PtrList<Argument>& args) const;
    std::string TypeArgs(const PtrList<Type>& types) const;
    std::string TypeParams(const PtrList<TypeParameter>& params) const;
    std::string Params(const PtrList<Parameter>& params) const;
    std::string AnnotationText(const Annotation& annotation) const;
    /// Annotations followed by a space, all on one line ("" when there are none).
    std::string AnnotationPrefix(const Annotations& annotations) const;
    std::string Keys(const PtrList<Expression>& keys) const;
    std::string ActionRefText(const ActionRef& ref) const;

    void Indent(int indent) { m_out << std::string(static_cast<size_t>(indent) * 4, ' '); }
    /// `{ ... }`; `endLine` false leaves the line open after the '}' (for `} else`).
    void Block(const BlockStmt& block, int indent, bool endLine = true);
    void Members(const PtrList<EnumMember>& members, int indent);
    void Table(const TableDecl& table, int indent);
    void Transition(const TransitionStmt& transition, int indent);

    std::ostream& m_out;
};

std::string
Printer::Expr(const Expression& expression, int minPrecedence) const
{
    std::string text;
    switch (expression.kind)
    {
    case NodeKind::IntegerLiteral:
        text = IntegerText(static_cast<const IntegerLiteral&>(expression));
        break;
    case NodeKind::BoolLiteral:
        text = static_cast<const BoolLiteral&>(expression).value ? "true" : "false";
        break;
    case NodeKind::StringLiteral:
        text = Quote(static_cast<const StringLiteral&>(expression).value);
        break;
    case NodeKind::NameExpr: {
        const auto& name = static_cast<const NameExpr&>(expression);
        text = (name.global ? "." : "") + name.name;
        break;
    }
    case NodeKind::MemberExpr: {
        const auto& member = static_cast<const MemberExpr&>(expression);
        text = Expr(*member.object, kPostfix) + "." + member.member;
        break;
    }
    case NodeKind::IndexExpr: {
        const auto& index = static_cast<const IndexExpr&>(expression);
        text = Expr(*index.object, kPostfix) + "[" + Expr(*index.index) + "]";
        break;
    }
    case NodeKind::SliceExpr: {
        const auto& slice = static_cast<const SliceExpr&>(expression);
        text = Expr(*slice.object, kPostfix) + "[" + Expr(*slice.high) + ":" + Expr(*slice.low) +
               "]";
        break;
    }
    case NodeKind::UnaryExpr: {
        const auto& unary = static_cast<const UnaryExpr&>(expression);
        text = std::string(ToString(unary.op)) + Expr(*unary.operand, kPrefix);
        break;
    }
    case NodeKind::BinaryExpr: {
        const auto& binary = static_cast<const BinaryExpr&>(expression);
        int precedence = PrecedenceOf(binary.op);
        text = Expr(*binary.left, precedence) + " " + ToString(binary.op) + " " +
               Expr(*binary.right, precedence + 1);
        break;
    }
    case NodeKind::TernaryExpr: {
        const auto& ternary = static_cast<const TernaryExpr&>(expression);
        // A nested ?: in the middle gets parentheses for the reader; the grammar needs none.
        text = Expr(*ternary.condition, kTernary + 1) + " ? " +
               Expr(*ternary.ifTrue, kTernary + 1) + " : " + Expr(*ternary.ifFalse, kTernary);
        break;
    }
    case NodeKind::CastExpr: {
        const auto& cast = static_cast<const CastExpr&>(expression);
        text = "(" + TypeText(*cast.target) + ")" + Expr(*cast.operand, kPrefix);
        break;
    }
    case NodeKind::CallExpr: {
        const auto& call = static_cast<const CallExpr&>(expression);
        text = Expr(*call.callee, kPostfix) + TypeArgs(call.typeArgs) + "(" + Args(call.args) +
               ")";
        break;
    }
    case NodeKind::ListExpr: {
        const auto& list = static_cast<const ListExpr&>(expression);
        text = "{";
        for (size_t i = 0; i < list.elements.size(); ++i)
        {
            text += (i == 0 ? " " : ", ") + Expr(*list.elements[i]);
        }
        text += " }";
        break;
    }
    case NodeKind::StructExpr: {
        const auto& structExpr = static_cast<const StructExpr&>(expression);
        text = "{";
        for (size_t i = 0; i < structExpr.fields.size(); ++i)
        {
            const NamedExpr& field = *structExpr.fields[i];
            text += (i == 0 ? " " : ", ") + field.name + " = " + Expr(*field.value);
        }
        text += " }";
        break;
    }
    case NodeKind::DefaultExpr:
        text = "default";
        break;
    case NodeKind::DontCareExpr:
        text = "_";
        break;
    case NodeKind::SelectExpr: {
        const auto& select = static_cast<const SelectExpr&>(expression);
        text = "select(";
        for (size_t i = 0; i < select.selectors.size(); ++i)
        {
            text += (i == 0 ? "" : ", ") + Expr(*select.selectors[i]);
        }
        text += ") {";
        for (const auto& selectCase : select.cases)
        {
            text += " " + Keys(selectCase->keys) + ": " + Expr(*selectCase->state) + ";";
        }
        text += " }";
        break;
    }
    default:
        text = "<?>";
        break;
    }
    if (PrecedenceOf(expression) < minPrecedence)
    {
        return "(" + text + ")";
    }
    return text;
}

std::string
Printer::TypeText(const Type& type) const
{
    switch (type.kind)
    {
    case NodeKind::BitsType: {
        const auto& bits = static_cast<const BitsType&>(type);
        std::string width =
            bits.widthExpr ? "(" + Expr(*bits.widthExpr) + ")" : std::to_string(bits.width);
        return std::string(bits.isSigned ? "int<" : "bit<") + width + ">";
    }
    case NodeKind::VarbitType: {
        const auto& varbit = static_cast<const VarbitType&>(type);
        return "varbit<" +
               (varbit.widthExpr ? "(" + Expr(*varbit.widthExpr) + ")"
                                 : std::to_string(varbit.width)) +
               ">";
    }
    case NodeKind::InfIntType:
        return "int";
    case NodeKind::BoolType:
        return "bool";
    case NodeKind::ErrorType:
        return "error";
    case NodeKind::StringType:
        return "string";
    case NodeKind::VoidType:
        return "void";
    case NodeKind::DontCareType:
        return "_";
    case NodeKind::NamedType: {
        const auto& named = static_cast<const NamedType&>(type);
        return (named.global ? "." : "") + named.name + TypeArgs(named.typeArgs);
    }
    case NodeKind::StackType: {
        const auto& stack = static_cast<const StackType&>(type);
        return TypeText(*stack.element) + "[" + Expr(*stack.size) + "]";
    }
    case NodeKind::TupleType: {
        const auto& tuple = static_cast<const TupleType&>(type);
        std::string text = "tuple<";
        for (size_t i = 0; i < tuple.elements.size(); ++i)
        {
            text += (i == 0 ? "" : ", ") + TypeText(*tuple.elements[i]);
        }
        return text + ">";
    }
    default:
        return "<?>";
    }
}

std::string
Printer::Args(const PtrList<Argument>& args) const
{
    std::string text;
    for (size_t i = 0; i < args.size(); ++i)
    {
        if (i > 0)
        {
            text += ", ";
        }
        if (!args[i]->name.empty())
        {
            text += args[i]->name + " = ";
        }
        text += Expr(*args[i]->value);
    }
    return text;
}

std::string
Printer::TypeArgs(const PtrList<Type>& types) const
{
    if (types.empty())
    {
        return "";
    }
    std::string text = "<";
    for (size_t i = 0; i < types.size(); ++i)
    {
        text += (i == 0 ? "" : ", ") + TypeText(*types[i]);
    }
    return text + ">";
}

std::string
Printer::TypeParams(const PtrList<TypeParameter>& params) const
{
    if (params.empty())
    {
        return "";
    }
    std::string text = "<";
    for (size_t i = 0; i < params.size(); ++i)
    {
        text += (i == 0 ? "" : ", ") + params[i]->name;
    }
    return text + ">";
}

std::string
Printer::Params(const PtrList<Parameter>& params) const
{
    std::string text;
    for (size_t i = 0; i < params.size(); ++i)
    {
        const Parameter& param = *params[i];
        if (i > 0)
        {
            text += ", ";
        }
        text += AnnotationPrefix(param.annotations);
        if (param.direction != Direction::None)
        {
            text += std::string(ToString(param.direction)) + " ";
        }
        text += TypeText(*param.type) + " " + param.name;
        if (param.defaultValue)
        {
            text += " = " + Expr(*param.defaultValue);
        }
    }
    return text;
}

std::string
Printer::AnnotationText(const Annotation& annotation) const
{
    std::string text = "@" + annotation.name;
    if (annotation.isStructured)
    {
        text += "[";
        for (size_t i = 0; i < annotation.args.size(); ++i)
        {
            text += (i == 0 ? "" : ", ") + Expr(*annotation.args[i]);
        }
        for (size_t i = 0; i < annotation.pairs.size(); ++i)
        {
            text += (i == 0 ? "" : ", ") + annotation.pairs[i]->name + " = " +
                    Expr(*annotation.pairs[i]->value);
        }
        return text + "]";
    }
    if (!annotation.hasBody)
    {
        return text;
    }
    text += "(";
    if (annotation.argsParsed)
    {
        for (size_t i = 0; i < annotation.args.size(); ++i)
        {
            text += (i == 0 ? "" : ", ") + Expr(*annotation.args[i]);
        }
    }
    else
    {
        for (size_t i = 0; i < annotation.body.size(); ++i)
        {
            text += (i == 0 ? "" : " ") + annotation.body[i];
        }
    }
    return text + ")";
}

std::string
Printer::AnnotationPrefix(const Annotations& annotations) const
{
    std::string text;
    for (const auto& annotation : annotations)
    {
        text += AnnotationText(*annotation) + " ";
    }
    return text;
}

std::string
Printer::Keys(const PtrList<Expression>& keys) const
{
    if (keys.size() == 1)
    {
        return Expr(*keys[0]);
    }
    std::string text = "(";
    for (size_t i = 0; i < keys.size(); ++i)
    {
        text += (i == 0 ? "" : ", ") + Expr(*keys[i]);
    }
    return text + ")";
}

std::string
Printer::ActionRefText(const ActionRef& ref) const
{
    std::string text = AnnotationPrefix(ref.annotations) + Expr(*ref.action);
    if (ref.hasArgList)
    {
        text += "(" + Args(ref.args) + ")";
    }
    return text;
}

void
Printer::Block(const BlockStmt& block, int indent, bool endLine)
{
    m_out << "{\n";
    for (const auto& statement : block.statements)
    {
        Stmt(*statement, indent + 1);
    }
    Indent(indent);
    m_out << (endLine ? "}\n" : "}");
}

void
Printer::Members(const PtrList<EnumMember>& members, int indent)
{
    for (size_t i = 0; i < members.size(); ++i)
    {
        const EnumMember& member = *members[i];
        Indent(indent + 1);
        m_out << AnnotationPrefix(member.annotations) << member.name;
        if (member.value)
        {
            m_out << " = " << Expr(*member.value);
        }
        m_out << (i + 1 < members.size() ? ",\n" : "\n");
    }
}

void
Printer::Transition(const TransitionStmt& transition, int indent)
{
    Indent(indent);
    m_out << AnnotationPrefix(transition.annotations) << "transition ";
    const auto* select = transition.target->As<SelectExpr>();
    if (select == nullptr)
    {
        m_out << Expr(*transition.target) << ";\n";
        return;
    }
    m_out << "select(";
    for (size_t i = 0; i < select->selectors.size(); ++i)
    {
        m_out << (i == 0 ? "" : ", ") << Expr(*select->selectors[i]);
    }
    m_out << ") {\n";
    for (const auto& selectCase : select->cases)
    {
        Indent(indent + 1);
        m_out << Keys(selectCase->keys) << ": " << Expr(*selectCase->state) << ";\n";
    }
    Indent(indent);
    m_out << "}\n";
}

void
Printer::Table(const TableDecl& table, int indent)
{
    m_out << "table " << table.name << " {\n";
    for (const auto& property : table.properties)
    {
        Indent(indent + 1);
        m_out << AnnotationPrefix(property->annotations) << (property->isConst ? "const " : "")
              << property->name << " = ";
        switch (property->which)
        {
        case TablePropertyKind::Key:
            m_out << "{\n";
            for (const auto& key : property->keys)
            {
                Indent(indent + 2);
                m_out << Expr(*key->expression) << ": " << key->matchKind;
                for (const auto& annotation : key->annotations)
                {
                    m_out << " " << AnnotationText(*annotation);
                }
                m_out << ";\n";
            }
            Indent(indent + 1);
            m_out << "}\n";
            break;
        case TablePropertyKind::Actions:
            m_out << "{\n";
            for (const auto& action : property->actions)
            {
                Indent(indent + 2);
                m_out << ActionRefText(*action) << ";\n";
            }
            Indent(indent + 1);
            m_out << "}\n";
            break;
        case TablePropertyKind::Entries:
            m_out << "{\n";
            for (const auto& entry : property->entries)
            {
                Indent(indent + 2);
                m_out << AnnotationPrefix(entry->annotations);
                if (entry->priority)
                {
                    m_out << "priority = " << Expr(*entry->priority) << ": ";
                }
                m_out << Keys(entry->keys) << ": " << ActionRefText(*entry->action) << ";\n";
            }
            Indent(indent + 1);
            m_out << "}\n";
            break;
        case TablePropertyKind::DefaultAction:
            m_out << ActionRefText(*property->defaultAction) << ";\n";
            break;
        case TablePropertyKind::Value:
            m_out << Expr(*property->value) << ";\n";
            break;
        }
    }
    Indent(indent);
    m_out << "}\n";
}

void
Printer::Decl(const Declaration& declaration, int indent)
{
    Indent(indent);
    m_out << AnnotationPrefix(declaration.annotations);
    switch (declaration.kind)
    {
    case NodeKind::ConstDecl: {
        const auto& decl = static_cast<const ConstDecl&>(declaration);
        m_out << "const " << TypeText(*decl.type) << " " << decl.name << " = "
              << Expr(*decl.value) << ";\n";
        break;
    }
    case NodeKind::VariableDecl: {
        const auto& decl = static_cast<const VariableDecl&>(declaration);
        m_out << TypeText(*decl.type) << " " << decl.name;
        if (decl.initializer)
        {
            m_out << " = " << Expr(*decl.initializer);
        }
        m_out << ";\n";
        break;
    }
    case NodeKind::InstanceDecl: {
        const auto& decl = static_cast<const InstanceDecl&>(declaration);
        m_out << TypeText(*decl.type) << "(" << Args(decl.args) << ") " << decl.name;
        if (decl.hasInitializer)
        {
            m_out << " = {\n";
            for (const auto& member : decl.initializer)
            {
                Decl(*member, indent + 1);
            }
            Indent(indent);
            m_out << "}";
        }
        m_out << ";\n";
        break;
    }
    case NodeKind::TypedefDecl: {
        const auto& decl = static_cast<const TypedefDecl&>(declaration);
        m_out << (decl.isNewType ? "type " : "typedef ") << TypeText(*decl.type) << " "
              << decl.name << ";\n";
        break;
    }
    case NodeKind::HeaderDecl:
    case NodeKind::StructDecl: {
        const auto& decl = static_cast<const StructLikeDecl&>(declaration);
        const auto* structDecl = decl.As<StructDecl>();
        m_out << (decl.kind == NodeKind::HeaderDecl          ? "header "
                  : structDecl && structDecl->isUnion ? "header_union "
                                                      : "struct ")
              << decl.name << TypeParams(decl.typeParams) << " {\n";
        for (const auto& field : decl.fields)
        {
            Indent(indent + 1);
            m_out << AnnotationPrefix(field->annotations) << TypeText(*field->type) << " "
                  << field->name << ";\n";
        }
        Indent(indent);
        m_out << "}\n";
        break;
    }
    case NodeKind::EnumDecl: {
        const auto& decl = static_cast<const EnumDecl&>(declaration);
        m_out << "enum ";
        if (decl.underlyingType)
        {
            m_out << TypeText(*decl.underlyingType) << " ";
        }
        m_out << decl.name << " {\n";
        Members(decl.members, indent);
        Indent(indent);
        m_out << "}\n";
        break;
    }
    case NodeKind::ErrorDecl:
    case NodeKind::MatchKindDecl: {
        const auto& members = declaration.kind == NodeKind::ErrorDecl
                                  ? static_cast<const ErrorDecl&>(declaration).members
                                  : static_cast<const MatchKindDecl&>(declaration).members;
        m_out << (declaration.kind == NodeKind::ErrorDecl ? "error" : "match_kind") << " {\n";
        Members(members, indent);
        Indent(indent);
        m_out << "}\n";
        break;
    }
    case NodeKind::ExternDecl: {
        const auto& decl = static_cast<const ExternDecl&>(declaration);
        m_out << "extern " << decl.name << TypeParams(decl.typeParams) << " {\n";
        for (const auto& method : decl.methods)
        {
            Decl(*method, indent + 1);
        }
        Indent(indent);
        m_out << "}\n";
        break;
    }
    case NodeKind::MethodDecl: {
        const auto& decl = static_cast<const MethodDecl&>(declaration);
        m_out << (decl.isAbstract ? "abstract " : "");
        if (decl.returnType)
        {
            m_out << TypeText(*decl.returnType) << " ";
        }
        m_out << decl.name << TypeParams(decl.typeParams) << "(" << Params(decl.params)
              << ");\n";
        break;
    }
    case NodeKind::FunctionDecl: {
        const auto& decl = static_cast<const FunctionDecl&>(declaration);
        m_out << (decl.isExtern ? "extern " : "") << TypeText(*decl.returnType) << " "
              << decl.name << TypeParams(decl.typeParams) << "(" << Params(decl.params) << ")";
        if (decl.body)
        {
            m_out << " ";
            Block(*decl.body, indent);
        }
        else
        {
            m_out << ";\n";
        }
        break;
    }
    case NodeKind::ParserTypeDecl:
    case NodeKind::ControlTypeDecl:
    case NodeKind::PackageTypeDecl: {
        const char* keyword = declaration.kind == NodeKind::ParserTypeDecl    ? "parser"
                              : declaration.kind == NodeKind::ControlTypeDecl ? "control"
                                                                              : "package";
        const PtrList<TypeParameter>* typeParams = nullptr;
        const PtrList<Parameter>* params = nullptr;
        if (const auto* parser = declaration.As<ParserTypeDecl>())
        {
            typeParams = &parser->typeParams;
            params = &parser->params;
        }
        else if (const auto* control = declaration.As<ControlTypeDecl>())
        {
            typeParams = &control->typeParams;
            params = &control->params;
        }
        else
        {
            const auto& package = static_cast<const PackageTypeDecl&>(declaration);
            typeParams = &package.typeParams;
            params = &package.params;
        }
        m_out << keyword << " " << declaration.name << TypeParams(*typeParams) << "("
              << Params(*params) << ");\n";
        break;
    }
    case NodeKind::ParserDecl: {
        const auto& decl = static_cast<const ParserDecl&>(declaration);
        m_out << "parser " << decl.name << TypeParams(decl.typeParams) << "("
              << Params(decl.params) << ")";
        if (!decl.constructorParams.empty())
        {
            m_out << "(" << Params(decl.constructorParams) << ")";
        }
        m_out << " {\n";
        for (const auto& local : decl.locals)
        {
            Decl(*local, indent + 1);
        }
        for (const auto& state : decl.states)
        {
            Decl(*state, indent + 1);
        }
        Indent(indent);
        m_out << "}\n";
        break;
    }
    case NodeKind::ParserState: {
        const auto& decl = static_cast<const ParserState&>(declaration);
        m_out << "state " << decl.name << " {\n";
        for (const auto& statement : decl.statements)
        {
            Stmt(*statement, indent + 1);
        }
        if (decl.transition)
        {
            Transition(*decl.transition, indent + 1);
        }
        Indent(indent);
        m_out << "}\n";
        break;
    }
    case NodeKind::ControlDecl: {
        const auto& decl = static_cast<const ControlDecl&>(declaration);
        m_out << "control " << decl.name << TypeParams(decl.typeParams) << "("
              << Params(decl.params) << ")";
        if (!decl.constructorParams.empty())
        {
            m_out << "(" << Params(decl.constructorParams) << ")";
        }
        m_out << " {\n";
        for (const auto& local : decl.locals)
        {
            Decl(*local, indent + 1);
        }
        Indent(indent + 1);
        m_out << AnnotationPrefix(decl.apply->annotations) << "apply ";
        Block(*decl.apply, indent + 1);
        Indent(indent);
        m_out << "}\n";
        break;
    }
    case NodeKind::ActionDecl: {
        const auto& decl = static_cast<const ActionDecl&>(declaration);
        m_out << "action " << decl.name << "(" << Params(decl.params) << ") ";
        Block(*decl.body, indent);
        break;
    }
    case NodeKind::TableDecl:
        Table(static_cast<const TableDecl&>(declaration), indent);
        break;
    case NodeKind::ValueSetDecl: {
        const auto& decl = static_cast<const ValueSetDecl&>(declaration);
        m_out << "value_set<" << TypeText(*decl.elementType) << ">(" << Expr(*decl.size) << ") "
              << decl.name << ";\n";
        break;
    }
    default:
        // Fields, members, parameters and type parameters print as part of their parent.
        m_out << declaration.name << "\n";
        break;
    }
}

void
Printer::Stmt(const Statement& statement, int indent, bool leadingIndent)
{
    if (leadingIndent)
    {
        Indent(indent);
    }
    if (statement.kind != NodeKind::DeclStmt)
    {
        m_out << AnnotationPrefix(statement.annotations);
    }
    switch (statement.kind)
    {
    case NodeKind::BlockStmt:
        Block(static_cast<const BlockStmt&>(statement), indent);
        break;
    case NodeKind::AssignStmt: {
        const auto& assign = static_cast<const AssignStmt&>(statement);
        m_out << Expr(*assign.left) << " = " << Expr(*assign.right) << ";\n";
        break;
    }
    case NodeKind::CallStmt:
        m_out << Expr(*static_cast<const CallStmt&>(statement).call) << ";\n";
        break;
    case NodeKind::IfStmt: {
        const auto& ifStmt = static_cast<const IfStmt&>(statement);
        m_out << "if (" << Expr(*ifStmt.condition) << ") ";
        if (!ifStmt.elseBranch)
        {
            Stmt(*ifStmt.thenBranch, indent, false);
            break;
        }
        if (const auto* block = ifStmt.thenBranch->As<BlockStmt>();
            block != nullptr && block->annotations.empty())
        {
            Block(*block, indent, false);
        }
        else
        {
            // Braces keep a nested if from capturing this else.
            m_out << "{\n";
            Stmt(*ifStmt.thenBranch, indent + 1);
            Indent(indent);
            m_out << "}";
        }
        m_out << " else ";
        Stmt(*ifStmt.elseBranch, indent, false);
        break;
    }
    case NodeKind::SwitchStmt: {
        const auto& switchStmt = static_cast<const SwitchStmt&>(statement);
        m_out << "switch (" << Expr(*switchStmt.expression) << ") {\n";
        for (const auto& switchCase : switchStmt.cases)
        {
            Indent(indent + 1);
            m_out << Expr(*switchCase->label) << ":";
            if (switchCase->body)
            {
                m_out << " ";
                Block(*switchCase->body, indent + 1);
            }
            else
            {
                m_out << "\n";
            }
        }
        Indent(indent);
        m_out << "}\n";
        break;
    }
    case NodeKind::ExitStmt:
        m_out << "exit;\n";
        break;
    case NodeKind::ReturnStmt: {
        const auto& returnStmt = static_cast<const ReturnStmt&>(statement);
        m_out << "return";
        if (returnStmt.value)
        {
            m_out << " " << Expr(*returnStmt.value);
        }
        m_out << ";\n";
        break;
    }
    case NodeKind::EmptyStmt:
        m_out << ";\n";
        break;
    case NodeKind::DeclStmt:
        Decl(*static_cast<const DeclStmt&>(statement).declaration, leadingIndent ? 0 : indent);
        break;
    case NodeKind::TransitionStmt:
        // Normally printed by its state; here for completeness (leading indent already out).
        m_out << "transition " << Expr(*static_cast<const TransitionStmt&>(statement).target)
              << ";\n";
        break;
    default:
        m_out << "<?>;\n";
        break;
    }
}

// "core.p4" from "/work/main/p4/include/core.p4".
std::string
BaseName(const std::string& path)
{
    size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Visits each non-null child, in source order.
class ChildVisitor
{
  public:
    explicit ChildVisitor(const std::function<void(const Node&)>& visit)
        : m_visit(visit)
    {
    }

    template <typename T>
    void operator()(const std::unique_ptr<T>& child) const
    {
        if (child)
        {
            m_visit(*child);
        }
    }

    template <typename T>
    void operator()(const PtrList<T>& children) const
    {
        for (const auto& child : children)
        {
            (*this)(child);
        }
    }

  private:
    const std::function<void(const Node&)>& m_visit;
};

void
VisitChildren(const Node& node, const ChildVisitor& visit)
{
    if (const auto* declaration = node.As<Declaration>())
    {
        visit(declaration->annotations);
    }
    else if (const auto* statement = node.As<Statement>())
    {
        visit(statement->annotations);
    }
    switch (node.kind)
    {
    case NodeKind::BitsType:
        visit(static_cast<const BitsType&>(node).widthExpr);
        break;
    case NodeKind::VarbitType:
        visit(static_cast<const VarbitType&>(node).widthExpr);
        break;
    case NodeKind::NamedType:
        visit(static_cast<const NamedType&>(node).typeArgs);
        break;
    case NodeKind::StackType: {
        const auto& stack = static_cast<const StackType&>(node);
        visit(stack.element);
        visit(stack.size);
        break;
    }
    case NodeKind::TupleType:
        visit(static_cast<const TupleType&>(node).elements);
        break;
    case NodeKind::MemberExpr:
        visit(static_cast<const MemberExpr&>(node).object);
        break;
    case NodeKind::IndexExpr: {
        const auto& index = static_cast<const IndexExpr&>(node);
        visit(index.object);
        visit(index.index);
        break;
    }
    case NodeKind::SliceExpr: {
        const auto& slice = static_cast<const SliceExpr&>(node);
        visit(slice.object);
        visit(slice.high);
        visit(slice.low);
        break;
    }
    case NodeKind::UnaryExpr:
        visit(static_cast<const UnaryExpr&>(node).operand);
        break;
    case NodeKind::BinaryExpr: {
        const auto& binary = static_cast<const BinaryExpr&>(node);
        visit(binary.left);
        visit(binary.right);
        break;
    }
    case NodeKind::TernaryExpr: {
        const auto& ternary = static_cast<const TernaryExpr&>(node);
        visit(ternary.condition);
        visit(ternary.ifTrue);
        visit(ternary.ifFalse);
        break;
    }
    case NodeKind::CastExpr: {
        const auto& cast = static_cast<const CastExpr&>(node);
        visit(cast.target);
        visit(cast.operand);
        break;
    }
    case NodeKind::CallExpr: {
        const auto& call = static_cast<const CallExpr&>(node);
        visit(call.callee);
        visit(call.typeArgs);
        visit(call.args);
        break;
    }
    case NodeKind::ListExpr:
        visit(static_cast<const ListExpr&>(node).elements);
        break;
    case NodeKind::StructExpr:
        visit(static_cast<const StructExpr&>(node).fields);
        break;
    case NodeKind::SelectExpr: {
        const auto& select = static_cast<const SelectExpr&>(node);
        visit(select.selectors);
        visit(select.cases);
        break;
    }
    case NodeKind::BlockStmt:
        visit(static_cast<const BlockStmt&>(node).statements);
        break;
    case NodeKind::AssignStmt: {
        const auto& assign = static_cast<const AssignStmt&>(node);
        visit(assign.left);
        visit(assign.right);
        break;
    }
    case NodeKind::CallStmt:
        visit(static_cast<const CallStmt&>(node).call);
        break;
    case NodeKind::IfStmt: {
        const auto& ifStmt = static_cast<const IfStmt&>(node);
        visit(ifStmt.condition);
        visit(ifStmt.thenBranch);
        visit(ifStmt.elseBranch);
        break;
    }
    case NodeKind::SwitchStmt: {
        const auto& switchStmt = static_cast<const SwitchStmt&>(node);
        visit(switchStmt.expression);
        visit(switchStmt.cases);
        break;
    }
    case NodeKind::ReturnStmt:
        visit(static_cast<const ReturnStmt&>(node).value);
        break;
    case NodeKind::DeclStmt:
        visit(static_cast<const DeclStmt&>(node).declaration);
        break;
    case NodeKind::TransitionStmt:
        visit(static_cast<const TransitionStmt&>(node).target);
        break;
    case NodeKind::ConstDecl: {
        const auto& decl = static_cast<const ConstDecl&>(node);
        visit(decl.type);
        visit(decl.value);
        break;
    }
    case NodeKind::VariableDecl: {
        const auto& decl = static_cast<const VariableDecl&>(node);
        visit(decl.type);
        visit(decl.initializer);
        break;
    }
    case NodeKind::InstanceDecl: {
        const auto& decl = static_cast<const InstanceDecl&>(node);
        visit(decl.type);
        visit(decl.args);
        visit(decl.initializer);
        break;
    }
    case NodeKind::TypedefDecl:
        visit(static_cast<const TypedefDecl&>(node).type);
        break;
    case NodeKind::HeaderDecl:
    case NodeKind::StructDecl:
        visit(static_cast<const StructLikeDecl&>(node).fields);
        break;
    case NodeKind::StructField:
        visit(static_cast<const StructField&>(node).type);
        break;
    case NodeKind::EnumDecl: {
        const auto& decl = static_cast<const EnumDecl&>(node);
        visit(decl.underlyingType);
        visit(decl.members);
        break;
    }
    case NodeKind::ErrorDecl:
        visit(static_cast<const ErrorDecl&>(node).members);
        break;
    case NodeKind::MatchKindDecl:
        visit(static_cast<const MatchKindDecl&>(node).members);
        break;
    case NodeKind::EnumMember:
        visit(static_cast<const EnumMember&>(node).value);
        break;
    case NodeKind::ExternDecl: {
        const auto& decl = static_cast<const ExternDecl&>(node);
        visit(decl.typeParams);
        visit(decl.methods);
        break;
    }
    case NodeKind::MethodDecl: {
        const auto& decl = static_cast<const MethodDecl&>(node);
        visit(decl.returnType);
        visit(decl.typeParams);
        visit(decl.params);
        break;
    }
    case NodeKind::FunctionDecl: {
        const auto& decl = static_cast<const FunctionDecl&>(node);
        visit(decl.returnType);
        visit(decl.typeParams);
        visit(decl.params);
        visit(decl.body);
        break;
    }
    case NodeKind::ParserTypeDecl: {
        const auto& decl = static_cast<const ParserTypeDecl&>(node);
        visit(decl.typeParams);
        visit(decl.params);
        break;
    }
    case NodeKind::ControlTypeDecl: {
        const auto& decl = static_cast<const ControlTypeDecl&>(node);
        visit(decl.typeParams);
        visit(decl.params);
        break;
    }
    case NodeKind::PackageTypeDecl: {
        const auto& decl = static_cast<const PackageTypeDecl&>(node);
        visit(decl.typeParams);
        visit(decl.params);
        break;
    }
    case NodeKind::ParserState: {
        const auto& decl = static_cast<const ParserState&>(node);
        visit(decl.statements);
        visit(decl.transition);
        break;
    }
    case NodeKind::ParserDecl: {
        const auto& decl = static_cast<const ParserDecl&>(node);
        visit(decl.typeParams);
        visit(decl.params);
        visit(decl.constructorParams);
        visit(decl.locals);
        visit(decl.states);
        break;
    }
    case NodeKind::ControlDecl: {
        const auto& decl = static_cast<const ControlDecl&>(node);
        visit(decl.typeParams);
        visit(decl.params);
        visit(decl.constructorParams);
        visit(decl.locals);
        visit(decl.apply);
        break;
    }
    case NodeKind::ActionDecl: {
        const auto& decl = static_cast<const ActionDecl&>(node);
        visit(decl.params);
        visit(decl.body);
        break;
    }
    case NodeKind::TableDecl:
        visit(static_cast<const TableDecl&>(node).properties);
        break;
    case NodeKind::ValueSetDecl: {
        const auto& decl = static_cast<const ValueSetDecl&>(node);
        visit(decl.elementType);
        visit(decl.size);
        break;
    }
    case NodeKind::Parameter: {
        const auto& param = static_cast<const Parameter&>(node);
        visit(param.type);
        visit(param.defaultValue);
        break;
    }
    case NodeKind::Annotation:
        visit(static_cast<const Annotation&>(node).args);
        visit(static_cast<const Annotation&>(node).pairs);
        break;
    case NodeKind::Argument:
        visit(static_cast<const Argument&>(node).value);
        break;
    case NodeKind::NamedExpr:
        visit(static_cast<const NamedExpr&>(node).value);
        break;
    case NodeKind::SelectCase: {
        const auto& selectCase = static_cast<const SelectCase&>(node);
        visit(selectCase.keys);
        visit(selectCase.state);
        break;
    }
    case NodeKind::SwitchCase: {
        const auto& switchCase = static_cast<const SwitchCase&>(node);
        visit(switchCase.label);
        visit(switchCase.body);
        break;
    }
    case NodeKind::KeyElement: {
        const auto& key = static_cast<const KeyElement&>(node);
        visit(key.expression);
        visit(key.annotations);
        break;
    }
    case NodeKind::ActionRef: {
        const auto& ref = static_cast<const ActionRef&>(node);
        visit(ref.annotations);
        visit(ref.action);
        visit(ref.args);
        break;
    }
    case NodeKind::TableEntry: {
        const auto& entry = static_cast<const TableEntry&>(node);
        visit(entry.annotations);
        visit(entry.priority);
        visit(entry.keys);
        visit(entry.action);
        break;
    }
    case NodeKind::TableProperty: {
        const auto& property = static_cast<const TableProperty&>(node);
        visit(property.annotations);
        visit(property.keys);
        visit(property.actions);
        visit(property.entries);
        visit(property.defaultAction);
        visit(property.value);
        break;
    }
    default:
        // Leaves: literals, names, simple types, exit, empty, type parameters, default, _.
        break;
    }
}

} // namespace

void
ForEachChild(const Node& node, const std::function<void(const Node&)>& visit)
{
    VisitChildren(node, ChildVisitor(visit));
}

void
ForEachChild(Node& node, const std::function<void(Node&)>& visit)
{
    // The children are owned by a non-const node, so handing them out non-const is sound.
    ForEachChild(static_cast<const Node&>(node),
                 [&](const Node& child) { visit(const_cast<Node&>(child)); });
}

const char*
NodeKindName(NodeKind kind)
{
    switch (kind)
    {
#define INCSIM_P4_KIND_NAME(name)                                                              \
    case NodeKind::name:                                                                       \
        return #name;
        INCSIM_P4_KIND_NAME(BitsType)
        INCSIM_P4_KIND_NAME(VarbitType)
        INCSIM_P4_KIND_NAME(InfIntType)
        INCSIM_P4_KIND_NAME(BoolType)
        INCSIM_P4_KIND_NAME(ErrorType)
        INCSIM_P4_KIND_NAME(StringType)
        INCSIM_P4_KIND_NAME(VoidType)
        INCSIM_P4_KIND_NAME(DontCareType)
        INCSIM_P4_KIND_NAME(NamedType)
        INCSIM_P4_KIND_NAME(StackType)
        INCSIM_P4_KIND_NAME(TupleType)
        INCSIM_P4_KIND_NAME(IntegerLiteral)
        INCSIM_P4_KIND_NAME(BoolLiteral)
        INCSIM_P4_KIND_NAME(StringLiteral)
        INCSIM_P4_KIND_NAME(NameExpr)
        INCSIM_P4_KIND_NAME(MemberExpr)
        INCSIM_P4_KIND_NAME(IndexExpr)
        INCSIM_P4_KIND_NAME(SliceExpr)
        INCSIM_P4_KIND_NAME(UnaryExpr)
        INCSIM_P4_KIND_NAME(BinaryExpr)
        INCSIM_P4_KIND_NAME(TernaryExpr)
        INCSIM_P4_KIND_NAME(CastExpr)
        INCSIM_P4_KIND_NAME(CallExpr)
        INCSIM_P4_KIND_NAME(ListExpr)
        INCSIM_P4_KIND_NAME(StructExpr)
        INCSIM_P4_KIND_NAME(DefaultExpr)
        INCSIM_P4_KIND_NAME(DontCareExpr)
        INCSIM_P4_KIND_NAME(SelectExpr)
        INCSIM_P4_KIND_NAME(BlockStmt)
        INCSIM_P4_KIND_NAME(AssignStmt)
        INCSIM_P4_KIND_NAME(CallStmt)
        INCSIM_P4_KIND_NAME(IfStmt)
        INCSIM_P4_KIND_NAME(SwitchStmt)
        INCSIM_P4_KIND_NAME(ExitStmt)
        INCSIM_P4_KIND_NAME(ReturnStmt)
        INCSIM_P4_KIND_NAME(EmptyStmt)
        INCSIM_P4_KIND_NAME(DeclStmt)
        INCSIM_P4_KIND_NAME(TransitionStmt)
        INCSIM_P4_KIND_NAME(ConstDecl)
        INCSIM_P4_KIND_NAME(VariableDecl)
        INCSIM_P4_KIND_NAME(InstanceDecl)
        INCSIM_P4_KIND_NAME(TypedefDecl)
        INCSIM_P4_KIND_NAME(HeaderDecl)
        INCSIM_P4_KIND_NAME(StructDecl)
        INCSIM_P4_KIND_NAME(StructField)
        INCSIM_P4_KIND_NAME(EnumDecl)
        INCSIM_P4_KIND_NAME(ErrorDecl)
        INCSIM_P4_KIND_NAME(MatchKindDecl)
        INCSIM_P4_KIND_NAME(EnumMember)
        INCSIM_P4_KIND_NAME(ExternDecl)
        INCSIM_P4_KIND_NAME(MethodDecl)
        INCSIM_P4_KIND_NAME(FunctionDecl)
        INCSIM_P4_KIND_NAME(ParserTypeDecl)
        INCSIM_P4_KIND_NAME(ParserDecl)
        INCSIM_P4_KIND_NAME(ParserState)
        INCSIM_P4_KIND_NAME(ControlTypeDecl)
        INCSIM_P4_KIND_NAME(ControlDecl)
        INCSIM_P4_KIND_NAME(PackageTypeDecl)
        INCSIM_P4_KIND_NAME(ActionDecl)
        INCSIM_P4_KIND_NAME(TableDecl)
        INCSIM_P4_KIND_NAME(ValueSetDecl)
        INCSIM_P4_KIND_NAME(Parameter)
        INCSIM_P4_KIND_NAME(TypeParameter)
        INCSIM_P4_KIND_NAME(Annotation)
        INCSIM_P4_KIND_NAME(Argument)
        INCSIM_P4_KIND_NAME(NamedExpr)
        INCSIM_P4_KIND_NAME(SelectCase)
        INCSIM_P4_KIND_NAME(SwitchCase)
        INCSIM_P4_KIND_NAME(KeyElement)
        INCSIM_P4_KIND_NAME(ActionRef)
        INCSIM_P4_KIND_NAME(TableEntry)
        INCSIM_P4_KIND_NAME(TableProperty)
#undef INCSIM_P4_KIND_NAME
    }
    return "?";
}

std::optional<std::string>
Annotation::StringArg() const
{
    if (!argsParsed || args.size() != 1)
    {
        return std::nullopt;
    }
    if (const auto* literal = args[0]->As<StringLiteral>())
    {
        return literal->value;
    }
    return std::nullopt;
}

namespace
{

/// The first element of `items` (a vector of unique_ptrs to named nodes) called `name`.
template <typename Items>
auto
FindNamed(const Items& items, std::string_view name) -> decltype(items.front().get())
{
    for (const auto& item : items)
    {
        if (item->name == name)
        {
            return item.get();
        }
    }
    return nullptr;
}

} // namespace

const Annotation*
FindAnnotation(const Annotations& annotations, std::string_view name)
{
    return FindNamed(annotations, name);
}

const StructField*
StructLikeDecl::FindField(std::string_view fieldName) const
{
    return FindNamed(fields, fieldName);
}

const ParserState*
ParserDecl::FindState(std::string_view stateName) const
{
    return FindNamed(states, stateName);
}

const TableProperty*
TableDecl::FindProperty(std::string_view propertyName) const
{
    return FindNamed(properties, propertyName);
}

void
Program::Dump(std::ostream& out, const DumpOptions& options) const
{
    Printer printer(out);
    std::set<const SourceFile*> included;
    bool first = true;
    for (const auto& declaration : declarations)
    {
        if (declaration->IsSystem() && !options.includeSystem)
        {
            if (included.insert(declaration->location.file).second)
            {
                out << "#include <" << BaseName(declaration->location.file->Name()) << ">\n";
            }
            continue;
        }
        if (!first || !included.empty())
        {
            out << "\n";
        }
        first = false;
        printer.Decl(*declaration, 0);
    }
}

std::string
Program::DumpToString(const DumpOptions& options) const
{
    std::ostringstream out;
    Dump(out, options);
    return out.str();
}

std::string
ToString(const Expression& expression)
{
    std::ostringstream unused;
    return Printer(unused).Expr(expression);
}

const Type*
Canon(const Type* type)
{
    for (int depth = 0; type && depth < 64; ++depth)
    {
        const auto* named = type->As<NamedType>();
        const auto* typeDef =
            named && named->resolved ? named->resolved->As<TypedefDecl>() : nullptr;
        if (!typeDef || typeDef->isNewType)
        {
            return type;
        }
        type = typeDef->type.get();
    }
    return type;
}

const Expression*
ArgumentFor(const PtrList<Argument>& args, const PtrList<Parameter>& params, size_t i)
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

const Declaration*
NamedDecl(const Type* type)
{
    type = Canon(type);
    const auto* named = type ? type->As<NamedType>() : nullptr;
    return named ? named->resolved : nullptr;
}

unsigned
ScalarWidth(const Type* type)
{
    type = Canon(type);
    if (!type)
    {
        return 0;
    }
    if (const auto* bits = type->As<BitsType>())
    {
        return bits->width;
    }
    if (type->Is<BoolType>())
    {
        return 1;
    }
    if (type->Is<ErrorType>())
    {
        return 32;
    }
    if (const auto* decl = NamedDecl(type))
    {
        if (const auto* enumDecl = decl->As<EnumDecl>())
        {
            return enumDecl->underlyingType ? ScalarWidth(enumDecl->underlyingType.get()) : 32;
        }
    }
    return 0;
}

bool
IsSignedScalar(const Type* type)
{
    type = Canon(type);
    if (const auto* bits = type ? type->As<BitsType>() : nullptr)
    {
        return bits->isSigned;
    }
    if (const auto* decl = NamedDecl(type))
    {
        if (const auto* enumDecl = decl->As<EnumDecl>())
        {
            return enumDecl->underlyingType && IsSignedScalar(enumDecl->underlyingType.get());
        }
    }
    return false;
}

std::string
ToString(const Type& type)
{
    std::ostringstream unused;
    return Printer(unused).TypeText(type);
}

void
Dump(std::ostream& out, const Declaration& declaration, int indent)
{
    Printer(out).Decl(declaration, indent);
}

void
Dump(std::ostream& out, const Statement& statement, int indent)
{
    Printer(out).Stmt(statement, indent);
}

const char*
ToString(UnaryOp op)
{
    switch (op)
    {
    case UnaryOp::Negate:
        return "-";
    case UnaryOp::Plus:
        return "+";
    case UnaryOp::Complement:
        return "~";
    case UnaryOp::Not:
        return "!";
    }
    return "?";
}

const char*
ToString(BinaryOp op)
{
    switch (op)
    {
    case BinaryOp::Mul:
        return "*";
    case BinaryOp::Div:
        return "/";
    case BinaryOp::Mod:
        return "%";
    case BinaryOp::Add:
        return "+";
    case BinaryOp::Sub:
        return "-";
    case BinaryOp::AddSat:
        return "|+|";
    case BinaryOp::SubSat:
        return "|-|";
    case BinaryOp::Concat:
        return "++";
    case BinaryOp::Shl:
        return "<<";
    case BinaryOp::Shr:
        return ">>";
    case BinaryOp::BitAnd:
        return "&";
    case BinaryOp::BitXor:
        return "^";
    case BinaryOp::BitOr:
        return "|";
    case BinaryOp::Lt:
        return "<";
    case BinaryOp::Le:
        return "<=";
    case BinaryOp::Gt:
        return ">";
    case BinaryOp::Ge:
        return ">=";
    case BinaryOp::Eq:
        return "==";
    case BinaryOp::Ne:
        return "!=";
    case BinaryOp::And:
        return "&&";
    case BinaryOp::Or:
        return "||";
    case BinaryOp::Mask:
        return "&&&";
    case BinaryOp::Range:
        return "..";
    }
    return "?";
}

const char*
ToString(Direction direction)
{
    switch (direction)
    {
    case Direction::None:
        return "";
    case Direction::In:
        return "in";
    case Direction::Out:
        return "out";
    case Direction::InOut:
        return "inout";
    }
    return "";
}

} // namespace incsim::p4::ast
