#ifndef INCSIM_P4_COMPILER_AST_H
#define INCSIM_P4_COMPILER_AST_H

// The P4_16 abstract syntax tree: what the parser builds and the checker and code generator
// read. Nodes are plain structs that own their children (unique_ptr, in source order) and carry
// the location of their most telling token: a declaration's name, an operator, a member name.
//
// The parser fills in syntax only. Slots for the checker are marked "checker:": name
// resolution (`resolved`) and expression types (`type`).
//
// Node kinds are tested LLVM-style: `node.Is<ast::BinaryExpr>()`, `node.As<ast::CallExpr>()`
// (nullptr when it is something else); abstract bases (Type, Expression, Statement, Declaration)
// work too.

#include "p4/compiler/big-uint.h"
#include "p4/compiler/source.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace incsim::p4::ast
{

template <typename T>
using Ptr = std::unique_ptr<T>;
template <typename T>
using PtrList = std::vector<std::unique_ptr<T>>;

enum class NodeKind
{
    // Types.
    BitsType,
    VarbitType,
    InfIntType,
    BoolType,
    ErrorType,
    StringType,
    VoidType,
    DontCareType,
    NamedType,
    StackType,
    TupleType,
    // Expressions.
    IntegerLiteral,
    BoolLiteral,
    StringLiteral,
    NameExpr,
    MemberExpr,
    IndexExpr,
    SliceExpr,
    UnaryExpr,
    BinaryExpr,
    TernaryExpr,
    CastExpr,
    CallExpr,
    ListExpr,
    StructExpr,
    DefaultExpr,
    DontCareExpr,
    SelectExpr,
    // Statements.
    BlockStmt,
    AssignStmt,
    CallStmt,
    IfStmt,
    SwitchStmt,
    ExitStmt,
    ReturnStmt,
    EmptyStmt,
    DeclStmt,
    TransitionStmt,
    // Declarations.
    ConstDecl,
    VariableDecl,
    InstanceDecl,
    TypedefDecl,
    HeaderDecl,
    StructDecl,
    StructField,
    EnumDecl,
    ErrorDecl,
    MatchKindDecl,
    EnumMember,
    ExternDecl,
    MethodDecl,
    FunctionDecl,
    ParserTypeDecl,
    ParserDecl,
    ParserState,
    ControlTypeDecl,
    ControlDecl,
    PackageTypeDecl,
    ActionDecl,
    TableDecl,
    ValueSetDecl,
    Parameter,
    TypeParameter,
    // Parts of the above.
    Annotation,
    Argument,
    NamedExpr,
    SelectCase,
    SwitchCase,
    KeyElement,
    ActionRef,
    TableEntry,
    TableProperty,
};

const char* NodeKindName(NodeKind kind);

struct Node
{
    Node(NodeKind nodeKind, SourceLocation loc)
        : kind(nodeKind),
          location(loc)
    {
    }
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;
    virtual ~Node() = default;

    const NodeKind kind;
    SourceLocation location;

    template <typename T>
    bool Is() const
    {
        return T::Classof(kind);
    }
    template <typename T>
    const T* As() const
    {
        return Is<T>() ? static_cast<const T*>(this) : nullptr;
    }
    template <typename T>
    T* As()
    {
        return Is<T>() ? static_cast<T*>(this) : nullptr;
    }
};

/// Base of every concrete node: ties the struct to its NodeKind.
template <typename Base, NodeKind K>
struct NodeOf : Base
{
    static constexpr NodeKind kKind = K;
    static bool Classof(NodeKind kind) { return kind == K; }
    explicit NodeOf(SourceLocation loc = {})
        : Base(K, loc)
    {
    }
};

struct Declaration;
struct Expression;
struct NamedExpr;
struct BlockStmt;

// ---------------------------------------------------------------------------------------------
// Annotations and arguments
// ---------------------------------------------------------------------------------------------

/// @name("x"), @optional, @pragma foo bar, @field_list(A.b). Unknown annotations are kept and
/// ignored by later phases.
struct Annotation : NodeOf<Node, NodeKind::Annotation>
{
    using NodeOf::NodeOf;
    std::string name;
    /// The body's tokens as written; empty when there is no body.
    std::vector<std::string> body;
    /// The body parsed as a comma-separated expression list, when it is one (argsParsed).
    std::vector<std::unique_ptr<Expression>> args;
    bool hasBody = false;
    bool argsParsed = false;
    /// @name[...]: a structured annotation, whose body is `args` (an expression list) or
    /// `pairs` (key = value), never both.
    bool isStructured = false;
    std::vector<std::unique_ptr<NamedExpr>> pairs;

    /// The value of a single string argument (@name("x") -> "x").
    std::optional<std::string> StringArg() const;
};

using Annotations = PtrList<Annotation>;

/// The first annotation called `name`, or nullptr.
const Annotation* FindAnnotation(const Annotations& annotations, std::string_view name);

/// An argument of a call or instantiation; `name` is set for `f(x = 1)`.
struct Argument : NodeOf<Node, NodeKind::Argument>
{
    using NodeOf::NodeOf;
    std::string name;
    std::unique_ptr<Expression> value; // may be a DontCareExpr (`_`)
};

// ---------------------------------------------------------------------------------------------
// Types (as written; the checker resolves NamedType)
// ---------------------------------------------------------------------------------------------

struct Type : Node
{
    static bool Classof(NodeKind kind)
    {
        return kind >= NodeKind::BitsType && kind <= NodeKind::TupleType;
    }

  protected:
    using Node::Node;
};

/// bit<W> (isSigned false) or int<W>. `bit` alone is bit<1>. For bit<(expression)>, width is 0
/// and widthExpr holds the expression (checker: evaluate it and set width).
struct BitsType : NodeOf<Type, NodeKind::BitsType>
{
    using NodeOf::NodeOf;
    bool isSigned = false;
    uint32_t width = 0;
    std::unique_ptr<Expression> widthExpr;
};

/// varbit<W>: a header field of at most W bits whose length extract(hdr, bits) sets. For
/// varbit<(expression)>, width is 0 until the checker evaluates widthExpr.
struct VarbitType : NodeOf<Type, NodeKind::VarbitType>
{
    using NodeOf::NodeOf;
    uint32_t width = 0;
    std::unique_ptr<Expression> widthExpr;
};

/// `int` with no width: an arbitrary-precision compile-time integer.
struct InfIntType : NodeOf<Type, NodeKind::InfIntType>
{
    using NodeOf::NodeOf;
};

struct BoolType : NodeOf<Type, NodeKind::BoolType>
{
    using NodeOf::NodeOf;
};

struct ErrorType : NodeOf<Type, NodeKind::ErrorType>
{
    using NodeOf::NodeOf;
};

struct StringType : NodeOf<Type, NodeKind::StringType>
{
    using NodeOf::NodeOf;
};

struct VoidType : NodeOf<Type, NodeKind::VoidType>
{
    using NodeOf::NodeOf;
};

/// `_` as a type argument.
struct DontCareType : NodeOf<Type, NodeKind::DontCareType>
{
    using NodeOf::NodeOf;
};

/// A declared type by name, possibly specialized: ipv4_t, register<bit<32>>, .T (global).
struct NamedType : NodeOf<Type, NodeKind::NamedType>
{
    using NodeOf::NodeOf;
    std::string name;
    bool global = false;
    PtrList<Type> typeArgs;
    /// checker: the declaration the name refers to.
    const Declaration* resolved = nullptr;
};

/// A header stack: element[size].
struct StackType : NodeOf<Type, NodeKind::StackType>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> element;
    std::unique_ptr<Expression> size;
    /// The size when it is written as a plain integer; checker: otherwise evaluate `size`.
    uint32_t count = 0;
};

