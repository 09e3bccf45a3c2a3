#include "p4/compiler/frontend.h"

#include "p4/compiler/diagnostics.h"
#include "p4/compiler/parser.h"

#include <utility>

namespace incsim::p4
{

std::optional<std::vector<Token>>
LexProgram(const std::string& path, Diagnostics& diags, const FrontendOptions& options)
{
    std::optional<std::string> text = Preprocess(path, diags, options.preprocess);
    if (!text)
    {
        return std::nullopt;
    }
    return Lex(*text, path, diags);
}

std::unique_ptr<ast::Program>
ParseProgram(const std::string& path, Diagnostics& diags, const FrontendOptions& options)
{
    std::optional<std::vector<Token>> tokens = LexProgram(path, diags, options);
    if (!tokens)
    {
        return nullptr;
    }
    // Lexical errors do not stop parsing: the parser may find more problems worth reporting.
    return Parse(std::move(*tokens), diags);
}

std::unique_ptr<ast::Program>
ParseProgramText(const std::string& name,
                 const std::string& text,
                 Diagnostics& diags,
                 const FrontendOptions& options)
{
    std::optional<std::string> preprocessed = PreprocessText(name, text, diags, options.preprocess);
    if (!preprocessed)
    {
        return nullptr;
    }
    return Parse(Lex(*preprocessed, name, diags), diags);
}

std::string
DumpTokens(const std::vector<Token>& tokens)
{
    std::string out;
    for (const Token& token : tokens)
    {
        out += token.location.ToString();
        out += ' ';
        out += TokenKindName(token.kind);
        if (token.kind == TokenKind::Identifier || token.kind == TokenKind::Integer ||
            token.kind == TokenKind::String)
        {
            out += ' ';
            out += token.text;
        }
        out += '\n';
    }
    return out;
}

} // namespace incsim::p4
