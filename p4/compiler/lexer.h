#ifndef INCSIM_P4_COMPILER_LEXER_H
#define INCSIM_P4_COMPILER_LEXER_H

// Phase 2: preprocessed text -> tokens. The lexer honours cpp's line markers, so every token's
// location names the file and line the user wrote, and it finds the token's column in that
// original line again (cpp collapses spaces and expands macros, which would shift columns).
//
// `>` is never combined with a following `>`: `register<bit<32>>` closes two generic lists. Each
// token records whether whitespace preceded it, and the parser reads `>` `>` with no gap as a
// right shift.
//
// A width-prefixed literal whose value does not fit (8w300, 4s8) is an error here. p4c only
// warns and truncates; incsim refuses to change a value the program spelled out.

#include "p4/compiler/big-uint.h"
#include "p4/compiler/source.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace incsim::p4
{

/// The widest bit<N>, int<N> or literal (NwV) a program may use (p4c has no limit; incsim's
/// generated code keeps values of up to this width on the stack).
constexpr uint32_t kMaxBitWidth = 2048;

class Diagnostics;

enum class TokenKind
{
    End,
    Identifier,
    Integer,
    String,
    /// A character P4 has no token for, inside a free-form annotation body `@name(...)` only
    /// (p4c keeps such bodies unparsed); anywhere else it is a lexer error.
    Other,

    // Keywords.
    KwAbstract,
    KwAction,
    KwActions,
    KwApply,
    KwBit,
    KwBool,
    KwBreak,
    KwConst,
    KwContinue,
    KwControl,
    KwDefault,
    KwElse,
    KwEntries,
    KwEnum,
    KwError,
    KwExit,
    KwExtern,
    KwFalse,
    KwFor,
    KwHeader,
    KwHeaderUnion,
    KwIf,
    KwIn,
    KwInout,
    KwInt,
    KwKey,
    KwMatchKind,
    KwOut,
    KwPackage,
    KwParser,
    KwPriority,
    KwReturn,
    KwSelect,
    KwState,
    KwString,
    KwStruct,
    KwSwitch,
    KwTable,
    KwThis,
    KwTransition,
    KwTrue,
    KwTuple,
    KwType,
    KwTypedef,
    KwValueSet,
    KwVarbit,
    KwVoid,
    DontCare, // _

    // Punctuation and operators.
    LBrace,
    RBrace,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Semicolon,
    Comma,
    Colon,
    Dot,
    DotDot,
    Question,
    At,
    Assign,
    Eq,
    Ne,
    Lt,
    Le,
    Gt, // also half of `>>`, see above
    Ge,
    Shl,
    Plus,
    PlusPlus,
    PlusSat,
    Minus,
    MinusSat,
    Star,
    Slash,
    Percent,
    Amp,
    AmpAmp,
    Mask, // &&&
    Pipe,
    PipePipe,
    Caret,
    Tilde,
    Not,
    // Compound assignments are lexed so the parser can name them as unsupported.
    PlusAssign,
    MinusAssign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    AmpAssign,
    PipeAssign,
    CaretAssign,
    ShlAssign,
};

/// How a token is spelled in messages: "';'", "identifier", "end of file".
std::string TokenKindName(TokenKind kind);

/// The keyword for an identifier-like spelling, or Identifier.
TokenKind KeywordKind(std::string_view text);

/// A decoded integer literal: 8w255 has width 8, unsigned; 4s3 width 4, signed; 42 no width.
struct IntegerInfo
{
    BigUint value;
    std::optional<uint32_t> width;
    bool isSigned = false;
    unsigned base = 10;
};

struct Token
{
    TokenKind kind = TokenKind::End;
    /// The spelling as written (for strings, with the quotes).
    std::string text;
    SourceLocation location;
    /// No whitespace (or comment) between this token and the previous one.
    bool adjacent = false;
    /// Integer tokens only.
    IntegerInfo integer;
    /// String tokens only: the value with escapes decoded.
    std::string stringValue;

    bool Is(TokenKind k) const { return kind == k; }
    /// "'foo'" for names and literals, "';'" for punctuation, "end of file" at the end.
    std::string Describe() const;
};

/// Lexes preprocessed text. Until the first line marker, locations name `bufferName` (use the
/// name under which the text was registered with diags.Sources() to get carets). Errors go to
/// `diags`; the offending characters are skipped. The result always ends with an End token.
std::vector<Token> Lex(std::string_view text, const std::string& bufferName, Diagnostics& diags);

} // namespace incsim::p4

#endif