struct TupleType : NodeOf<Type, NodeKind::TupleType>
{
    using NodeOf::NodeOf;
    PtrList<Type> elements;
};

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

struct Expression : Node
{
    static bool Classof(NodeKind kind)
    {
        return kind >= NodeKind::IntegerLiteral && kind <= NodeKind::SelectExpr;
    }

    /// checker: the expression's type (owned by the Program or by a declaration).
    const Type* type = nullptr;

  protected:
    using Node::Node;
};

/// 42, 8w255, 4s3, 0x2a. The literal's width (if written), signedness and base (to print it
/// back as written).
struct IntegerLiteral : NodeOf<Expression, NodeKind::IntegerLiteral>
{
    using NodeOf::NodeOf;
    BigUint value;
    std::optional<uint32_t> width;
    bool isSigned = false;
    unsigned base = 10;
};

struct BoolLiteral : NodeOf<Expression, NodeKind::BoolLiteral>
{
    using NodeOf::NodeOf;
    bool value = false;
};

struct StringLiteral : NodeOf<Expression, NodeKind::StringLiteral>
{
    using NodeOf::NodeOf;
    std::string value; // escapes decoded
};

/// A name: a variable, parameter, constant, action, table, instance, state, or a type used as
/// a value (CloneType in CloneType.I2E; `error` in error.NoMatch). `.x` sets `global`.
struct NameExpr : NodeOf<Expression, NodeKind::NameExpr>
{
    using NodeOf::NodeOf;
    std::string name;
    bool global = false;
    /// checker: the declaration the name refers to.
    const Declaration* resolved = nullptr;
};

