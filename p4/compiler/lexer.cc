#include "p4/compiler/lexer.h"

#include "p4/compiler/diagnostics.h"

#include <algorithm>
#include <utility>

namespace incsim::p4
{
namespace
{

bool
IsIdentStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool
IsIdentChar(char c)
{
    return IsIdentStart(c) || (c >= '0' && c <= '9');
}

bool
IsDecimalDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool
IsSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

int
DigitValue(char c)
{
    if (c >= '0' && c <= '9')
    {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f')
    {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F')
    {
        return c - 'A' + 10;
    }
    return 99;
}

// The character itself, or \xNN when it would not print.
std::string
Printable(char c)
{
    if (c >= 0x20 && c < 0x7f)
    {
        return std::string(1, c);
    }
    static constexpr char kHex[] = "0123456789abcdef";
    unsigned char u = static_cast<unsigned char>(c);
    return std::string{'\\', 'x', kHex[u >> 4], kHex[u & 15]};
}

const char*
BaseName(unsigned base)
{
    switch (base)
    {
    case 2:
        return "binary";
    case 8:
        return "octal";
    case 16:
        return "hexadecimal";
    default:
        return "decimal";
    }
}

struct Keyword
{
    std::string_view text;
    TokenKind kind;
};

constexpr Keyword kKeywords[] = {
    {"abstract", TokenKind::KwAbstract},
    {"action", TokenKind::KwAction},
    {"actions", TokenKind::KwActions},
    {"apply", TokenKind::KwApply},
    {"bit", TokenKind::KwBit},
    {"bool", TokenKind::KwBool},
    {"break", TokenKind::KwBreak},
    {"const", TokenKind::KwConst},
    {"continue", TokenKind::KwContinue},
    {"control", TokenKind::KwControl},
    {"default", TokenKind::KwDefault},
    {"else", TokenKind::KwElse},
    {"entries", TokenKind::KwEntries},
    {"enum", TokenKind::KwEnum},
    {"error", TokenKind::KwError},
    {"exit", TokenKind::KwExit},
    {"extern", TokenKind::KwExtern},
    {"false", TokenKind::KwFalse},
    {"for", TokenKind::KwFor},
    {"header", TokenKind::KwHeader},
    {"header_union", TokenKind::KwHeaderUnion},
    {"if", TokenKind::KwIf},
    {"in", TokenKind::KwIn},
    {"inout", TokenKind::KwInout},
    {"int", TokenKind::KwInt},
    {"key", TokenKind::KwKey},
    {"match_kind", TokenKind::KwMatchKind},
    {"out", TokenKind::KwOut},
    {"package", TokenKind::KwPackage},
    {"parser", TokenKind::KwParser},
    {"priority", TokenKind::KwPriority},
    {"return", TokenKind::KwReturn},
    {"select", TokenKind::KwSelect},
    {"state", TokenKind::KwState},
    {"string", TokenKind::KwString},
    {"struct", TokenKind::KwStruct},
    {"switch", TokenKind::KwSwitch},
    {"table", TokenKind::KwTable},
    {"this", TokenKind::KwThis},
    {"transition", TokenKind::KwTransition},
    {"true", TokenKind::KwTrue},
    {"tuple", TokenKind::KwTuple},
    {"type", TokenKind::KwType},
    {"typedef", TokenKind::KwTypedef},
    {"value_set", TokenKind::KwValueSet},
    {"varbit", TokenKind::KwVarbit},
    {"void", TokenKind::KwVoid},
    {"_", TokenKind::DontCare},
};

struct Operator
{
    std::string_view text;
    TokenKind kind;
};

// Longest first. There is deliberately no ">>" (see lexer.h).
constexpr Operator kOperators[] = {
    {"&&&", TokenKind::Mask},      {"|+|", TokenKind::PlusSat},    {"|-|", TokenKind::MinusSat},
    {"<<=", TokenKind::ShlAssign}, {"&&", TokenKind::AmpAmp},      {"||", TokenKind::PipePipe},
    {"==", TokenKind::Eq},         {"!=", TokenKind::Ne},          {"<=", TokenKind::Le},
    {">=", TokenKind::Ge},         {"<<", TokenKind::Shl},         {"++", TokenKind::PlusPlus},
    {"..", TokenKind::DotDot},     {"+=", TokenKind::PlusAssign},  {"-=", TokenKind::MinusAssign},
    {"*=", TokenKind::StarAssign}, {"/=", TokenKind::SlashAssign}, {"%=", TokenKind::PercentAssign},
    {"&=", TokenKind::AmpAssign},  {"|=", TokenKind::PipeAssign},  {"^=", TokenKind::CaretAssign},
    {"{", TokenKind::LBrace},      {"}", TokenKind::RBrace},       {"(", TokenKind::LParen},
    {")", TokenKind::RParen},      {"[", TokenKind::LBracket},     {"]", TokenKind::RBracket},
    {";", TokenKind::Semicolon},   {",", TokenKind::Comma},        {":", TokenKind::Colon},
    {".", TokenKind::Dot},         {"?", TokenKind::Question},     {"@", TokenKind::At},
    {"=", TokenKind::Assign},      {"<", TokenKind::Lt},           {">", TokenKind::Gt},
    {"+", TokenKind::Plus},        {"-", TokenKind::Minus},        {"*", TokenKind::Star},
    {"/", TokenKind::Slash},       {"%", TokenKind::Percent},      {"&", TokenKind::Amp},
    {"|", TokenKind::Pipe},        {"^", TokenKind::Caret},        {"~", TokenKind::Tilde},
    {"!", TokenKind::Not},
};

// Finds each token's column in the line the user wrote. cpp keeps lines but not columns: it
// collapses runs of spaces, drops comments and expands macros. Walking the original line (with
// comments blanked) in step with the tokens recovers exact columns; a token that is not there
// came from a macro expansion and gets the column of the macro's name.
class ColumnAligner
{
  public:
    void Reset(std::string_view codeLine, bool available)
    {
        m_line = codeLine;
        m_available = available;
        m_cursor = 0;
        m_inExpansion = false;
    }

    uint32_t Align(std::string_view spelling, uint32_t fallback)
    {
        if (!m_available)
        {
            return fallback;
        }
        size_t pos = SkipSpaces(m_cursor);
        if (m_inExpansion)
        {
            size_t after = SkipSpaces(m_expansionEnd);
            if (MatchesAt(after, spelling))
            {
                m_inExpansion = false;
                m_cursor = after + spelling.size();
                return static_cast<uint32_t>(after + 1);
            }
            return static_cast<uint32_t>(m_expansionStart + 1);
        }
        if (MatchesAt(pos, spelling))
        {
            m_cursor = pos + spelling.size();
            return static_cast<uint32_t>(pos + 1);
        }
        if (pos < m_line.size() && IsIdentStart(m_line[pos]))
        {
            // A macro: skip its name and, for a function-like one, its arguments.
            size_t end = pos;
            while (end < m_line.size() && IsIdentChar(m_line[end]))
            {
                ++end;
            }
            size_t open = SkipSpaces(end);
            if (open < m_line.size() && m_line[open] == '(')
            {
                int depth = 0;
                for (end = open; end < m_line.size(); ++end)
                {
                    depth += m_line[end] == '(' ? 1 : m_line[end] == ')' ? -1 : 0;
                    if (depth == 0)
                    {
                        ++end;
                        break;
                    }
                }
            }
            m_inExpansion = true;
            m_expansionStart = pos;
            m_expansionEnd = end;
            return static_cast<uint32_t>(pos + 1);
        }
        return pos < m_line.size() ? static_cast<uint32_t>(pos + 1) : fallback;
    }

  private:
    size_t SkipSpaces(size_t pos) const
    {
        while (pos < m_line.size() && IsSpace(m_line[pos]))
        {
            ++pos;
        }
        return pos;
    }

    bool MatchesAt(size_t pos, std::string_view spelling) const
    {
        if (spelling.empty() || m_line.compare(pos, spelling.size(), spelling) != 0)
        {
            return false;
        }
        size_t end = pos + spelling.size();
        return !(IsIdentChar(spelling.back()) && end < m_line.size() && IsIdentChar(m_line[end]));
    }

    std::string_view m_line;
    bool m_available = false;
    size_t m_cursor = 0;
    bool m_inExpansion = false;
    size_t m_expansionStart = 0;
    size_t m_expansionEnd = 0;
};

class Lexer
{
  public:
    Lexer(std::string_view text, const std::string& bufferName, Diagnostics& diags)
        : m_text(text),
          m_diags(diags),
          m_file(diags.Sources().Get(bufferName))
    {
    }

    std::vector<Token> Run();

  private:
    char Peek(size_t ahead = 0) const
    {
        return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0';
    }
    bool AtEnd() const { return m_pos >= m_text.size(); }

    void NewLine()
    {
        ++m_line;
        m_lineStart = m_pos;
        m_alignedLine = 0;
    }

    /// Skips spaces, newlines and comments. Returns true if anything was skipped.
    bool SkipTrivia();
    void Directive();
    bool ParseLineMarker(std::string_view line);

    /// The location of text at [start, start + length) of the preprocessed input. Call it for
    /// tokens in order: it walks the original line (asking twice for the same start is fine).
    /// `align` false takes cpp's column as is (for comments, which cpp has already removed).
    SourceLocation LocationOf(size_t start, size_t length, bool align = true);

    void LexIdentifier(Token& token);
    void LexNumber(Token& token);
    /// Reads digits of `base` (and underscores) into `value`; returns how many digits.
    size_t ReadDigits(unsigned base, BigUint& value);
    /// Reads a value with an optional base prefix (0x, 0b, 0o, 0d); false if it has no digits.
    bool ReadValue(IntegerInfo& info);
    void LexString(Token& token);
    bool LexOperator(Token& token);

    std::string_view m_text;
    Diagnostics& m_diags;
    const SourceFile* m_file;
    size_t m_pos = 0;
    uint32_t m_line = 1;
    size_t m_lineStart = 0;
    bool m_atLineStart = true;
    ColumnAligner m_aligner;
    uint32_t m_alignedLine = 0;
    size_t m_lastStart = std::string_view::npos;
    SourceLocation m_lastLocation;
};

std::vector<Token>
Lexer::Run()
{
    std::vector<Token> tokens;
    bool first = true;
    int freeFormDepth = 0;
    SourceLocation stringStart;
    uint32_t stringLine = 0;
    while (true)
    {
        bool skipped = SkipTrivia();
        if (AtEnd())
        {
            break;
        }
        if (Peek() == '#' && m_atLineStart)
        {
            Directive();
            continue;
        }
        m_atLineStart = false;
        size_t start = m_pos;
        Token token;
        token.adjacent = !skipped && !first;
        char c = Peek();
        if (IsIdentStart(c))
        {
            LexIdentifier(token);
        }
        else if (IsDecimalDigit(c))
        {
            LexNumber(token);
        }
        else if (c == '"')
        {
            // A string may span lines: then its location is where it starts.
            stringStart = LocationOf(start, 1);
            stringLine = m_line;
            LexString(token);
            if (m_line != stringLine)
            {
                // Step the column aligner over the string's last line (see LocationOf).
                LocationOf(m_lineStart, m_pos - m_lineStart);
            }
        }
        else if (!LexOperator(token))
        {
            if (freeFormDepth == 0)
            {
                m_diags.Error(LocationOf(start, 1),
                              "unexpected character '" + Printable(c) + "'");
                ++m_pos;
                continue;
            }
            token.kind = TokenKind::Other;
            ++m_pos;
        }
        if (token.kind == TokenKind::End)
        {
            // The token reported its own error and produced nothing.
            continue;
        }
        token.text = std::string(m_text.substr(start, m_pos - start));
        token.location = token.kind == TokenKind::String && m_line != stringLine
                             ? stringStart
                             : LocationOf(start, m_pos - start);
        // `@name(` opens a free-form annotation body, which ends at the matching ')'.
        size_t count = tokens.size();
        if (token.Is(TokenKind::LParen) &&
            (freeFormDepth > 0 || (count >= 2 && tokens[count - 2].Is(TokenKind::At))))
        {
            ++freeFormDepth;
        }
        else if (token.Is(TokenKind::RParen) && freeFormDepth > 0)
        {
            --freeFormDepth;
        }
        tokens.push_back(std::move(token));
        first = false;
    }
    Token end;
    end.kind = TokenKind::End;
    if (!tokens.empty())
    {
        // Just after the last token, where "expected '}'" belongs.
        const SourceLocation& last = tokens.back().location;
        end.location = last;
        end.location.column = last.column + std::max<uint32_t>(last.length, 1);
        end.location.length = 1;
    }
    else
    {
        end.location = {m_file, m_line, 1, 1};
    }
    tokens.push_back(std::move(end));
    return tokens;
}

SourceLocation
Lexer::LocationOf(size_t start, size_t length, bool align)
{
    if (m_alignedLine != m_line)
    {
        m_alignedLine = m_line;
        m_lastStart = std::string_view::npos;
        m_aligner.Reset(m_file->CodeLine(m_line), m_file->IsLoaded());
    }
    uint32_t cppColumn = static_cast<uint32_t>(start - m_lineStart + 1);
    SourceLocation location;
    location.file = m_file;
    location.line = m_line;
    if (start == m_lastStart)
    {
        location.column = m_lastLocation.column;
    }
    else if (align)
    {
        location.column = m_aligner.Align(m_text.substr(start, length), cppColumn);
        m_lastStart = start;
    }
    else
    {
        location.column = cppColumn;
    }
    location.length = static_cast<uint32_t>(length);
    m_lastLocation = location;
    return location;
}

bool
Lexer::SkipTrivia()
{
    bool skipped = false;
    while (!AtEnd())
    {
        char c = Peek();
        if (c == '\n')
        {
            ++m_pos;
            NewLine();
            m_atLineStart = true;
            skipped = true;
        }
        else if (IsSpace(c))
        {
            ++m_pos;
            skipped = true;
        }
        else if (c == '/' && Peek(1) == '/')
        {
            while (!AtEnd() && Peek() != '\n')
            {
                ++m_pos;
            }
            skipped = true;
        }
        else if (c == '/' && Peek(1) == '*')
        {
            SourceLocation start = LocationOf(m_pos, 2, false);
            m_pos += 2;
            bool closed = false;
            while (!AtEnd())
            {
                if (Peek() == '*' && Peek(1) == '/')
                {
                    m_pos += 2;
                    closed = true;
                    break;
                }
                if (Peek() == '\n')
                {
                    ++m_pos;
                    NewLine();
                }
                else
                {
                    ++m_pos;
                }
            }
            if (!closed)
            {
                m_diags.Error(start, "unterminated comment");
            }
            skipped = true;
        }
        else
        {
            break;
        }
    }
    return skipped;
}

void
Lexer::Directive()
{
    size_t start = m_pos;
    size_t end = m_text.find('\n', m_pos);
    if (end == std::string_view::npos)
    {
        end = m_text.size();
    }
    std::string_view line = m_text.substr(start, end - start);
    m_pos = end;
    if (ParseLineMarker(line))
    {
        return;
    }
    SourceLocation location = LocationOf(start, 1);
    size_t nameStart = 1;
    while (nameStart < line.size() && IsSpace(line[nameStart]))
    {
        ++nameStart;
    }
    size_t nameEnd = nameStart;
    while (nameEnd < line.size() && IsIdentChar(line[nameEnd]))
    {
        ++nameEnd;
    }
    std::string name(line.substr(nameStart, nameEnd - nameStart));
    if (name == "pragma")
    {
        m_diags.Warning(location, "ignoring '#pragma' (use a P4 annotation such as @pragma)");
        return;
    }
    location.length = static_cast<uint32_t>(nameEnd);
    m_diags.Error(location, "unexpected preprocessor directive '#" + name +
                                "' (the program was not run through the preprocessor)");
}

// `# 42 "file" 1 3` (cpp's form) or `#line 42 "file"`: the next line is line 42 of "file".
bool
Lexer::ParseLineMarker(std::string_view line)
{
    size_t i = 1;
    auto skipSpaces = [&] {
        while (i < line.size() && IsSpace(line[i]))
        {
            ++i;
        }
    };
    skipSpaces();
    if (line.compare(i, 4, "line") == 0 && i + 4 < line.size() && IsSpace(line[i + 4]))
    {
        i += 4;
        skipSpaces();
    }
    if (i >= line.size() || !IsDecimalDigit(line[i]))
    {
        return false;
    }
    uint64_t number = 0;
    while (i < line.size() && IsDecimalDigit(line[i]))
    {
        number = number * 10 + static_cast<uint64_t>(line[i] - '0');
        if (number > 0xffffffffULL)
        {
            return false;
        }
        ++i;
    }
    skipSpaces();
    if (i < line.size() && line[i] == '"')
    {
        std::string name;
        ++i;
        while (i < line.size() && line[i] != '"')
        {
            if (line[i] == '\\' && i + 1 < line.size())
            {
                ++i;
            }
            name += line[i];
            ++i;
        }
        if (i >= line.size())
        {
            return false;
        }
        m_file = m_diags.Sources().Get(name);
    }
    // The newline that ends the marker will advance to `number`.
    m_line = static_cast<uint32_t>(number) - 1;
    m_alignedLine = 0;
    return true;
}

void
Lexer::LexIdentifier(Token& token)
{
    size_t start = m_pos;
    while (IsIdentChar(Peek()))
    {
        ++m_pos;
    }
    token.kind = KeywordKind(m_text.substr(start, m_pos - start));
}

size_t
Lexer::ReadDigits(unsigned base, BigUint& value)
{
    size_t digits = 0;
    while (true)
    {
        char c = Peek();
        if (c == '_')
        {
            ++m_pos;
            continue;
        }
        int digit = DigitValue(c);
        if (digit >= static_cast<int>(base))
        {
            break;
        }
        value.MultiplyAdd(base, static_cast<uint32_t>(digit));
        ++digits;
        ++m_pos;
    }
    return digits;
}

bool
Lexer::ReadValue(IntegerInfo& info)
{
    info.base = 10;
    if (Peek() == '0')
    {
        switch (Peek(1))
        {
        case 'x':
        case 'X':
            info.base = 16;
            break;
        case 'b':
        case 'B':
            info.base = 2;
            break;
        case 'o':
        case 'O':
            info.base = 8;
            break;
        case 'd':
        case 'D':
            info.base = 10;
            m_pos += 2;
            return ReadDigits(10, info.value) > 0;
        default:
            break;
        }
        if (info.base != 10)
        {
            m_pos += 2;
        }
    }
    return ReadDigits(info.base, info.value) > 0;
}

// 42, 0x2a, 0b101010, 0o52, 0d42, and any of those with a width: 8w42, 8s0x2a, 16w0b1.
void
Lexer::LexNumber(Token& token)
{
    size_t start = m_pos;
    token.kind = TokenKind::Integer;
    IntegerInfo info;

    // A width prefix is decimal digits followed by w or s and then a digit.
    size_t scan = m_pos;
    while (scan < m_text.size() && (IsDecimalDigit(m_text[scan]) || m_text[scan] == '_'))
    {
        ++scan;
    }
    bool hasWidth = scan < m_text.size() && (m_text[scan] == 'w' || m_text[scan] == 's') &&
                    scan + 1 < m_text.size() && IsDecimalDigit(m_text[scan + 1]);
    if (hasWidth)
    {
        BigUint width;
        ReadDigits(10, width);
        info.isSigned = Peek() == 's';
        ++m_pos;
        if (!width.FitsIn64() || width.Low64() > kMaxBitWidth)
        {
            m_diags.Error(LocationOf(start, m_pos - start),
                          "width of integer literal is too large (at most " +
                              std::to_string(kMaxBitWidth) + " bits)");
            info.width = kMaxBitWidth;
        }
        else
        {
            info.width = static_cast<uint32_t>(width.Low64());
        }
    }
    bool ok = ReadValue(info);
    // Whatever letters or digits follow belong to this (bad) literal.
    size_t suffixStart = m_pos;
    while (IsIdentChar(Peek()))
    {
        ++m_pos;
    }
    std::string spelling(m_text.substr(start, m_pos - start));
    SourceLocation location = LocationOf(start, m_pos - start);
    if (m_pos > suffixStart)
    {
        char bad = m_text[suffixStart];
        // 0b12, 0o9, 0bf: a digit of the wrong base. 12ms, 0x1g: a suffix.
        if (IsDecimalDigit(bad) || (!ok && DigitValue(bad) < 16))
        {
            m_diags.Error(location, std::string("invalid digit '") + bad + "' in " +
                                        BaseName(info.base) + " literal " + spelling);
        }
        else
        {
            std::string suffix(m_text.substr(suffixStart, m_pos - suffixStart));
            m_diags.Error(location,
                          "invalid suffix '" + suffix + "' on integer literal " + spelling);
        }
    }
    else if (!ok)
    {
        m_diags.Error(location, "integer literal " + spelling + " has no digits");
    }
    else if (info.width)
    {
        uint32_t width = *info.width;
        uint32_t needed = info.value.BitWidth();
        if (width == 0)
        {
            m_diags.Error(location, "integer literal " + spelling + " has width 0");
        }
        else if (!info.isSigned && needed > width)
        {
            m_diags.Error(location, "integer literal " + spelling + " does not fit in " +
                                        std::to_string(width) + " bits (bit<" +
                                        std::to_string(width) + ">)");
        }
        else if (info.isSigned && needed > width - 1)
        {
            m_diags.Error(location, "integer literal " + spelling + " does not fit in " +
                                        std::to_string(width) + " signed bits (int<" +
                                        std::to_string(width) + ">)");
        }
    }
    token.integer = std::move(info);
}

void
Lexer::LexString(Token& token)
{
    const SourceLocation at = LocationOf(m_pos, 1);
    ++m_pos;
    std::string value;
    while (!AtEnd() && Peek() != '"')
    {
        char c = Peek();
        if (c == '\n')
        {
            // P4_16 (as p4c) lets a string literal span lines.
            value += c;
            ++m_pos;
            NewLine();
            continue;
        }
        if (c == '\\' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] != '\n')
        {
            char escaped = m_text[m_pos + 1];
            switch (escaped)
            {
            case 'n':
                value += '\n';
                break;
            case 't':
                value += '\t';
                break;
            case 'r':
                value += '\r';
                break;
            default:
                value += escaped;
                break;
            }
            m_pos += 2;
            continue;
        }
        value += c;
        ++m_pos;
    }
    if (Peek() != '"')
    {
        m_diags.Error(at, "unterminated string literal");
        token.kind = TokenKind::End;
        return;
    }
    ++m_pos;
    token.kind = TokenKind::String;
    token.stringValue = std::move(value);
}

bool
Lexer::LexOperator(Token& token)
{
    std::string_view rest = m_text.substr(m_pos);
    for (const Operator& op : kOperators)
    {
        if (rest.compare(0, op.text.size(), op.text) == 0)
        {
            token.kind = op.kind;
            m_pos += op.text.size();
            return true;
        }
    }
    return false;
}

} // namespace

TokenKind
KeywordKind(std::string_view text)
{
    for (const Keyword& keyword : kKeywords)
    {
        if (keyword.text == text)
        {
            return keyword.kind;
        }
    }
    return TokenKind::Identifier;
}

std::string
TokenKindName(TokenKind kind)
{
    switch (kind)
    {
    case TokenKind::End:
        return "end of file";
    case TokenKind::Identifier:
        return "identifier";
    case TokenKind::Integer:
        return "integer";
    case TokenKind::String:
        return "string";
    case TokenKind::Other:
        return "character";
    default:
        break;
    }
    for (const Keyword& keyword : kKeywords)
    {
        if (keyword.kind == kind)
        {
            return "'" + std::string(keyword.text) + "'";
        }
    }
    for (const Operator& op : kOperators)
    {
        if (op.kind == kind)
        {
            return "'" + std::string(op.text) + "'";
        }
    }
    return "token";
}

std::string
Token::Describe() const
{
    if (kind == TokenKind::End)
    {
        return "end of file";
    }
    return "'" + text + "'";
}

std::vector<Token>
Lex(std::string_view text, const std::string& bufferName, Diagnostics& diags)
{
    return Lexer(text, bufferName, diags).Run();
}

} // namespace incsim::p4
