#include "p4/compiler/parser.h"

#include "p4/compiler/diagnostics.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace incsim::p4
{
namespace
{

using ast::Ptr;
using ast::PtrList;

// Thrown after a syntax error has been reported; caught where the parser resynchronizes.
struct SyntaxError
{
};

// Thrown when the Diagnostics error limit is reached; caught at the top.
struct TooManyErrors
{
};

// Thrown after reporting that constructs nest deeper than kMaxNesting; caught at the top.
struct NestingTooDeep
{
};

// Statements, expressions and types inside each other, counted as the syntax tree grows in
// depth. The checker and the back end walk that tree recursively, so a bound here keeps every
// later phase within the stack; hand-written programs stay far below it.
constexpr size_t kMaxNesting = 256;

template <typename T>
Ptr<T>
Make(const SourceLocation& location)
{
    return std::make_unique<T>(location);
}

bool
IsWordToken(const Token& token)
{
    char c = token.text.empty() ? '\0' : token.text[0];
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

class Parser
{
  public:
    Parser(std::vector<Token> tokens, Diagnostics& diags)
        : m_tokens(std::move(tokens)),
          m_diags(diags)
    {
        if (m_tokens.empty() || !m_tokens.back().Is(TokenKind::End))
        {
            Token end;
            end.kind = TokenKind::End;
            if (!m_tokens.empty())
            {
                end.location = m_tokens.back().location;
            }
            m_tokens.push_back(std::move(end));
        }
        m_typeScopes.emplace_back();
    }

    std::unique_ptr<ast::Program> ParseProgram();
    std::unique_ptr<ast::Expression> ParseSingleExpression();

  private:
    // --- Tokens ------------------------------------------------------------------------------
    const Token& Peek(size_t ahead = 0) const
    {
        size_t index = m_pos + ahead;
        return index < m_tokens.size() ? m_tokens[index] : m_tokens.back();
    }
    const Token& TokenAt(size_t index) const
    {
        return index < m_tokens.size() ? m_tokens[index] : m_tokens.back();
    }
    bool At(TokenKind kind) const { return Peek().Is(kind); }
    const Token& Advance()
    {
        const Token& token = Peek();
        if (m_pos < m_tokens.size() - 1)
        {
            ++m_pos;
        }
        return token;
    }
    bool Accept(TokenKind kind)
    {
        if (At(kind))
        {
            Advance();
            return true;
        }
        return false;
    }
    const Token& Previous() const { return TokenAt(m_pos == 0 ? 0 : m_pos - 1); }
    const Token& Expect(TokenKind kind);
    /// A missing ';' right before a '}' or a line break is reported and assumed, so that the
    /// next line parses normally.
    void ExpectSemicolon(const char* after);

    // --- Errors ------------------------------------------------------------------------------
    void Error(const SourceLocation& location, std::string message);
    [[noreturn]] void Fail(const SourceLocation& location, std::string message);
    [[noreturn]] void FailExpected(const std::string& what);
    /// "<construct> is not supported by incsim[; <hint>]"
    void Unsupported(const SourceLocation& location,
                     const std::string& construct,
                     const std::string& hint = "");
    /// Skips to just after the next ';' or to the next '}' that closes an enclosing brace,
    /// treating a brace pair opened on the way as part of the bad construct.
    void Recover();
    /// Skips a whole declaration that is reported as unsupported: through its braces, or to ';'.
    void SkipDeclaration();
    /// Skips a balanced ( ... ) starting at the current '('.
    void SkipParens();
    /// Parses items until the '}' matching `open` (the '{' just consumed), which it consumes.
    template <typename F>
    void ParseBraced(const Token& open, F&& item);

    // --- Nesting -----------------------------------------------------------------------------
    /// Holds the levels of nesting that one parse function adds (one per Enter) until it
    /// returns. Entering past kMaxNesting reports the construct at Peek() and stops parsing.
    class Nesting
    {
      public:
        explicit Nesting(Parser& parser)
            : m_parser(parser)
        {
        }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;
        ~Nesting() { m_parser.m_nesting -= m_levels; }

        void Enter()
        {
            ++m_levels;
            if (++m_parser.m_nesting > kMaxNesting)
            {
                m_parser.m_diags.Error(m_parser.Peek().location,
                                       "nesting too deep: more than " +
                                           std::to_string(kMaxNesting) +
                                           " statements, expressions or types inside each other");
                throw NestingTooDeep{};
            }
        }

      private:
        Parser& m_parser;
        size_t m_levels = 0;
    };

    // --- Names and types ---------------------------------------------------------------------
    /// Identifiers, plus keywords P4 allows as names (apply, key, actions, state, entries, type,
    /// priority): t.apply(), standard_metadata.priority, CounterType type.
    static bool IsName(const Token& token);
    std::string ExpectName(const char* what);
    bool IsTypeName(const std::string& name) const;
    void DeclareType(const std::string& name) { m_typeScopes.back().insert(name); }
    /// Whether a type starts at Peek(ahead) (by keyword, or a name known to be a type).
    bool StartsType(size_t ahead) const;
    /// At '<' (index `at`): does a type argument list follow, closed by '>' and then '('?
    bool LooksLikeTypeArgs(size_t at) const;
    /// Index of the token after the <...> that starts at `at`.
    size_t SkipAngles(size_t at) const;
    /// Whether the '(' at `at` holds a top-level comma (a tuple keyset).
    bool ParensHoldComma(size_t at) const;

    Ptr<ast::Type> ParseType();
    Ptr<ast::Type> ParseNonStackType();
    Ptr<ast::BitsType> ParseBitsType(bool isSigned);
    PtrList<ast::Type> ParseTypeArgs();
    /// Optional <T, U>; declares the names as types in the current scope.
    PtrList<ast::TypeParameter> ParseTypeParams();
    PtrList<ast::Parameter> ParseParams();
    ast::Annotations ParseAnnotations();
    Ptr<ast::Annotation> ParseAnnotation();
    /// The body of @name[...] (the parser is at '[').
    void ParseStructuredBody(ast::Annotation& annotation);

    // --- Declarations ------------------------------------------------------------------------
    Ptr<ast::Declaration> ParseTopLevel();
    Ptr<ast::ConstDecl> ParseConst();
    Ptr<ast::Declaration> ParseTypedef();
    Ptr<ast::Declaration> ParseStructLike();
    Ptr<ast::EnumDecl> ParseEnum();
    template <typename DeclT>
    Ptr<DeclT> ParseMemberList(const Token& keyword, const char* name);
    void ParseEnumMembers(PtrList<ast::EnumMember>& members, bool withValues);
    Ptr<ast::Declaration> ParseExtern();
    Ptr<ast::MethodDecl> ParseExternMember(const std::string& externName);
    Ptr<ast::Declaration> ParseParser();
    /// What parser and control declarations share: `Name<T>(params)`; a `;` after it makes it a
    /// type declaration, otherwise constructor parameters may follow and `parseBody` parses the
    /// body, within the declaration's type scope.
    template <typename TypeDecl, typename Decl, typename ParseBody>
    Ptr<ast::Declaration> ParseParserOrControl(const char* what, ParseBody parseBody);
    Ptr<ast::ParserState> ParseState();
    Ptr<ast::TransitionStmt> ParseTransition();
    Ptr<ast::SelectExpr> ParseSelect();
    Ptr<ast::Declaration> ParseControl();
    Ptr<ast::PackageTypeDecl> ParsePackage();
    Ptr<ast::ActionDecl> ParseAction();
    Ptr<ast::TableDecl> ParseTable();
    Ptr<ast::TableProperty> ParseTableProperty();
    Ptr<ast::ActionRef> ParseActionRef();
    Ptr<ast::TableEntry> ParseTableEntry();
    /// Local declarations of parsers and controls: constants, variables, instantiations.
    Ptr<ast::Declaration> ParseLocalDeclaration(bool allowInstances);
    /// After the type: `T(args) name;` or, at the top level, a function declaration.
    Ptr<ast::Declaration> ParseInstanceOrFunction(Ptr<ast::Type> type);
    Ptr<ast::InstanceDecl> ParseInstance(Ptr<ast::Type> type);

    // --- Statements --------------------------------------------------------------------------
    Ptr<ast::Statement> ParseStatement();
    Ptr<ast::Statement> ParseStatementBody();
    Ptr<ast::BlockStmt> ParseBlock();
    Ptr<ast::Statement> ParseIf();
    Ptr<ast::Statement> ParseSwitch();
    Ptr<ast::Statement> ParseExpressionStatement();
    bool StartsLocalDeclaration() const;
    Ptr<ast::VariableDecl> ParseVariable(Ptr<ast::Type> type);

    // --- Expressions -------------------------------------------------------------------------
    Ptr<ast::Expression> ParseExpression();
    Ptr<ast::Expression> ParseBinary(int minPrecedence);
    Ptr<ast::Expression> ParseUnary();
    Ptr<ast::Expression> ParsePostfix();
    Ptr<ast::Expression> ParsePrimary();
    Ptr<ast::Expression> ParseBraceExpression();
    PtrList<ast::Argument> ParseArgs();
    bool StartsCast() const;
    /// One keyset: an expression, e &&& m, a .. b, default or _.
    Ptr<ast::Expression> ParseKeysetElement();
    /// A select case's or table entry's keys: one element, or a parenthesized tuple.
    PtrList<ast::Expression> ParseKeyset();

    std::vector<Token> m_tokens;
    size_t m_pos = 0;
    Diagnostics& m_diags;
    std::vector<std::set<std::string>> m_typeScopes;
    /// Levels of nesting open at the current token (see Nesting).
    size_t m_nesting = 0;
    /// >0 while trying a parse that may fail quietly (annotation bodies).
    int m_quiet = 0;
    bool m_quietFailed = false;
};

// RAII scope for type parameters.
class TypeScope
{
  public:
    explicit TypeScope(std::vector<std::set<std::string>>& scopes)
        : m_scopes(scopes)
    {
        m_scopes.emplace_back();
    }
    ~TypeScope() { m_scopes.pop_back(); }
    TypeScope(const TypeScope&) = delete;
    TypeScope& operator=(const TypeScope&) = delete;

  private:
    std::vector<std::set<std::string>>& m_scopes;
};

// --- Errors and recovery ---------------------------------------------------------------------

void
Parser::Error(const SourceLocation& location, std::string message)
{
    if (m_quiet > 0)
    {
        m_quietFailed = true;
        return;
    }
    m_diags.Error(location, std::move(message));
    if (m_diags.LimitReached())
    {
        throw TooManyErrors{};
    }
}

void
Parser::Fail(const SourceLocation& location, std::string message)
{
    Error(location, std::move(message));
    throw SyntaxError{};
}

void
Parser::FailExpected(const std::string& what)
{
    Fail(Peek().location, "expected " + what + ", found " + Peek().Describe());
}

void
Parser::Unsupported(const SourceLocation& location,
                    const std::string& construct,
                    const std::string& hint)
{
    Error(location, construct + " is not supported by incsim" + (hint.empty() ? "" : "; " + hint));
}

const Token&
Parser::Expect(TokenKind kind)
{
    if (!At(kind))
    {
        FailExpected(TokenKindName(kind));
    }
    return Advance();
}

void
Parser::ExpectSemicolon(const char* after)
{
    if (Accept(TokenKind::Semicolon))
    {
        return;
    }
    const Token& previous = Previous();
    SourceLocation location = previous.location;
    location.column += std::max<uint32_t>(previous.location.length, 1);
    location.length = 1;
    bool assume = At(TokenKind::RBrace) || At(TokenKind::End) ||
                  Peek().location.line != previous.location.line ||
                  Peek().location.file != previous.location.file;
    if (assume)
    {
        Error(location, std::string("expected ';' after ") + after);
        return;
    }
    Fail(Peek().location,
         std::string("expected ';' after ") + after + ", found " + Peek().Describe());
}

void
Parser::Recover()
{
    int depth = 0;
    while (!At(TokenKind::End))
    {
        if (At(TokenKind::Semicolon) && depth == 0)
        {
            Advance();
            return;
        }
        if (At(TokenKind::LBrace))
        {
            ++depth;
        }
        else if (At(TokenKind::RBrace))
        {
            if (depth == 0)
            {
                return;
            }
            if (--depth == 0)
            {
                Advance();
                return;
            }
        }
        Advance();
    }
}

void
Parser::SkipDeclaration()
{
    int depth = 0;
    while (!At(TokenKind::End))
    {
        const Token& token = Advance();
        if (token.Is(TokenKind::LBrace))
        {
            ++depth;
        }
        else if (token.Is(TokenKind::RBrace))
        {
            if (--depth <= 0)
            {
                return;
            }
        }
        else if (token.Is(TokenKind::Semicolon) && depth == 0)
        {
            return;
        }
    }
}

void
Parser::SkipParens()
{
    int depth = 0;
    do
    {
        if (At(TokenKind::LParen))
        {
            ++depth;
        }
        else if (At(TokenKind::RParen))
        {
            --depth;
        }
        Advance();
    } while (depth > 0 && !At(TokenKind::End));
}

template <typename F>
void
Parser::ParseBraced(const Token& open, F&& item)
{
    SourceLocation openLocation = open.location;
    while (!At(TokenKind::RBrace))
    {
        if (At(TokenKind::End))
        {
            Error(Peek().location, "expected '}' at end of file");
            if (m_quiet == 0)
            {
                m_diags.Note(openLocation, "to match this '{'");
            }
            return;
        }
        size_t before = m_pos;
        try
        {
            item();
        }
        catch (const SyntaxError&)
        {
            Recover();
        }
        if (m_pos == before && !At(TokenKind::RBrace) && !At(TokenKind::End))
        {
            Advance(); // never loop without progress
        }
    }
    Advance();
}

// --- Names and types -------------------------------------------------------------------------

bool
Parser::IsName(const Token& token)
{
    switch (token.kind)
    {
    case TokenKind::Identifier:
    case TokenKind::KwApply:
    case TokenKind::KwKey:
    case TokenKind::KwActions:
    case TokenKind::KwState:
    case TokenKind::KwEntries:
    case TokenKind::KwType:
    case TokenKind::KwPriority:
        return true;
    default:
        return false;
    }
}

std::string
Parser::ExpectName(const char* what)
{
    if (!IsName(Peek()))
    {
        if (IsWordToken(Peek()))
        {
            Fail(Peek().location,
                 "expected " + std::string(what) + ", found keyword " + Peek().Describe());
        }
        FailExpected(what);
    }
    return Advance().text;
}

bool
Parser::IsTypeName(const std::string& name) const
{
    for (const auto& scope : m_typeScopes)
    {
        if (scope.count(name) > 0)
        {
            return true;
        }
    }
    return false;
}

bool
Parser::StartsType(size_t ahead) const
{
    const Token& token = Peek(ahead);
    switch (token.kind)
    {
    case TokenKind::KwBit:
    case TokenKind::KwInt:
    case TokenKind::KwVarbit:
    case TokenKind::KwBool:
    case TokenKind::KwString:
    case TokenKind::KwVoid:
    case TokenKind::KwTuple:
    case TokenKind::KwError:
        return true;
    case TokenKind::Identifier:
        return IsTypeName(token.text);
    case TokenKind::Dot:
        return Peek(ahead + 1).Is(TokenKind::Identifier) && IsTypeName(Peek(ahead + 1).text);
    default:
        return false;
    }
}

size_t
Parser::SkipAngles(size_t at) const
{
    int depth = 0;
    size_t i = at;
    while (i < m_tokens.size())
    {
        const Token& token = m_tokens[i];
        if (token.Is(TokenKind::Lt))
        {
            ++depth;
        }
        else if (token.Is(TokenKind::Gt))
        {
            if (--depth == 0)
            {
                return i + 1;
            }
        }
        else if (token.Is(TokenKind::End) || token.Is(TokenKind::Semicolon) ||
                 token.Is(TokenKind::LBrace) || token.Is(TokenKind::RBrace))
        {
            return i;
        }
        ++i;
    }
    return i;
}

bool
Parser::LooksLikeTypeArgs(size_t at) const
{
    int angles = 0;
    int parens = 0;
    bool expectType = true; // just after '<' or ','
    for (size_t i = at; i < m_tokens.size(); ++i)
    {
        const Token& token = m_tokens[i];
        TokenKind previous = i > 0 ? m_tokens[i - 1].kind : TokenKind::End;
        if (parens > 0)
        {
            // bit<(W + 1)>: anything but statement structure inside parentheses.
            if (token.Is(TokenKind::LParen))
            {
                ++parens;
            }
            else if (token.Is(TokenKind::RParen))
            {
                --parens;
            }
            else if (token.Is(TokenKind::Semicolon) || token.Is(TokenKind::LBrace) ||
                     token.Is(TokenKind::RBrace) || token.Is(TokenKind::End))
            {
                return false;
            }
            continue;
        }
        switch (token.kind)
        {
        case TokenKind::Lt:
            ++angles;
            // bit<8>: a width, not a type, follows.
            expectType = previous != TokenKind::KwBit && previous != TokenKind::KwInt &&
                         previous != TokenKind::KwVarbit;
            continue;
        case TokenKind::Gt:
            if (--angles == 0)
            {
                return TokenAt(i + 1).Is(TokenKind::LParen);
            }
            expectType = false;
            continue;
        case TokenKind::Comma:
            expectType = true;
            continue;
        case TokenKind::Identifier:
            if (expectType && !IsTypeName(token.text))
            {
                return false;
            }
            expectType = false;
            continue;
        case TokenKind::KwBit:
        case TokenKind::KwInt:
        case TokenKind::KwVarbit:
        case TokenKind::KwBool:
        case TokenKind::KwError:
        case TokenKind::KwString:
        case TokenKind::KwTuple:
        case TokenKind::KwVoid:
        case TokenKind::DontCare:
            expectType = false;
            continue;
        case TokenKind::Integer:
        case TokenKind::LBracket:
        case TokenKind::RBracket:
            if (expectType)
            {
                return false;
            }
            continue;
        case TokenKind::LParen:
            parens = 1;
            continue;
        default:
            return false;
        }
    }
    return false;
}

bool
Parser::ParensHoldComma(size_t at) const
{
    int depth = 0;
    for (size_t i = at; i < m_tokens.size(); ++i)
    {
        const Token& token = m_tokens[i];
        if (token.Is(TokenKind::LParen) || token.Is(TokenKind::LBracket) ||
            token.Is(TokenKind::LBrace))
        {
            ++depth;
        }
        else if (token.Is(TokenKind::RParen) || token.Is(TokenKind::RBracket) ||
                 token.Is(TokenKind::RBrace))
        {
            if (--depth == 0)
            {
                return false;
            }
        }
        else if (token.Is(TokenKind::Comma) && depth == 1)
        {
            return true;
        }
        else if (token.Is(TokenKind::Semicolon) || token.Is(TokenKind::End))
        {
            return false;
        }
    }
    return false;
}

Ptr<ast::Type>
Parser::ParseType()
{
    Nesting nesting(*this);
    nesting.Enter();
    Ptr<ast::Type> type = ParseNonStackType();
    while (At(TokenKind::LBracket))
    {
        nesting.Enter();
        auto stack = Make<ast::StackType>(Advance().location);
        stack->element = std::move(type);
        stack->size = ParseExpression();
        if (const auto* literal = stack->size->As<ast::IntegerLiteral>())
        {
            if (literal->value.FitsIn64() && literal->value.Low64() <= 0xffffffffULL)
            {
                stack->count = static_cast<uint32_t>(literal->value.Low64());
            }
        }
        Expect(TokenKind::RBracket);
        type = std::move(stack);
    }
    return type;
}

Ptr<ast::BitsType>
Parser::ParseBitsType(bool isSigned)
{
    auto bits = Make<ast::BitsType>(Advance().location);
    bits->isSigned = isSigned;
    bits->width = 1;
    if (!Accept(TokenKind::Lt))
    {
        return bits;
    }
    if (At(TokenKind::Integer))
    {
        const Token& width = Advance();
        if (width.integer.width || !width.integer.value.FitsIn64() ||
            width.integer.value.Low64() > 0xffffffffULL)
        {
            Fail(width.location, "width " + width.text + " is not a plain integer");
        }
        bits->width = static_cast<uint32_t>(width.integer.value.Low64());
    }
    else if (Accept(TokenKind::LParen))
    {
        bits->width = 0;
        bits->widthExpr = ParseExpression();
        Expect(TokenKind::RParen);
    }
    else
    {
        FailExpected("a width (an integer or a parenthesized expression)");
    }
    Expect(TokenKind::Gt);
    return bits;
}

Ptr<ast::Type>
Parser::ParseNonStackType()
{
    const Token& token = Peek();
    switch (token.kind)
    {
    case TokenKind::KwBit:
        return ParseBitsType(false);
    case TokenKind::KwInt:
        if (!Peek(1).Is(TokenKind::Lt))
        {
            return Make<ast::InfIntType>(Advance().location);
        }
        return ParseBitsType(true);
    case TokenKind::KwVarbit: {
        Ptr<ast::BitsType> bits = ParseBitsType(false);
        auto varbit = Make<ast::VarbitType>(bits->location);
        varbit->width = bits->width;
        varbit->widthExpr = std::move(bits->widthExpr);
        return varbit;
    }
    case TokenKind::KwBool:
        return Make<ast::BoolType>(Advance().location);
    case TokenKind::KwError:
        return Make<ast::ErrorType>(Advance().location);
    case TokenKind::KwString:
        return Make<ast::StringType>(Advance().location);
    case TokenKind::KwVoid:
        return Make<ast::VoidType>(Advance().location);
    case TokenKind::DontCare:
        return Make<ast::DontCareType>(Advance().location);
    case TokenKind::KwTuple: {
        auto tuple = Make<ast::TupleType>(Advance().location);
        tuple->elements = ParseTypeArgs();
        return tuple;
    }
    case TokenKind::Dot:
    case TokenKind::Identifier: {
        bool global = Accept(TokenKind::Dot);
        if (!At(TokenKind::Identifier))
        {
            FailExpected("a type");
        }
        auto named = Make<ast::NamedType>(Peek().location);
        named->global = global;
        named->name = Advance().text;
        if (At(TokenKind::Lt))
        {
            named->typeArgs = ParseTypeArgs();
        }
        return named;
    }
    case TokenKind::KwHeaderUnion:
        Unsupported(token.location, "header_union");
        throw SyntaxError{};
    default:
        FailExpected("a type");
    }
}

PtrList<ast::Type>
Parser::ParseTypeArgs()
{
    PtrList<ast::Type> types;
    Expect(TokenKind::Lt);
    do
    {
        types.push_back(ParseType());
    } while (Accept(TokenKind::Comma));
    Expect(TokenKind::Gt);
    return types;
}

PtrList<ast::TypeParameter>
Parser::ParseTypeParams()
{
    PtrList<ast::TypeParameter> params;
    if (!Accept(TokenKind::Lt))
    {
        return params;
    }
    do
    {
        auto param = Make<ast::TypeParameter>(Peek().location);
        param->name = ExpectName("a type parameter name");
        DeclareType(param->name);
        params.push_back(std::move(param));
    } while (Accept(TokenKind::Comma));
    Expect(TokenKind::Gt);
    return params;
}

PtrList<ast::Parameter>
Parser::ParseParams()
{
    PtrList<ast::Parameter> params;
    Expect(TokenKind::LParen);
    if (Accept(TokenKind::RParen))
    {
        return params;
    }
    do
    {
        ast::Annotations annotations = ParseAnnotations();
        ast::Direction direction = ast::Direction::None;
        if (Accept(TokenKind::KwIn))
        {
            direction = ast::Direction::In;
        }
        else if (Accept(TokenKind::KwOut))
        {
            direction = ast::Direction::Out;
        }
        else if (Accept(TokenKind::KwInout))
        {
            direction = ast::Direction::InOut;
        }
        Ptr<ast::Type> type = ParseType();
        auto param = Make<ast::Parameter>(Peek().location);
        param->name = ExpectName("a parameter name");
        param->direction = direction;
        param->type = std::move(type);
        param->annotations = std::move(annotations);
        if (Accept(TokenKind::Assign))
        {
            param->defaultValue = ParseExpression();
        }
        params.push_back(std::move(param));
    } while (Accept(TokenKind::Comma));
    Expect(TokenKind::RParen);
    return params;
}

ast::Annotations
Parser::ParseAnnotations()
{
    ast::Annotations annotations;
    while (At(TokenKind::At))
    {
        Ptr<ast::Annotation> annotation = ParseAnnotation();
        for (const auto& previous : annotations)
        {
            // P4_16 spec, "Structured annotations": a name appears once per element.
            if (annotation->isStructured && previous->isStructured &&
                previous->name == annotation->name)
            {
                Error(annotation->location, "structured annotation @" + annotation->name +
                                                " is given twice on the same element");
            }
        }
        annotations.push_back(std::move(annotation));
    }
    return annotations;
}

void
Parser::ParseStructuredBody(ast::Annotation& annotation)
{
    // @name[] | @name[e1, e2, ...] | @name[k1 = e1, k2 = e2, ...]
    annotation.isStructured = true;
    annotation.hasBody = true;
    annotation.argsParsed = true;
    Expect(TokenKind::LBracket);
    if (Accept(TokenKind::RBracket))
    {
        return;
    }
    do
    {
        const ast::Expression* value = nullptr;
        if (IsName(Peek()) && Peek(1).Is(TokenKind::Assign))
        {
            auto pair = Make<ast::NamedExpr>(Peek().location);
            pair->name = Advance().text;
            Advance();
            pair->value = ParseExpression();
            for (const auto& previous : annotation.pairs)
            {
                if (previous->name == pair->name)
                {
                    Error(pair->location, "key '" + pair->name + "' is given twice in @" +
                                              annotation.name + "[...]");
                }
            }
            value = pair->value.get();
            annotation.pairs.push_back(std::move(pair));
        }
        else
        {
            annotation.args.push_back(ParseExpression());
            value = annotation.args.back().get();
        }
        if (!annotation.pairs.empty() && !annotation.args.empty())
        {
            Error(value->location, "@" + annotation.name + "[...] mixes key = value pairs and "
                                  "plain expressions; use one or the other");
        }
        if (value->Is<ast::ListExpr>() || value->Is<ast::StructExpr>())
        {
            Error(value->location, "a value in @" + annotation.name + "[...] must be a literal "
                                  "or a constant expression, not a list");
        }
    } while (Accept(TokenKind::Comma) && !At(TokenKind::RBracket));
    Expect(TokenKind::RBracket);
}

Ptr<ast::Annotation>
Parser::ParseAnnotation()
{
    const Token& at = Advance();
    if (!IsWordToken(Peek()))
    {
        Fail(at.location, "expected an annotation name right after '@'");
    }
    auto annotation = Make<ast::Annotation>(Peek().location);
    annotation->name = Advance().text;
    if (At(TokenKind::LBracket))
    {
        ParseStructuredBody(*annotation);
        return annotation;
    }
    if (!At(TokenKind::LParen))
    {
        return annotation;
    }
    // The body is kept as written; when it reads as an expression list it is parsed too.
    annotation->hasBody = true;
    size_t open = m_pos;
    int depth = 0;
    size_t close = open;
    for (size_t i = open; i < m_tokens.size(); ++i)
    {
        const Token& token = m_tokens[i];
        if (token.Is(TokenKind::End))
        {
            Fail(m_tokens[open].location, "unterminated annotation body");
        }
        if (token.Is(TokenKind::LParen))
        {
            ++depth;
        }
        else if (token.Is(TokenKind::RParen) && --depth == 0)
        {
            close = i;
            break;
        }
    }
    for (size_t i = open + 1; i < close; ++i)
    {
        annotation->body.push_back(m_tokens[i].text);
    }
    Advance();
    if (close > open + 1)
    {
        ++m_quiet;
        m_quietFailed = false;
        PtrList<ast::Expression> args;
        try
        {
            do
            {
                args.push_back(ParseExpression());
            } while (Accept(TokenKind::Comma));
        }
        catch (const SyntaxError&)
        {
            m_quietFailed = true;
        }
        --m_quiet;
        if (!m_quietFailed && m_pos == close)
        {
            annotation->args = std::move(args);
            annotation->argsParsed = true;
        }
    }
    else
    {
        annotation->argsParsed = true;
    }
    m_pos = close + 1;
    return annotation;
}

// --- Declarations ----------------------------------------------------------------------------

Ptr<ast::Declaration>
Parser::ParseTopLevel()
{
    ast::Annotations annotations = ParseAnnotations();
    const Token& token = Peek();
    Ptr<ast::Declaration> declaration;
    switch (token.kind)
    {
    case TokenKind::Semicolon:
        Advance();
        return nullptr;
    case TokenKind::KwConst:
        declaration = ParseConst();
        break;
    case TokenKind::KwTypedef:
    case TokenKind::KwType:
        declaration = ParseTypedef();
        break;
    case TokenKind::KwHeader:
    case TokenKind::KwStruct:
    case TokenKind::KwHeaderUnion:
        declaration = ParseStructLike();
        break;
    case TokenKind::KwEnum:
        declaration = ParseEnum();
        break;
    case TokenKind::KwError:
        if (!Peek(1).Is(TokenKind::LBrace))
        {
            FailExpected("a declaration");
        }
        declaration = ParseMemberList<ast::ErrorDecl>(Advance(), "error");
        break;
    case TokenKind::KwMatchKind:
        declaration = ParseMemberList<ast::MatchKindDecl>(Advance(), "match_kind");
        break;
    case TokenKind::KwExtern:
        declaration = ParseExtern();
        break;
    case TokenKind::KwParser:
        declaration = ParseParser();
        break;
    case TokenKind::KwControl:
        declaration = ParseControl();
        break;
    case TokenKind::KwPackage:
        declaration = ParsePackage();
        break;
    case TokenKind::KwAction:
        declaration = ParseAction();
        break;
    case TokenKind::KwTable:
        Error(token.location, "a table must be declared inside a control");
        SkipDeclaration();
        return nullptr;
    case TokenKind::KwValueSet:
        Error(token.location, "a value_set must be declared inside a parser");
        SkipDeclaration();
        return nullptr;
    case TokenKind::KwState:
        Error(token.location, "a parser state must be declared inside a parser");
        SkipDeclaration();
        return nullptr;
    default:
        // A type, or a name that must be one: `Foo x`, `Foo(...) x`, `Foo<...>(...) x`.
        if (StartsType(0) ||
            (At(TokenKind::Identifier) && (IsName(Peek(1)) || Peek(1).Is(TokenKind::LParen) ||
                                           Peek(1).Is(TokenKind::Lt))))
        {
            declaration = ParseInstanceOrFunction(ParseType());
            break;
        }
        FailExpected("a declaration");
    }
    if (declaration)
    {
        for (auto& annotation : annotations)
        {
            declaration->annotations.push_back(std::move(annotation));
        }
    }
    return declaration;
}

Ptr<ast::ConstDecl>
Parser::ParseConst()
{
    Expect(TokenKind::KwConst);
    Ptr<ast::Type> type = ParseType();
    auto decl = Make<ast::ConstDecl>(Peek().location);
    decl->name = ExpectName("a constant name");
    decl->type = std::move(type);
    Expect(TokenKind::Assign);
    decl->value = ParseExpression();
    ExpectSemicolon("the constant declaration");
    return decl;
}

Ptr<ast::Declaration>
Parser::ParseTypedef()
{
    const bool isNewType = Advance().Is(TokenKind::KwType);
    if (At(TokenKind::KwHeader) || At(TokenKind::KwStruct) || At(TokenKind::KwEnum) ||
        At(TokenKind::KwHeaderUnion))
    {
        Unsupported(Peek().location, "a typedef of an inline type declaration");
        throw SyntaxError{};
    }
    Ptr<ast::Type> type = ParseType();
    auto decl = Make<ast::TypedefDecl>(Peek().location);
    decl->name = ExpectName("a type name");
    decl->type = std::move(type);
    decl->isNewType = isNewType;
    DeclareType(decl->name);
    ExpectSemicolon("the typedef");
    return decl;
}

Ptr<ast::Declaration>
Parser::ParseStructLike()
{
    const Token& keyword = Advance();
    bool isHeader = keyword.Is(TokenKind::KwHeader);
    Ptr<ast::StructLikeDecl> decl;
    if (isHeader)
    {
        decl = Make<ast::HeaderDecl>(Peek().location);
    }
    else
    {
        auto structDecl = Make<ast::StructDecl>(Peek().location);
        structDecl->isUnion = keyword.Is(TokenKind::KwHeaderUnion);
        decl = std::move(structDecl);
    }
    decl->name = ExpectName(isHeader ? "a header name" : "a struct name");
    DeclareType(decl->name);
    TypeScope scope(m_typeScopes);
    decl->typeParams = ParseTypeParams();
    const Token& open = Expect(TokenKind::LBrace);
    ParseBraced(open, [&] {
        ast::Annotations annotations = ParseAnnotations();
        Ptr<ast::Type> type = ParseType();
        auto field = Make<ast::StructField>(Peek().location);
        field->name = ExpectName("a field name");
        field->type = std::move(type);
        field->annotations = std::move(annotations);
        decl->fields.push_back(std::move(field));
        ExpectSemicolon("the field declaration");
    });
    return decl;
}

void
Parser::ParseEnumMembers(PtrList<ast::EnumMember>& members, bool withValues)
{
    const Token& open = Expect(TokenKind::LBrace);
    ParseBraced(open, [&] {
        ast::Annotations annotations = ParseAnnotations();
        auto member = Make<ast::EnumMember>(Peek().location);
        member->name = ExpectName("a member name");
        member->annotations = std::move(annotations);
        if (withValues)
        {
            Expect(TokenKind::Assign);
            member->value = ParseExpression();
        }
        members.push_back(std::move(member));
        if (!At(TokenKind::RBrace))
        {
            Expect(TokenKind::Comma);
        }
    });
}

Ptr<ast::EnumDecl>
Parser::ParseEnum()
{
    Advance();
    Ptr<ast::Type> underlying;
    if (!(IsName(Peek()) && Peek(1).Is(TokenKind::LBrace)))
    {
        underlying = ParseType();
    }
    auto decl = Make<ast::EnumDecl>(Peek().location);
    decl->name = ExpectName("an enum name");
    decl->underlyingType = std::move(underlying);
    DeclareType(decl->name);
    ParseEnumMembers(decl->members, decl->underlyingType != nullptr);
    return decl;
}

template <typename DeclT>
Ptr<DeclT>
Parser::ParseMemberList(const Token& keyword, const char* name)
{
    auto decl = Make<DeclT>(keyword.location);
    decl->name = name;
    ParseEnumMembers(decl->members, false);
    return decl;
}

Ptr<ast::Declaration>
Parser::ParseExtern()
{
    Advance();
    // `extern Name {` or `extern Name<T> {` declares an extern object; anything else is an
    // extern function with a return type.
    bool isObject = IsName(Peek()) &&
                    (Peek(1).Is(TokenKind::LBrace) ||
                     (Peek(1).Is(TokenKind::Lt) &&
                      TokenAt(SkipAngles(m_pos + 1)).Is(TokenKind::LBrace)));
    if (isObject)
    {
        auto decl = Make<ast::ExternDecl>(Peek().location);
        decl->name = Advance().text;
        DeclareType(decl->name);
        TypeScope scope(m_typeScopes);
        decl->typeParams = ParseTypeParams();
        const Token& open = Expect(TokenKind::LBrace);
        ParseBraced(open, [&] {
            if (Ptr<ast::MethodDecl> method = ParseExternMember(decl->name))
            {
                decl->methods.push_back(std::move(method));
            }
        });
        return decl;
    }
    Ptr<ast::Type> returnType = ParseType();
    auto decl = Make<ast::FunctionDecl>(Peek().location);
    decl->name = ExpectName("a function name");
    decl->returnType = std::move(returnType);
    decl->isExtern = true;
    TypeScope scope(m_typeScopes);
    decl->typeParams = ParseTypeParams();
    decl->params = ParseParams();
    ExpectSemicolon("the extern function declaration");
    return decl;
}

Ptr<ast::MethodDecl>
Parser::ParseExternMember(const std::string& externName)
{
    ast::Annotations annotations = ParseAnnotations();
    const bool isAbstract = Accept(TokenKind::KwAbstract);
    Ptr<ast::MethodDecl> method;
    if (IsName(Peek()) && Peek().text == externName && Peek(1).Is(TokenKind::LParen))
    {
        method = Make<ast::MethodDecl>(Peek().location);
        method->name = Advance().text;
        method->isConstructor = true;
        method->params = ParseParams();
    }
    else
    {
        Ptr<ast::Type> returnType = ParseType();
        method = Make<ast::MethodDecl>(Peek().location);
        method->name = ExpectName("a method name");
        method->returnType = std::move(returnType);
        TypeScope scope(m_typeScopes);
        method->typeParams = ParseTypeParams();
        method->params = ParseParams();
    }
    method->annotations = std::move(annotations);
    method->isAbstract = isAbstract;
    ExpectSemicolon("the method declaration");
    return method;
}

template <typename TypeDecl, typename Decl, typename ParseBody>
Ptr<ast::Declaration>
Parser::ParseParserOrControl(const char* what, ParseBody parseBody)
{
    Advance();
    SourceLocation nameLocation = Peek().location;
    std::string name = ExpectName(what);
    DeclareType(name);
    TypeScope scope(m_typeScopes);
    PtrList<ast::TypeParameter> typeParams = ParseTypeParams();
    PtrList<ast::Parameter> params = ParseParams();
    if (Accept(TokenKind::Semicolon))
    {
        auto typeDecl = Make<TypeDecl>(nameLocation);
        typeDecl->name = std::move(name);
        typeDecl->typeParams = std::move(typeParams);
        typeDecl->params = std::move(params);
        return typeDecl;
    }
    auto decl = Make<Decl>(nameLocation);
    decl->name = std::move(name);
    decl->typeParams = std::move(typeParams);
    decl->params = std::move(params);
    if (At(TokenKind::LParen))
    {
        decl->constructorParams = ParseParams();
    }
    parseBody(*decl);
    return decl;
}

Ptr<ast::Declaration>
Parser::ParseParser()
{
    return ParseParserOrControl<ast::ParserTypeDecl, ast::ParserDecl>(
        "a parser name", [&](ast::ParserDecl& decl) {
            const Token& open = Expect(TokenKind::LBrace);
            ParseBraced(open, [&] {
                // Annotations may belong to a state or to a local; look past them.
                size_t save = m_pos;
                ast::Annotations annotations = ParseAnnotations();
                if (At(TokenKind::KwState))
                {
                    m_pos = save;
                    decl.states.push_back(ParseState());
                    return;
                }
                if (!decl.states.empty())
                {
                    Fail(Peek().location, "parser local declarations must come before the states");
                }
                if (Ptr<ast::Declaration> local = ParseLocalDeclaration(true))
                {
                    for (auto& annotation : annotations)
                    {
                        local->annotations.push_back(std::move(annotation));
                    }
                    decl.locals.push_back(std::move(local));
                }
            });
        });
}

Ptr<ast::ParserState>
Parser::ParseState()
{
    ast::Annotations annotations = ParseAnnotations();
    Expect(TokenKind::KwState);
    auto state = Make<ast::ParserState>(Peek().location);
    state->name = ExpectName("a state name");
    state->annotations = std::move(annotations);
    const Token& open = Expect(TokenKind::LBrace);
    ParseBraced(open, [&] {
        if (At(TokenKind::KwTransition))
        {
            if (state->transition)
            {
                Error(Peek().location, "state '" + state->name + "' already has a transition");
            }
            state->transition = ParseTransition();
            return;
        }
        if (state->transition)
        {
            Fail(Peek().location, "the transition must be the last statement of a state");
        }
        if (Ptr<ast::Statement> statement = ParseStatement())
        {
            state->statements.push_back(std::move(statement));
        }
    });
    return state;
}

Ptr<ast::TransitionStmt>
Parser::ParseTransition()
{
    auto transition = Make<ast::TransitionStmt>(Advance().location);
    if (At(TokenKind::KwSelect))
    {
        transition->target = ParseSelect();
        return transition;
    }
    auto target = Make<ast::NameExpr>(Peek().location);
    target->global = Accept(TokenKind::Dot);
    target->name = ExpectName("a state name or 'select'");
    transition->target = std::move(target);
    ExpectSemicolon("the transition");
    return transition;
}

Ptr<ast::SelectExpr>
Parser::ParseSelect()
{
    auto select = Make<ast::SelectExpr>(Advance().location);
    Expect(TokenKind::LParen);
    do
    {
        select->selectors.push_back(ParseExpression());
    } while (Accept(TokenKind::Comma));
    Expect(TokenKind::RParen);
    const Token& open = Expect(TokenKind::LBrace);
    ParseBraced(open, [&] {
        auto selectCase = Make<ast::SelectCase>(Peek().location);
        selectCase->keys = ParseKeyset();
        Expect(TokenKind::Colon);
        auto state = Make<ast::NameExpr>(Peek().location);
        state->global = Accept(TokenKind::Dot);
        state->name = ExpectName("a state name");
        selectCase->state = std::move(state);
        select->cases.push_back(std::move(selectCase));
        ExpectSemicolon("the select case");
    });
    return select;
}

Ptr<ast::Declaration>
Parser::ParseControl()
{
    return ParseParserOrControl<ast::ControlTypeDecl, ast::ControlDecl>(
        "a control name", [&](ast::ControlDecl& decl) {
            const Token& open = Expect(TokenKind::LBrace);
            ParseBraced(open, [&] {
                ast::Annotations annotations = ParseAnnotations();
                Ptr<ast::Declaration> local;
                switch (Peek().kind)
                {
                case TokenKind::KwApply: {
                    if (decl.apply)
                    {
                        Error(Peek().location, "control '" + decl.name + "' has two apply blocks");
                    }
                    Advance();
                    decl.apply = ParseBlock();
                    for (auto& annotation : annotations)
                    {
                        decl.apply->annotations.push_back(std::move(annotation));
                    }
                    return;
                }
                case TokenKind::KwAction:
                    local = ParseAction();
                    break;
                case TokenKind::KwTable:
                    local = ParseTable();
                    break;
                case TokenKind::KwState:
                    Error(Peek().location, "a parser state cannot be declared in a control");
                    SkipDeclaration();
                    return;
                default:
                    if (decl.apply)
                    {
                        Fail(Peek().location,
                             "declarations must come before the apply block of control '" +
                                 decl.name + "'");
                    }
                    local = ParseLocalDeclaration(true);
                    break;
                }
                if (local)
                {
                    for (auto& annotation : annotations)
                    {
                        local->annotations.push_back(std::move(annotation));
                    }
                    decl.locals.push_back(std::move(local));
                }
            });
            if (!decl.apply)
            {
                Error(decl.location, "control '" + decl.name + "' has no apply block");
                decl.apply = Make<ast::BlockStmt>(decl.location);
            }
        });
}

Ptr<ast::PackageTypeDecl>
Parser::ParsePackage()
{
    Advance();
    auto decl = Make<ast::PackageTypeDecl>(Peek().location);
    decl->name = ExpectName("a package name");
    DeclareType(decl->name);
    TypeScope scope(m_typeScopes);
    decl->typeParams = ParseTypeParams();
    decl->params = ParseParams();
    ExpectSemicolon("the package declaration");
    return decl;
}

Ptr<ast::ActionDecl>
Parser::ParseAction()
{
    Advance();
    auto decl = Make<ast::ActionDecl>(Peek().location);
    decl->name = ExpectName("an action name");
    decl->params = ParseParams();
    decl->body = ParseBlock();
    return decl;
}

Ptr<ast::TableDecl>
Parser::ParseTable()
{
    Advance();
    auto table = Make<ast::TableDecl>(Peek().location);
    table->name = ExpectName("a table name");
    const Token& open = Expect(TokenKind::LBrace);
    ParseBraced(open, [&] {
        if (Ptr<ast::TableProperty> property = ParseTableProperty())
        {
            table->properties.push_back(std::move(property));
        }
    });
    return table;
}

Ptr<ast::TableProperty>
Parser::ParseTableProperty()
{
    ast::Annotations annotations = ParseAnnotations();
    bool isConst = Accept(TokenKind::KwConst);
    if (!IsWordToken(Peek()))
    {
        FailExpected("a table property");
    }
    auto property = Make<ast::TableProperty>(Peek().location);
    property->name = Advance().text;
    property->isConst = isConst;
    property->annotations = std::move(annotations);
    Expect(TokenKind::Assign);
    if (property->name == "key")
    {
        property->which = ast::TablePropertyKind::Key;
        const Token& open = Expect(TokenKind::LBrace);
        ParseBraced(open, [&] {
            auto key = Make<ast::KeyElement>(Peek().location);
            key->expression = ParseExpression();
            Expect(TokenKind::Colon);
            key->matchKindLocation = Peek().location;
            key->matchKind = ExpectName("a match kind (exact, lpm, ternary, ...)");
            key->annotations = ParseAnnotations();
            property->keys.push_back(std::move(key));
            ExpectSemicolon("the key element");
        });
    }
    else if (property->name == "actions")
    {
        property->which = ast::TablePropertyKind::Actions;
        const Token& open = Expect(TokenKind::LBrace);
        ParseBraced(open, [&] {
            property->actions.push_back(ParseActionRef());
            ExpectSemicolon("the action");
        });
    }
    else if (property->name == "entries")
    {
        property->which = ast::TablePropertyKind::Entries;
        const Token& open = Expect(TokenKind::LBrace);
        ParseBraced(open, [&] { property->entries.push_back(ParseTableEntry()); });
    }
    else if (property->name == "default_action")
    {
        property->which = ast::TablePropertyKind::DefaultAction;
        property->defaultAction = ParseActionRef();
        ExpectSemicolon("the default action");
    }
    else
    {
        property->which = ast::TablePropertyKind::Value;
        property->value = ParseExpression();
        ExpectSemicolon("the table property");
    }
    return property;
}

Ptr<ast::ActionRef>
Parser::ParseActionRef()
{
    ast::Annotations annotations = ParseAnnotations();
    auto ref = Make<ast::ActionRef>(Peek().location);
    ref->annotations = std::move(annotations);
    auto name = Make<ast::NameExpr>(Peek().location);
    name->global = Accept(TokenKind::Dot);
    name->name = ExpectName("an action name");
    ref->action = std::move(name);
    if (At(TokenKind::LParen))
    {
        ref->hasArgList = true;
        ref->args = ParseArgs();
    }
    return ref;
}

Ptr<ast::TableEntry>
Parser::ParseTableEntry()
{
    ast::Annotations annotations = ParseAnnotations();
    auto entry = Make<ast::TableEntry>(Peek().location);
    entry->annotations = std::move(annotations);
    // `const` on one entry of a non-const list; incsim treats every listed entry alike.
    Accept(TokenKind::KwConst);
    if (At(TokenKind::KwPriority) && Peek(1).Is(TokenKind::Assign))
    {
        Advance();
        Advance();
        entry->priority = ParseExpression();
        Expect(TokenKind::Colon);
    }
    entry->keys = ParseKeyset();
    Expect(TokenKind::Colon);
    entry->action = ParseActionRef();
    for (auto& annotation : ParseAnnotations())
    {
        entry->annotations.push_back(std::move(annotation));
    }
    ExpectSemicolon("the table entry");
    return entry;
}

Ptr<ast::Declaration>
Parser::ParseLocalDeclaration(bool allowInstances)
{
    switch (Peek().kind)
    {
    case TokenKind::KwConst:
        return ParseConst();
    case TokenKind::KwValueSet: {
        // value_set<T>(size) name;
        auto decl = Make<ast::ValueSetDecl>(Advance().location);
        Expect(TokenKind::Lt);
        decl->elementType = ParseType();
        Expect(TokenKind::Gt);
        Expect(TokenKind::LParen);
        decl->size = ParseExpression();
        Expect(TokenKind::RParen);
        decl->location = Peek().location;
        decl->name = ExpectName("a value_set name");
        ExpectSemicolon("the value_set declaration");
        return decl;
    }
    case TokenKind::Semicolon:
        Advance();
        return nullptr;
    default:
        break;
    }
    if (!StartsType(0) && !(At(TokenKind::Identifier) && IsName(Peek(1))) &&
        !(At(TokenKind::Identifier) && Peek(1).Is(TokenKind::LParen)))
    {
        FailExpected("a declaration");
    }
    Ptr<ast::Type> type = ParseType();
    if (At(TokenKind::LParen))
    {
        if (!allowInstances)
        {
            Fail(Peek().location, "instantiations are not allowed here");
        }
        return ParseInstance(std::move(type));
    }
    return ParseVariable(std::move(type));
}

Ptr<ast::Declaration>
Parser::ParseInstanceOrFunction(Ptr<ast::Type> type)
{
    if (At(TokenKind::LParen))
    {
        return ParseInstance(std::move(type));
    }
    SourceLocation nameLocation = Peek().location;
    std::string name = ExpectName("a name");
    if (At(TokenKind::LParen) || At(TokenKind::Lt))
    {
        auto function = Make<ast::FunctionDecl>(nameLocation);
        function->name = std::move(name);
        function->returnType = std::move(type);
        TypeScope scope(m_typeScopes);
        function->typeParams = ParseTypeParams();
        function->params = ParseParams();
        function->body = ParseBlock();
        return function;
    }
    Fail(nameLocation, "variables cannot be declared at the top level (use 'const')");
}

Ptr<ast::InstanceDecl>
Parser::ParseInstance(Ptr<ast::Type> type)
{
    PtrList<ast::Argument> args = ParseArgs();
    auto instance = Make<ast::InstanceDecl>(Peek().location);
    instance->name = ExpectName("an instance name");
    instance->type = std::move(type);
    instance->args = std::move(args);
    if (Accept(TokenKind::Assign))
    {
        // { functions and instances }: the implementations of the extern's abstract methods.
        instance->hasInitializer = true;
        const Token& open = Expect(TokenKind::LBrace);
        ParseBraced(open, [&] {
            ast::Annotations annotations = ParseAnnotations();
            Ptr<ast::Declaration> member = ParseInstanceOrFunction(ParseType());
            member->annotations = std::move(annotations);
            instance->initializer.push_back(std::move(member));
        });
    }
    ExpectSemicolon("the instantiation");
    return instance;
}

Ptr<ast::VariableDecl>
Parser::ParseVariable(Ptr<ast::Type> type)
{
    auto decl = Make<ast::VariableDecl>(Peek().location);
    decl->name = ExpectName("a variable name");
    decl->type = std::move(type);
    if (Accept(TokenKind::Assign))
    {
        decl->initializer = ParseExpression();
    }
    ExpectSemicolon("the variable declaration");
    return decl;
}

// --- Statements ------------------------------------------------------------------------------

Ptr<ast::BlockStmt>
Parser::ParseBlock()
{
    const Token& open = Expect(TokenKind::LBrace);
    auto block = Make<ast::BlockStmt>(open.location);
    ParseBraced(open, [&] {
        if (Ptr<ast::Statement> statement = ParseStatement())
        {
            block->statements.push_back(std::move(statement));
        }
    });
    return block;
}

Ptr<ast::Statement>
Parser::ParseStatement()
{
    Nesting nesting(*this);
    nesting.Enter();
    ast::Annotations annotations = ParseAnnotations();
    Ptr<ast::Statement> statement = ParseStatementBody();
    if (statement && !annotations.empty())
    {
        if (auto* declStmt = statement->As<ast::DeclStmt>())
        {
            for (auto& annotation : annotations)
            {
                declStmt->declaration->annotations.push_back(std::move(annotation));
            }
        }
        else
        {
            statement->annotations = std::move(annotations);
        }
    }
    return statement;
}

Ptr<ast::Statement>
Parser::ParseStatementBody()
{
    const Token& token = Peek();
    switch (token.kind)
    {
    case TokenKind::LBrace:
        return ParseBlock();
    case TokenKind::KwIf:
        return ParseIf();
    case TokenKind::KwSwitch:
        return ParseSwitch();
    case TokenKind::KwExit: {
        auto exit = Make<ast::ExitStmt>(Advance().location);
        ExpectSemicolon("'exit'");
        return exit;
    }
    case TokenKind::KwReturn: {
        auto ret = Make<ast::ReturnStmt>(Advance().location);
        if (!At(TokenKind::Semicolon))
        {
            ret->value = ParseExpression();
        }
        ExpectSemicolon("the return statement");
        return ret;
    }
    case TokenKind::Semicolon:
        return Make<ast::EmptyStmt>(Advance().location);
    case TokenKind::KwConst: {
        auto declStmt = Make<ast::DeclStmt>(token.location);
        declStmt->declaration = ParseConst();
        return declStmt;
    }
    case TokenKind::KwFor: {
        Unsupported(token.location, "a for loop");
        Advance();
        if (At(TokenKind::LParen))
        {
            SkipParens();
        }
        ParseStatement(); // parsed for its errors, then dropped
        return nullptr;
    }
    case TokenKind::KwBreak:
    case TokenKind::KwContinue:
        Unsupported(token.location, "'" + token.text + "'", "there are no loops");
        Advance();
        Accept(TokenKind::Semicolon);
        return nullptr;
    case TokenKind::KwTransition:
        Fail(token.location, "a transition can only end a parser state");
    case TokenKind::KwAction:
    case TokenKind::KwTable:
    case TokenKind::KwExtern:
    case TokenKind::KwControl:
    case TokenKind::KwParser:
    case TokenKind::KwHeader:
    case TokenKind::KwStruct:
    case TokenKind::KwEnum:
    case TokenKind::KwTypedef:
    case TokenKind::KwHeaderUnion:
        Fail(token.location, "'" + token.text + "' cannot be declared inside a block");
    default:
        break;
    }
    if (StartsLocalDeclaration())
    {
        auto declStmt = Make<ast::DeclStmt>(token.location);
        Ptr<ast::Type> type = ParseType();
        if (At(TokenKind::LParen))
        {
            Fail(Peek().location, "instantiations are not allowed inside a block");
        }
        declStmt->declaration = ParseVariable(std::move(type));
        return declStmt;
    }
    return ParseExpressionStatement();
}

bool
Parser::StartsLocalDeclaration() const
{
    const Token& token = Peek();
    switch (token.kind)
    {
    case TokenKind::KwBit:
    case TokenKind::KwInt:
    case TokenKind::KwVarbit:
    case TokenKind::KwBool:
    case TokenKind::KwString:
    case TokenKind::KwTuple:
        return true;
    case TokenKind::KwError:
        return !Peek(1).Is(TokenKind::Dot);
    default:
        break;
    }
    if (!IsName(token))
    {
        return false;
    }
    const Token& next = Peek(1);
    if (IsName(next))
    {
        return true; // T x
    }
    return token.Is(TokenKind::Identifier) && IsTypeName(token.text) &&
           (next.Is(TokenKind::Lt) || next.Is(TokenKind::LBracket));
}

Ptr<ast::Statement>
Parser::ParseIf()
{
    auto ifStmt = Make<ast::IfStmt>(Advance().location);
    Expect(TokenKind::LParen);
    ifStmt->condition = ParseExpression();
    Expect(TokenKind::RParen);
    ifStmt->thenBranch = ParseStatement();
    if (!ifStmt->thenBranch)
    {
        ifStmt->thenBranch = Make<ast::EmptyStmt>(ifStmt->location);
    }
    if (Accept(TokenKind::KwElse))
    {
        ifStmt->elseBranch = ParseStatement();
        if (!ifStmt->elseBranch)
        {
            ifStmt->elseBranch = Make<ast::EmptyStmt>(ifStmt->location);
        }
    }
    return ifStmt;
}

Ptr<ast::Statement>
Parser::ParseSwitch()
{
    auto switchStmt = Make<ast::SwitchStmt>(Advance().location);
    Expect(TokenKind::LParen);
    switchStmt->expression = ParseExpression();
    Expect(TokenKind::RParen);
    const Token& open = Expect(TokenKind::LBrace);
    ParseBraced(open, [&] {
        auto switchCase = Make<ast::SwitchCase>(Peek().location);
        if (At(TokenKind::KwDefault))
        {
            switchCase->label = Make<ast::DefaultExpr>(Advance().location);
        }
        else
        {
            switchCase->label = ParseExpression();
        }
        Expect(TokenKind::Colon);
        if (At(TokenKind::LBrace))
        {
            switchCase->body = ParseBlock();
        }
        switchStmt->cases.push_back(std::move(switchCase));
    });
    return switchStmt;
}

Ptr<ast::Statement>
Parser::ParseExpressionStatement()
{
    Ptr<ast::Expression> expression = ParseExpression();
    if (At(TokenKind::Assign))
    {
        auto assign = Make<ast::AssignStmt>(Advance().location);
        assign->left = std::move(expression);
        assign->right = ParseExpression();
        ExpectSemicolon("the assignment");
        return assign;
    }
    switch (Peek().kind)
    {
    case TokenKind::PlusAssign:
    case TokenKind::MinusAssign:
    case TokenKind::StarAssign:
    case TokenKind::SlashAssign:
    case TokenKind::PercentAssign:
    case TokenKind::AmpAssign:
    case TokenKind::PipeAssign:
    case TokenKind::CaretAssign:
    case TokenKind::ShlAssign:
        Unsupported(Peek().location, "compound assignment '" + Peek().text + "'",
                    "write 'x = x " + Peek().text.substr(0, Peek().text.size() - 1) + " ...'");
        throw SyntaxError{};
    default:
        break;
    }
    if (expression->Is<ast::CallExpr>() && IsName(Peek()))
    {
        // `MyParser() p;` where only statements may be: a function body or an apply block.
        Fail(Peek().location, "'" + Peek().text + "': instantiations are not allowed in a "
                              "function or a block of statements");
    }
    if (expression->Is<ast::CallExpr>())
    {
        auto call = Make<ast::CallStmt>(expression->location);
        call->call.reset(static_cast<ast::CallExpr*>(expression.release()));
        ExpectSemicolon("the call");
        return call;
    }
    if (At(TokenKind::Semicolon))
    {
        Fail(expression->location,
             "this expression is not a statement (expected an assignment or a call)");
    }
    FailExpected("'=' or ';'");
}

// --- Expressions -----------------------------------------------------------------------------

namespace prec
{
// Binding strength, loosest first; must match the printer in ast.cc.
constexpr int kOr = 2;
constexpr int kAnd = 3;
constexpr int kEquality = 4;
constexpr int kRelational = 5;
constexpr int kBitOr = 6;
constexpr int kBitXor = 7;
constexpr int kBitAnd = 8;
constexpr int kShift = 9;
constexpr int kAdditive = 10;
constexpr int kMultiplicative = 11;
} // namespace prec

struct BinaryOperator
{
    ast::BinaryOp op;
    int precedence;
    size_t tokens; // `>>` is two `>` tokens
};

std::optional<BinaryOperator>
PeekBinaryOperator(const Token& token, const Token& next)
{
    using ast::BinaryOp;
    switch (token.kind)
    {
    case TokenKind::Star:
        return BinaryOperator{BinaryOp::Mul, prec::kMultiplicative, 1};
    case TokenKind::Slash:
        return BinaryOperator{BinaryOp::Div, prec::kMultiplicative, 1};
    case TokenKind::Percent:
        return BinaryOperator{BinaryOp::Mod, prec::kMultiplicative, 1};
    case TokenKind::Plus:
        return BinaryOperator{BinaryOp::Add, prec::kAdditive, 1};
    case TokenKind::Minus:
        return BinaryOperator{BinaryOp::Sub, prec::kAdditive, 1};
    case TokenKind::PlusSat:
        return BinaryOperator{BinaryOp::AddSat, prec::kAdditive, 1};
    case TokenKind::MinusSat:
        return BinaryOperator{BinaryOp::SubSat, prec::kAdditive, 1};
    case TokenKind::PlusPlus:
        return BinaryOperator{BinaryOp::Concat, prec::kAdditive, 1};
    case TokenKind::Shl:
        return BinaryOperator{BinaryOp::Shl, prec::kShift, 1};
    case TokenKind::Gt:
        if (next.Is(TokenKind::Gt) && next.adjacent)
        {
            return BinaryOperator{BinaryOp::Shr, prec::kShift, 2};
        }
        return BinaryOperator{BinaryOp::Gt, prec::kRelational, 1};
    case TokenKind::Amp:
        return BinaryOperator{BinaryOp::BitAnd, prec::kBitAnd, 1};
    case TokenKind::Caret:
        return BinaryOperator{BinaryOp::BitXor, prec::kBitXor, 1};
    case TokenKind::Pipe:
        return BinaryOperator{BinaryOp::BitOr, prec::kBitOr, 1};
    case TokenKind::Lt:
        return BinaryOperator{BinaryOp::Lt, prec::kRelational, 1};
    case TokenKind::Le:
        return BinaryOperator{BinaryOp::Le, prec::kRelational, 1};
    case TokenKind::Ge:
        return BinaryOperator{BinaryOp::Ge, prec::kRelational, 1};
    case TokenKind::Eq:
        return BinaryOperator{BinaryOp::Eq, prec::kEquality, 1};
    case TokenKind::Ne:
        return BinaryOperator{BinaryOp::Ne, prec::kEquality, 1};
    case TokenKind::AmpAmp:
        return BinaryOperator{BinaryOp::And, prec::kAnd, 1};
    case TokenKind::PipePipe:
        return BinaryOperator{BinaryOp::Or, prec::kOr, 1};
    default:
        return std::nullopt;
    }
}

Ptr<ast::Expression>
Parser::ParseExpression()
{
    Nesting nesting(*this);
    nesting.Enter();
    Ptr<ast::Expression> condition = ParseBinary(prec::kOr);
    if (!At(TokenKind::Question))
    {
        return condition;
    }
    auto ternary = Make<ast::TernaryExpr>(Advance().location);
    ternary->condition = std::move(condition);
    ternary->ifTrue = ParseExpression();
    Expect(TokenKind::Colon);
    ternary->ifFalse = ParseExpression();
    return ternary;
}

Ptr<ast::Expression>
Parser::ParseBinary(int minPrecedence)
{
    // Each operator of a left-associative chain puts the tree so far one level deeper.
    Nesting nesting(*this);
    Ptr<ast::Expression> left = ParseUnary();
    while (true)
    {
        std::optional<BinaryOperator> op = PeekBinaryOperator(Peek(), Peek(1));
        if (!op || op->precedence < minPrecedence)
        {
            return left;
        }
        nesting.Enter();
        SourceLocation location = Peek().location;
        location.length = static_cast<uint32_t>(op->tokens);
        for (size_t i = 0; i < op->tokens; ++i)
        {
            Advance();
        }
        if (op->op == ast::BinaryOp::Gt && At(TokenKind::Gt))
        {
            Fail(location, "'> >' is not a shift: write '>>' without a space");
        }
        auto binary = Make<ast::BinaryExpr>(location);
        binary->op = op->op;
        binary->left = std::move(left);
        binary->right = ParseBinary(op->precedence + 1);
        left = std::move(binary);
    }
}

bool
Parser::StartsCast() const
{
    if (!At(TokenKind::LParen))
    {
        return false;
    }
    const Token& first = Peek(1);
    switch (first.kind)
    {
    case TokenKind::KwBit:
    case TokenKind::KwInt:
    case TokenKind::KwVarbit:
    case TokenKind::KwBool:
    case TokenKind::KwString:
    case TokenKind::KwTuple:
        return true;
    case TokenKind::KwError:
        return Peek(2).Is(TokenKind::RParen);
    case TokenKind::Identifier:
        return IsTypeName(first.text) &&
               (Peek(2).Is(TokenKind::RParen) || Peek(2).Is(TokenKind::Lt));
    default:
        return false;
    }
}

Ptr<ast::Expression>
Parser::ParseUnary()
{
    Nesting nesting(*this);
    ast::UnaryOp op;
    switch (Peek().kind)
    {
    case TokenKind::Not:
        op = ast::UnaryOp::Not;
        break;
    case TokenKind::Tilde:
        op = ast::UnaryOp::Complement;
        break;
    case TokenKind::Minus:
        op = ast::UnaryOp::Negate;
        break;
    case TokenKind::Plus:
        op = ast::UnaryOp::Plus;
        break;
    case TokenKind::LParen:
        if (StartsCast())
        {
            nesting.Enter();
            auto cast = Make<ast::CastExpr>(Advance().location);
            cast->target = ParseType();
            Expect(TokenKind::RParen);
            cast->operand = ParseUnary();
            return cast;
        }
        return ParsePostfix();
    default:
        return ParsePostfix();
    }
    nesting.Enter();
    auto unary = Make<ast::UnaryExpr>(Advance().location);
    unary->op = op;
    unary->operand = ParseUnary();
    return unary;
}

Ptr<ast::Expression>
Parser::ParsePostfix()
{
    // Each member access, index, slice or call wraps the expression so far.
    Nesting nesting(*this);
    Ptr<ast::Expression> expression = ParsePrimary();
    while (true)
    {
        const bool postfix = At(TokenKind::Dot) || At(TokenKind::LBracket) ||
                             At(TokenKind::LParen) ||
                             (At(TokenKind::Lt) && LooksLikeTypeArgs(m_pos));
        if (postfix)
        {
            nesting.Enter();
        }
        if (At(TokenKind::Dot))
        {
            Advance();
            auto member = Make<ast::MemberExpr>(Peek().location);
            member->member = ExpectName("a member name");
            member->object = std::move(expression);
            expression = std::move(member);
        }
        else if (At(TokenKind::LBracket))
        {
            SourceLocation location = Advance().location;
            Ptr<ast::Expression> first = ParseExpression();
            if (Accept(TokenKind::Colon))
            {
                auto slice = Make<ast::SliceExpr>(location);
                slice->object = std::move(expression);
                slice->high = std::move(first);
                slice->low = ParseExpression();
                expression = std::move(slice);
            }
            else
            {
                auto index = Make<ast::IndexExpr>(location);
                index->object = std::move(expression);
                index->index = std::move(first);
                expression = std::move(index);
            }
            Expect(TokenKind::RBracket);
        }
        else if (At(TokenKind::LParen) ||
                 (At(TokenKind::Lt) && LooksLikeTypeArgs(m_pos)))
        {
            auto call = Make<ast::CallExpr>(expression->location);
            if (At(TokenKind::Lt))
            {
                call->typeArgs = ParseTypeArgs();
            }
            call->callee = std::move(expression);
            call->args = ParseArgs();
            expression = std::move(call);
        }
        else
        {
            return expression;
        }
    }
}

Ptr<ast::Expression>
Parser::ParsePrimary()
{
    const Token& token = Peek();
    switch (token.kind)
    {
    case TokenKind::Integer: {
        auto literal = Make<ast::IntegerLiteral>(token.location);
        literal->value = token.integer.value;
        literal->width = token.integer.width;
        literal->isSigned = token.integer.isSigned;
        literal->base = token.integer.base;
        Advance();
        return literal;
    }
    case TokenKind::String: {
        auto literal = Make<ast::StringLiteral>(token.location);
        literal->value = token.stringValue;
        Advance();
        return literal;
    }
    case TokenKind::KwTrue:
    case TokenKind::KwFalse: {
        auto literal = Make<ast::BoolLiteral>(token.location);
        literal->value = token.Is(TokenKind::KwTrue);
        Advance();
        return literal;
    }
    case TokenKind::KwError: {
        auto name = Make<ast::NameExpr>(token.location);
        name->name = "error";
        Advance();
        return name;
    }
    case TokenKind::Dot: {
        Advance();
        auto name = Make<ast::NameExpr>(Peek().location);
        name->global = true;
        name->name = ExpectName("a name after '.'");
        return name;
    }
    case TokenKind::LParen: {
        Advance();
        Ptr<ast::Expression> inner = ParseExpression();
        Expect(TokenKind::RParen);
        return inner;
    }
    case TokenKind::LBrace:
        return ParseBraceExpression();
    case TokenKind::DontCare:
        return Make<ast::DontCareExpr>(Advance().location);
    case TokenKind::KwThis: {
        // The instance whose initializer the expression is in (the checker resolves it).
        auto name = Make<ast::NameExpr>(token.location);
        name->name = "this";
        Advance();
        return name;
    }
    default:
        if (IsName(token))
        {
            auto name = Make<ast::NameExpr>(token.location);
            name->name = token.text;
            Advance();
            return name;
        }
        FailExpected("an expression");
    }
}

Ptr<ast::Expression>
Parser::ParseBraceExpression()
{
    const Token& open = Advance();
    if (IsName(Peek()) && Peek(1).Is(TokenKind::Assign))
    {
        auto structExpr = Make<ast::StructExpr>(open.location);
        do
        {
            if (At(TokenKind::RBrace))
            {
                break; // trailing comma
            }
            auto field = Make<ast::NamedExpr>(Peek().location);
            field->name = ExpectName("a field name");
            Expect(TokenKind::Assign);
            field->value = ParseExpression();
            structExpr->fields.push_back(std::move(field));
        } while (Accept(TokenKind::Comma));
        Expect(TokenKind::RBrace);
        return structExpr;
    }
    auto list = Make<ast::ListExpr>(open.location);
    if (!At(TokenKind::RBrace))
    {
        do
        {
            if (At(TokenKind::RBrace))
            {
                break; // trailing comma
            }
            list->elements.push_back(ParseExpression());
        } while (Accept(TokenKind::Comma));
    }
    Expect(TokenKind::RBrace);
    return list;
}

PtrList<ast::Argument>
Parser::ParseArgs()
{
    PtrList<ast::Argument> args;
    Expect(TokenKind::LParen);
    if (Accept(TokenKind::RParen))
    {
        return args;
    }
    do
    {
        auto arg = Make<ast::Argument>(Peek().location);
        if (IsName(Peek()) && Peek(1).Is(TokenKind::Assign))
        {
            arg->name = Advance().text;
            Advance();
        }
        arg->value = ParseExpression();
        args.push_back(std::move(arg));
    } while (Accept(TokenKind::Comma));
    Expect(TokenKind::RParen);
    return args;
}

Ptr<ast::Expression>
Parser::ParseKeysetElement()
{
    if (At(TokenKind::KwDefault))
    {
        return Make<ast::DefaultExpr>(Advance().location);
    }
    if (At(TokenKind::DontCare))
    {
        return Make<ast::DontCareExpr>(Advance().location);
    }
    Ptr<ast::Expression> value = ParseExpression();
    if (At(TokenKind::Mask) || At(TokenKind::DotDot))
    {
        auto binary = Make<ast::BinaryExpr>(Peek().location);
        binary->op = At(TokenKind::Mask) ? ast::BinaryOp::Mask : ast::BinaryOp::Range;
        Advance();
        binary->left = std::move(value);
        binary->right = ParseExpression();
        return binary;
    }
    return value;
}

PtrList<ast::Expression>
Parser::ParseKeyset()
{
    PtrList<ast::Expression> keys;
    if (At(TokenKind::LParen) && ParensHoldComma(m_pos))
    {
        Advance();
        do
        {
            keys.push_back(ParseKeysetElement());
        } while (Accept(TokenKind::Comma));
        Expect(TokenKind::RParen);
        return keys;
    }
    keys.push_back(ParseKeysetElement());
    return keys;
}

// --- Entry points ----------------------------------------------------------------------------

std::unique_ptr<ast::Program>
Parser::ParseProgram()
{
    auto program = std::make_unique<ast::Program>();
    program->sources = m_diags.SharedSources();
    try
    {
        while (!At(TokenKind::End))
        {
            if (At(TokenKind::RBrace))
            {
                Error(Peek().location, "unexpected '}' (no matching '{')");
                Advance();
                continue;
            }
            size_t before = m_pos;
            try
            {
                if (Ptr<ast::Declaration> declaration = ParseTopLevel())
                {
                    program->declarations.push_back(std::move(declaration));
                }
            }
            catch (const SyntaxError&)
            {
                Recover();
            }
            if (m_pos == before && !At(TokenKind::End))
            {
                Advance();
            }
        }
    }
    catch (const TooManyErrors&)
    {
        // Reported by Diagnostics::Render(); what was parsed so far is returned.
    }
    catch (const NestingTooDeep&)
    {
        // Reported where it was found; what was parsed so far is returned.
    }
    return program;
}

std::unique_ptr<ast::Expression>
Parser::ParseSingleExpression()
{
    try
    {
        Ptr<ast::Expression> expression = ParseExpression();
        if (!At(TokenKind::End))
        {
            FailExpected("end of expression");
        }
        return expression;
    }
    catch (const SyntaxError&)
    {
        return nullptr;
    }
    catch (const TooManyErrors&)
    {
        return nullptr;
    }
    catch (const NestingTooDeep&)
    {
        return nullptr;
    }
}

} // namespace

std::unique_ptr<ast::Program>
Parse(std::vector<Token> tokens, Diagnostics& diags)
{
    return Parser(std::move(tokens), diags).ParseProgram();
}

std::unique_ptr<ast::Expression>
ParseExpression(std::vector<Token> tokens, Diagnostics& diags)
{
    return Parser(std::move(tokens), diags).ParseSingleExpression();
}

} // namespace incsim::p4