/// object.member: a field, a method (t.apply, hdr.isValid, packet.extract), an enum member, or
/// a header stack property (next, last, lastIndex, size). The location is the member's name.
struct MemberExpr : NodeOf<Expression, NodeKind::MemberExpr>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> object;
    std::string member;
    /// checker: the field, method or enum member declaration, when there is one.
    const Declaration* resolved = nullptr;
};

/// object[index] (header stacks).
struct IndexExpr : NodeOf<Expression, NodeKind::IndexExpr>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> object;
    std::unique_ptr<Expression> index;
};

/// object[high:low] (bit slices).
struct SliceExpr : NodeOf<Expression, NodeKind::SliceExpr>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> object;
    std::unique_ptr<Expression> high;
    std::unique_ptr<Expression> low;
};

enum class UnaryOp
{
    Negate,     // -
    Plus,       // +
    Complement, // ~
    Not,        // !
};

struct UnaryExpr : NodeOf<Expression, NodeKind::UnaryExpr>
{
    using NodeOf::NodeOf;
    UnaryOp op = UnaryOp::Negate;
    std::unique_ptr<Expression> operand;
};

enum class BinaryOp
{
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    AddSat, // |+|
    SubSat, // |-|
    Concat, // ++
    Shl,
    Shr,
    BitAnd,
    BitXor,
    BitOr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    Mask,  // &&& (select and entry keysets only)
    Range, // ..  (select and entry keysets only)
};

/// The location is the operator.
struct BinaryExpr : NodeOf<Expression, NodeKind::BinaryExpr>
{
    using NodeOf::NodeOf;
    BinaryOp op = BinaryOp::Add;
    std::unique_ptr<Expression> left;
    std::unique_ptr<Expression> right;
};

/// cond ? ifTrue : ifFalse
struct TernaryExpr : NodeOf<Expression, NodeKind::TernaryExpr>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> condition;
    std::unique_ptr<Expression> ifTrue;
    std::unique_ptr<Expression> ifFalse;
};

/// (target) operand
struct CastExpr : NodeOf<Expression, NodeKind::CastExpr>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> target;
    std::unique_ptr<Expression> operand;
};

/// callee<typeArgs>(args): function, method, action and constructor calls alike
/// (hash(...), hdr.eth.setValid(), t.apply(), packet.lookahead<bit<8>>(), Ingress()).
struct CallExpr : NodeOf<Expression, NodeKind::CallExpr>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> callee;
    PtrList<Type> typeArgs;
    PtrList<Argument> args;
};

/// { a, b, c }: a tuple or a list to initialize a header or struct.
struct ListExpr : NodeOf<Expression, NodeKind::ListExpr>
{
    using NodeOf::NodeOf;
    PtrList<Expression> elements;
};

/// One `name = value` of a StructExpr.
struct NamedExpr : NodeOf<Node, NodeKind::NamedExpr>
{
    using NodeOf::NodeOf;
    std::string name;
    std::unique_ptr<Expression> value;
};

/// { f = 1, g = 2 }
struct StructExpr : NodeOf<Expression, NodeKind::StructExpr>
{
    using NodeOf::NodeOf;
    PtrList<NamedExpr> fields;
};

/// `default` as a select or entry keyset, or as a switch label.
struct DefaultExpr : NodeOf<Expression, NodeKind::DefaultExpr>
{
    using NodeOf::NodeOf;
};

/// `_`: a keyset that matches anything, or an ignored out argument.
struct DontCareExpr : NodeOf<Expression, NodeKind::DontCareExpr>
{
    using NodeOf::NodeOf;
};

/// One `keys : state;` of a select. One key per selector expression; a key is an expression,
/// a BinaryExpr Mask (&&&) or Range (..), a DefaultExpr or a DontCareExpr.
struct SelectCase : NodeOf<Node, NodeKind::SelectCase>
{
    using NodeOf::NodeOf;
    PtrList<Expression> keys;
    std::unique_ptr<NameExpr> state;
};

/// select(selectors) { cases } (only as the target of a transition).
struct SelectExpr : NodeOf<Expression, NodeKind::SelectExpr>
{
    using NodeOf::NodeOf;
    PtrList<Expression> selectors;
    PtrList<SelectCase> cases;
};

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

struct Statement : Node
{
    static bool Classof(NodeKind kind)
    {
        return kind >= NodeKind::BlockStmt && kind <= NodeKind::TransitionStmt;
    }

    /// Annotations written before the statement (@atomic { ... }).
    PtrList<Annotation> annotations;

  protected:
    using Node::Node;
};

struct BlockStmt : NodeOf<Statement, NodeKind::BlockStmt>
{
    using NodeOf::NodeOf;
    PtrList<Statement> statements;
};

/// left = right; (the location is the `=`)
struct AssignStmt : NodeOf<Statement, NodeKind::AssignStmt>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> left;
    std::unique_ptr<Expression> right;
};

/// A call used as a statement: t.apply(); mark_to_drop(sm); packet.extract(hdr.eth);
struct CallStmt : NodeOf<Statement, NodeKind::CallStmt>
{
    using NodeOf::NodeOf;
    std::unique_ptr<CallExpr> call;
};

struct IfStmt : NodeOf<Statement, NodeKind::IfStmt>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> condition;
    std::unique_ptr<Statement> thenBranch;
    std::unique_ptr<Statement> elseBranch; // may be null
};

/// `label: { ... }` or, with no body, `label:` falling through to the next case. The label is a
/// NameExpr (an action, for switch (t.apply().action_run)), a DefaultExpr, or an expression.
struct SwitchCase : NodeOf<Node, NodeKind::SwitchCase>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> label;
    std::unique_ptr<BlockStmt> body; // null: falls through
};

struct SwitchStmt : NodeOf<Statement, NodeKind::SwitchStmt>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> expression;
    PtrList<SwitchCase> cases;
};

struct ExitStmt : NodeOf<Statement, NodeKind::ExitStmt>
{
    using NodeOf::NodeOf;
};

struct ReturnStmt : NodeOf<Statement, NodeKind::ReturnStmt>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> value; // may be null
};

struct EmptyStmt : NodeOf<Statement, NodeKind::EmptyStmt>
{
    using NodeOf::NodeOf;
};

/// A local variable or constant inside a block or parser state.
struct DeclStmt : NodeOf<Statement, NodeKind::DeclStmt>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Declaration> declaration; // VariableDecl or ConstDecl
};

/// transition target; the target is a NameExpr (a state, accept or reject) or a SelectExpr.
struct TransitionStmt : NodeOf<Statement, NodeKind::TransitionStmt>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> target;
};

// ---------------------------------------------------------------------------------------------
// Declarations (the location is the name)
// ---------------------------------------------------------------------------------------------

struct Declaration : Node
{
    static bool Classof(NodeKind kind)
    {
        return kind >= NodeKind::ConstDecl && kind <= NodeKind::TypeParameter;
    }

    std::string name;
    Annotations annotations;

    /// True for declarations that come from incsim's core.p4 and v1model.p4.
    bool IsSystem() const { return location.file != nullptr && location.file->IsSystem(); }

  protected:
    using Node::Node;
};

enum class Direction
{
    None, // directionless: an action parameter set by the control plane, or a constructor arg
    In,
    Out,
    InOut,
};

struct Parameter : NodeOf<Declaration, NodeKind::Parameter>
{
    using NodeOf::NodeOf;
    Direction direction = Direction::None;
    std::unique_ptr<Type> type;
    std::unique_ptr<Expression> defaultValue; // `= value`, may be null
};

/// The T in register<T>.
struct TypeParameter : NodeOf<Declaration, NodeKind::TypeParameter>
{
    using NodeOf::NodeOf;
};

struct ConstDecl : NodeOf<Declaration, NodeKind::ConstDecl>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> type;
    std::unique_ptr<Expression> value;
};

struct VariableDecl : NodeOf<Declaration, NodeKind::VariableDecl>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> type;
    std::unique_ptr<Expression> initializer; // may be null
};

/// An instantiation: register<bit<32>>(1024) r;  V1Switch(p(), ...) main;
struct InstanceDecl : NodeOf<Declaration, NodeKind::InstanceDecl>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> type; // a NamedType, possibly with type arguments
    PtrList<Argument> args;
    /// `Virtual() v = { bit<16> f(...) {...} };`: the functions implementing the extern's
    /// abstract methods (and instances they use); `this` in them names the instance.
    PtrList<Declaration> initializer;
    bool hasInitializer = false;
};

/// typedef bit<32> B32; (another name for the type) or, with isNewType, type bit<32> N32; (a
/// new type: values convert to and from bit<32> only by a cast; Canon stops at it).
struct TypedefDecl : NodeOf<Declaration, NodeKind::TypedefDecl>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> type;
    bool isNewType = false;
};

struct StructField : NodeOf<Declaration, NodeKind::StructField>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> type;
};

/// Base of HeaderDecl and StructDecl.
struct StructLikeDecl : Declaration
{
    static bool Classof(NodeKind kind)
    {
        return kind == NodeKind::HeaderDecl || kind == NodeKind::StructDecl;
    }

    PtrList<StructField> fields;
    PtrList<TypeParameter> typeParams; // struct S<T> { T f; }: a generic struct or header

    /// The field called `fieldName`, or nullptr.
    const StructField* FindField(std::string_view fieldName) const;

  protected:
    using Declaration::Declaration;
};

struct HeaderDecl : NodeOf<StructLikeDecl, NodeKind::HeaderDecl>
{
    using NodeOf::NodeOf;
};

/// A struct, or with isUnion a header_union (its fields are headers, at most one valid).
struct StructDecl : NodeOf<StructLikeDecl, NodeKind::StructDecl>
{
    using NodeOf::NodeOf;
    bool isUnion = false;
};

/// A member of an enum, error or match_kind declaration. `value` only for serializable enums.
struct EnumMember : NodeOf<Declaration, NodeKind::EnumMember>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> value;
};

/// enum E { A, B }  or  enum bit<8> E { A = 1, B = 2 } (underlyingType set).
struct EnumDecl : NodeOf<Declaration, NodeKind::EnumDecl>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> underlyingType; // null for a plain enum
    PtrList<EnumMember> members;
};

/// error { ... } (name "error"). A program may have several; their members add up.
struct ErrorDecl : NodeOf<Declaration, NodeKind::ErrorDecl>
{
    using NodeOf::NodeOf;
    PtrList<EnumMember> members;
};

/// match_kind { ... } (name "match_kind"). Their members add up too.
struct MatchKindDecl : NodeOf<Declaration, NodeKind::MatchKindDecl>
{
    using NodeOf::NodeOf;
    PtrList<EnumMember> members;
};

/// A method of an extern, or its constructor (isConstructor; no return type).
struct MethodDecl : NodeOf<Declaration, NodeKind::MethodDecl>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> returnType; // null for a constructor
    bool isAbstract = false; // `abstract`: each instance implements it in its initializer
    PtrList<TypeParameter> typeParams;
    PtrList<Parameter> params;
    bool isConstructor = false;
};

/// extern register<T> { register(bit<32> size); void read(out T result, in bit<32> index); }
struct ExternDecl : NodeOf<Declaration, NodeKind::ExternDecl>
{
    using NodeOf::NodeOf;
    PtrList<TypeParameter> typeParams;
    PtrList<MethodDecl> methods; // constructors included, in declaration order
};

/// extern void mark_to_drop(inout standard_metadata_t sm); (isExtern, no body), or a function
/// with a body: bit<16> max(in bit<16> a, in bit<16> b) { return a > b ? a : b; }
struct FunctionDecl : NodeOf<Declaration, NodeKind::FunctionDecl>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> returnType;
    PtrList<TypeParameter> typeParams;
    PtrList<Parameter> params;
    std::unique_ptr<BlockStmt> body; // null for an extern function
    bool isExtern = false;
};

/// parser Parser<H, M>(packet_in b, out H hdr, ...);  (an architecture's parser type)
struct ParserTypeDecl : NodeOf<Declaration, NodeKind::ParserTypeDecl>
{
    using NodeOf::NodeOf;
    PtrList<TypeParameter> typeParams;
    PtrList<Parameter> params;
};

/// control Ingress<H, M>(inout H hdr, ...);
struct ControlTypeDecl : NodeOf<Declaration, NodeKind::ControlTypeDecl>
{
    using NodeOf::NodeOf;
    PtrList<TypeParameter> typeParams;
    PtrList<Parameter> params;
};

/// package V1Switch<H, M>(Parser<H, M> p, ...);
struct PackageTypeDecl : NodeOf<Declaration, NodeKind::PackageTypeDecl>
{
    using NodeOf::NodeOf;
    PtrList<TypeParameter> typeParams;
    PtrList<Parameter> params;
};

/// state name { statements transition }. A state without a transition goes to reject.
struct ParserState : NodeOf<Declaration, NodeKind::ParserState>
{
    using NodeOf::NodeOf;
    PtrList<Statement> statements;
    std::unique_ptr<TransitionStmt> transition; // may be null
};

struct ParserDecl : NodeOf<Declaration, NodeKind::ParserDecl>
{
    using NodeOf::NodeOf;
    PtrList<TypeParameter> typeParams;
    PtrList<Parameter> params;
    PtrList<Parameter> constructorParams;
    PtrList<Declaration> locals; // ConstDecl, VariableDecl, InstanceDecl
    PtrList<ParserState> states;

    const ParserState* FindState(std::string_view stateName) const;
};

struct ControlDecl : NodeOf<Declaration, NodeKind::ControlDecl>
{
    using NodeOf::NodeOf;
    PtrList<TypeParameter> typeParams;
    PtrList<Parameter> params;
    PtrList<Parameter> constructorParams;
    PtrList<Declaration> locals; // ConstDecl, VariableDecl, InstanceDecl, ActionDecl, TableDecl
    std::unique_ptr<BlockStmt> apply;
};

/// An action, in a control or at the top level. Directionless parameters come from the
/// control plane (table entries); directed ones from the caller.
struct ActionDecl : NodeOf<Declaration, NodeKind::ActionDecl>
{
    using NodeOf::NodeOf;
    PtrList<Parameter> params;
    std::unique_ptr<BlockStmt> body;
};

/// value_set<bit<16>>(4) ports; in a parser: a set of values the control plane fills, used as a
/// select label.
struct ValueSetDecl : NodeOf<Declaration, NodeKind::ValueSetDecl>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Type> elementType;
    std::unique_ptr<Expression> size;
};

/// One `expression : match_kind;` of a table key.
struct KeyElement : NodeOf<Node, NodeKind::KeyElement>
{
    using NodeOf::NodeOf;
    std::unique_ptr<Expression> expression;
    std::string matchKind;
    SourceLocation matchKindLocation;
    Annotations annotations;
    /// checker: the match_kind member.
    const Declaration* resolvedMatchKind = nullptr;
};

/// An action named in a table: in `actions`, as `default_action`, or in an entry. `a` and `a()`
/// are both allowed (hasArgList tells which was written); the arguments bind the action's
/// leading parameters.
struct ActionRef : NodeOf<Node, NodeKind::ActionRef>
{
    using NodeOf::NodeOf;
    Annotations annotations;
    std::unique_ptr<NameExpr> action;
    PtrList<Argument> args;
    bool hasArgList = false;
};

/// keys : action;  One key per key element, as in a select case.
struct TableEntry : NodeOf<Node, NodeKind::TableEntry>
{
    using NodeOf::NodeOf;
    Annotations annotations;
    std::unique_ptr<Expression> priority; // `priority = N :`, may be null
    PtrList<Expression> keys;
    std::unique_ptr<ActionRef> action;
};

enum class TablePropertyKind
{
    Key,           // key = { ... }
    Actions,       // actions = { ... }
    Entries,       // [const] entries = { ... }
    DefaultAction, // [const] default_action = a(...);
    Value,         // anything else: size = 1024; implementation = ...; counters = ...;
};

struct TableProperty : NodeOf<Node, NodeKind::TableProperty>
{
    using NodeOf::NodeOf;
    std::string name;
    TablePropertyKind which = TablePropertyKind::Value;
    bool isConst = false;
    Annotations annotations;
    PtrList<KeyElement> keys;              // Key
    PtrList<ActionRef> actions;            // Actions
    PtrList<TableEntry> entries;           // Entries
    std::unique_ptr<ActionRef> defaultAction; // DefaultAction
    std::unique_ptr<Expression> value;     // Value
};

struct TableDecl : NodeOf<Declaration, NodeKind::TableDecl>
{
    using NodeOf::NodeOf;
    PtrList<TableProperty> properties; // in source order

    /// The property called `propertyName`, or nullptr.
    const TableProperty* FindProperty(std::string_view propertyName) const;
    /// Shortcuts; nullptr when the table does not have the property.
    const TableProperty* Key() const { return FindProperty("key"); }
    const TableProperty* Actions() const { return FindProperty("actions"); }
    const TableProperty* Entries() const { return FindProperty("entries"); }
    const TableProperty* DefaultAction() const { return FindProperty("default_action"); }
    const TableProperty* Size() const { return FindProperty("size"); }
};

// ---------------------------------------------------------------------------------------------
// The program
// ---------------------------------------------------------------------------------------------

struct DumpOptions
{
    /// Print core.p4 / v1model.p4 declarations too. Otherwise each system file is replaced by
    /// an `#include <file>` line, so the dump is a program the front end accepts again.
    bool includeSystem = false;
};

struct Program
{
    /// Every top-level declaration in source order, the architecture's first (they are
    /// #included at the top).
    PtrList<Declaration> declarations;
    /// The files locations point into; kept alive with the program.
    std::shared_ptr<SourceManager> sources;
    /// checker: types it creates (for Expression::type) live here.
    PtrList<Type> ownedTypes;

    /// Prints the program back as P4 text, in a canonical layout (used by --dump-ast and golden
    /// tests). Deterministic: declaration order, fixed spacing.
    void Dump(std::ostream& out, const DumpOptions& options = {}) const;
    std::string DumpToString(const DumpOptions& options = {}) const;
};

/// Calls `visit` on each direct child of `node` (annotations first, then the rest in source
/// order). Walkers recurse through it instead of knowing every node's fields.
void ForEachChild(const Node& node, const std::function<void(const Node&)>& visit);
void ForEachChild(Node& node, const std::function<void(Node&)>& visit);

/// Follows typedefs to the type they name (at most 64 deep; null stays null). A `type`
/// declaration is a new type: Canon stops at it.
const Type* Canon(const Type* type);
/// The declaration a (typedef'd) named type refers to, or nullptr.
const Declaration* NamedDecl(const Type* type);
/// Width in bits of a scalar type: bit/int, bool, serializable enum; 32 for enums and errors
/// (as the back end numbers them); 0 for anything else (structs, headers, stacks, InfInt).
unsigned ScalarWidth(const Type* type);
/// int<N>, or a serializable enum over one.
bool IsSignedScalar(const Type* type);
/// The argument for params[i] of a call or instantiation: the one named after it, or the
/// unnamed one at position i; nullptr if there is none.
const Expression* ArgumentFor(const PtrList<Argument>& args, const PtrList<Parameter>& params,
                              size_t i);

/// P4 text for one node (expressions and types print on one line; for messages).
std::string ToString(const Expression& expression);
std::string ToString(const Type& type);
/// P4 text for a declaration or statement, with `indent` levels of four spaces.
void Dump(std::ostream& out, const Declaration& declaration, int indent = 0);
void Dump(std::ostream& out, const Statement& statement, int indent = 0);

const char* ToString(UnaryOp op);
const char* ToString(BinaryOp op);
const char* ToString(Direction direction); // "", "in", "out", "inout"

} // namespace incsim::p4::ast

#endif
