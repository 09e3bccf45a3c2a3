// The P4 front end: preprocessor, lexer, parser, AST printer and diagnostics.
//
// Negative programs live in tests/p4/bad/{lexer,parser}/, one error each, with the expected
// first error on their first line: `// expect: name.p4:LINE:COL: error: message`.

#include "p4-test-support.h"

#include "p4/compiler/ast.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/frontend.h"
#include "p4/compiler/lexer.h"
#include "p4/compiler/parser.h"
#include "p4/compiler/preprocess.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace p4 = incsim::p4;
using namespace incsim::p4test;
namespace ast = incsim::p4::ast;

using p4::TokenKind;

namespace
{

const std::string& kP4TestDir = P4TestDir();

// Lexes text as if it were the file "test.p4" (no preprocessor).
std::vector<p4::Token>
LexText(const std::string& text, p4::Diagnostics& diags)
{
    diags.Sources().AddBuffer("test.p4", text);
    std::vector<p4::Token> tokens = p4::Lex(text, "test.p4", diags);
    return tokens;
}

std::vector<TokenKind>
Kinds(const std::vector<p4::Token>& tokens)
{
    std::vector<TokenKind> kinds;
    for (const p4::Token& token : tokens)
    {
        kinds.push_back(token.kind);
    }
    return kinds;
}

const p4::Token&
SingleToken(const std::vector<p4::Token>& tokens)
{
    REQUIRE(tokens.size() == 2); // the token and End
    return tokens[0];
}

std::unique_ptr<ast::Expression>
ParseExpr(const std::string& text, p4::Diagnostics& diags)
{
    return p4::ParseExpression(LexText(text, diags), diags);
}

template <typename T>
const T*
FindDecl(const ast::Program& program, const std::string& name)
{
    for (const auto& declaration : program.declarations)
    {
        if (declaration->name == name && declaration->Is<T>())
        {
            return declaration->As<T>();
        }
    }
    return nullptr;
}

// Parses, dumps, parses the dump and dumps again: the two dumps must be identical.
void
CheckRoundTrip(const std::string& name, const std::string& text)
{
    INFO(name);
    p4::Diagnostics first;
    auto program = p4::ParseProgramText(name, text, first);
    INFO(first.Render());
    REQUIRE(program);
    REQUIRE(first.ErrorCount() == 0);
    std::string dump = program->DumpToString();
    CHECK(dump.find("<?>") == std::string::npos);

    p4::Diagnostics second;
    auto again = p4::ParseProgramText(name + ".dump", dump, second);
    INFO(dump);
    INFO(second.Render());
    REQUIRE(again);
    REQUIRE(second.ErrorCount() == 0);
    CHECK(again->DumpToString() == dump);
}

// Runs every program directly in `dir` and compares its first error with its expectation.
size_t
CheckNegativePrograms(const std::string& dir)
{
    return ForEachNegativeProgram(dir, [](const std::string& path, const std::string& expected) {
        p4::Diagnostics diags;
        p4::ParseProgram(path, diags);
        INFO(diags.Render());
        CHECK(diags.HasErrors());
        CHECK(FirstErrorLine(diags) == expected);
    });
}

const char* kMinimalProgram = R"(#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> a;
    bit<16> b;
}

struct headers_t {
    h_t h;
    h_t[2] stack;
}

struct meta_t {
    bit<8> x;
}

parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition select(hdr.h.a, hdr.h.b) {
            (1, 0x10 .. 0x20): next;
            (2 &&& 3, _): accept;
            default: reject;
        }
    }
    state next {
        pkt.extract(hdr.stack.next);
        transition accept;
    }
}

control VC(inout headers_t hdr, inout meta_t meta) {
    apply {
    }
}

control I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    action set(bit<8> v) {
        meta.x = v;
    }
    table t {
        key = {
            hdr.h.a: exact;
        }
        actions = {
            set;
            NoAction;
        }
        default_action = NoAction();
    }
    apply {
        if (t.apply().miss) {
            set(8w1);
        }
    }
}

control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {
    apply {
    }
}

control CC(inout headers_t hdr, inout meta_t meta) {
    apply {
    }
}

control D(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
)";

} // namespace

// --- Diagnostics -----------------------------------------------------------------------------

TEST_CASE("diagnostics render file:line:col, the source line and a caret", "[p4][frontend]")
{
    p4::Diagnostics diags;
    const p4::SourceFile* file =
        diags.Sources().AddBuffer("x.p4", "header h {\n\tbit<8> a = 8w300;\n}\n");
    diags.Error({file, 2, 13, 5}, "too wide");
    diags.Note({file, 1, 1, 6}, "in this header");
    diags.Warning({file, 3, 1, 1}, "something else");
    CHECK(diags.ErrorCount() == 1);
    CHECK(diags.WarningCount() == 1);
    CHECK(diags.Render() == "x.p4:2:13: error: too wide\n"
                            "    \tbit<8> a = 8w300;\n"
                            "    \t           ^~~~~\n"
                            "x.p4:1:1: note: in this header\n"
                            "    header h {\n"
                            "    ^~~~~~\n"
                            "x.p4:3:1: warning: something else\n"
                            "    }\n"
                            "    ^\n");
}

TEST_CASE("diagnostics without a location, and the error limit", "[p4][frontend]")
{
    p4::Diagnostics diags;
    diags.SetErrorLimit(2);
    diags.Error({}, "first");
    CHECK_FALSE(diags.LimitReached());
    diags.Error({}, "second");
    CHECK(diags.LimitReached());
    diags.Error({}, "third");
    CHECK(diags.ErrorCount() == 2);
    CHECK(diags.Render() ==
          "error: first\nerror: second\nnote: stopped after 2 errors (1 more not shown)\n");
}

// --- Lexer -----------------------------------------------------------------------------------

TEST_CASE("lexer reads integer literals in every P4 form", "[p4][frontend]")
{
    struct Case
    {
        const char* text;
        uint64_t value;
        int width; // -1: none
        bool isSigned;
        unsigned base;
    };
    const Case cases[] = {
        {"42", 42, -1, false, 10},         {"0x2A", 42, -1, false, 16},
        {"0X2a", 42, -1, false, 16},       {"0b1010_1010", 170, -1, false, 2},
        {"0B11", 3, -1, false, 2},         {"0o17", 15, -1, false, 8},
        {"0d99", 99, -1, false, 10},       {"1_000_000", 1000000, -1, false, 10},
        {"8w255", 255, 8, false, 10},      {"16w0x10", 16, 16, false, 16},
        {"4s3", 3, 4, true, 10},           {"32w0b1", 1, 32, false, 2},
        {"9w0o777", 511, 9, false, 8},
        {"48w0xffff_ffff_ffff", 0xffffffffffffULL, 48, false, 16},
        {"1w1", 1, 1, false, 10},          {"64w18446744073709551615", UINT64_MAX, 64, false, 10},
    };
    for (const Case& c : cases)
    {
        INFO(c.text);
        p4::Diagnostics diags;
        auto tokens = LexText(c.text, diags);
        CHECK(diags.All().empty());
        const p4::Token& token = SingleToken(tokens);
        CHECK(token.kind == TokenKind::Integer);
        CHECK(token.text == c.text);
        CHECK(token.integer.value.Low64() == c.value);
        CHECK(token.integer.value.FitsIn64());
        CHECK(token.integer.width.has_value() == (c.width >= 0));
        if (c.width >= 0)
        {
            CHECK(*token.integer.width == static_cast<uint32_t>(c.width));
        }
        CHECK(token.integer.isSigned == c.isSigned);
        CHECK(token.integer.base == c.base);
    }
}

TEST_CASE("lexer keeps literals wider than 64 bits exactly", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto tokens = LexText("128w0xffff_0000_ffff_0000_ffff_0000_ffff_0001", diags);
    CHECK(diags.All().empty());
    const p4::Token& token = SingleToken(tokens);
    CHECK(token.integer.value.BitWidth() == 128);
    CHECK_FALSE(token.integer.value.FitsIn64());
    CHECK(token.integer.value.Low64() == 0xffff0000ffff0001ULL);
    CHECK(token.integer.value.ToString(16) == "ffff0000ffff0000ffff0000ffff0001");
    CHECK(p4::BigUint(1000).ToString(2) == "1111101000");
    CHECK(p4::BigUint(0).ToString() == "0");
}

TEST_CASE("lexer rejects malformed and oversized literals", "[p4][frontend]")
{
    struct Case
    {
        const char* text;
        const char* message;
    };
    const Case cases[] = {
        {"8w300", "integer literal 8w300 does not fit in 8 bits (bit<8>)"},
        {"8w256", "integer literal 8w256 does not fit in 8 bits (bit<8>)"},
        {"4s8", "integer literal 4s8 does not fit in 4 signed bits (int<4>)"},
        {"0x", "integer literal 0x has no digits"},
        {"8w0x", "integer literal 8w0x has no digits"},
        {"0b102", "invalid digit '2' in binary literal 0b102"},
        {"0o8", "invalid digit '8' in octal literal 0o8"},
        {"12abc", "invalid suffix 'abc' on integer literal 12abc"},
        {"0w0", "integer literal 0w0 has width 0"},
        {"99999w1", "width of integer literal is too large (at most 2048 bits)"},
        // The same limit as bit<N>'s: a wider literal would be a wider value on the stack.
        {"2049w1", "width of integer literal is too large (at most 2048 bits)"},
        {"2147483648w0", "width of integer literal is too large (at most 2048 bits)"},
    };
    for (const Case& c : cases)
    {
        INFO(c.text);
        p4::Diagnostics diags;
        LexText(c.text, diags);
        REQUIRE(diags.ErrorCount() == 1);
        CHECK(diags.All()[0].message == c.message);
        CHECK(diags.All()[0].location.column == 1);
    }
}

TEST_CASE("lexer knows every P4 operator", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto tokens = LexText("&&& ++ .. << >= <= == != && || |+| |-| & | ^ ~ ! ? : @ . ; , = < > "
                          "+ - * / % { } ( ) [ ] += <<=",
                          diags);
    CHECK(diags.All().empty());
    const std::vector<TokenKind> expected = {
        TokenKind::Mask,     TokenKind::PlusPlus,  TokenKind::DotDot,   TokenKind::Shl,
        TokenKind::Ge,       TokenKind::Le,        TokenKind::Eq,       TokenKind::Ne,
        TokenKind::AmpAmp,   TokenKind::PipePipe,  TokenKind::PlusSat,  TokenKind::MinusSat,
        TokenKind::Amp,      TokenKind::Pipe,      TokenKind::Caret,    TokenKind::Tilde,
        TokenKind::Not,      TokenKind::Question,  TokenKind::Colon,    TokenKind::At,
        TokenKind::Dot,      TokenKind::Semicolon, TokenKind::Comma,    TokenKind::Assign,
        TokenKind::Lt,       TokenKind::Gt,        TokenKind::Plus,     TokenKind::Minus,
        TokenKind::Star,     TokenKind::Slash,     TokenKind::Percent,  TokenKind::LBrace,
        TokenKind::RBrace,   TokenKind::LParen,    TokenKind::RParen,   TokenKind::LBracket,
        TokenKind::RBracket, TokenKind::PlusAssign, TokenKind::ShlAssign, TokenKind::End,
    };
    CHECK(Kinds(tokens) == expected);

    // A range needs no spaces: 1..5 is three tokens.
    CHECK(Kinds(LexText("1..5", diags)) ==
          std::vector<TokenKind>{TokenKind::Integer, TokenKind::DotDot, TokenKind::Integer,
                                 TokenKind::End});
}

TEST_CASE("lexer splits >> so generic lists close, and the parser rebuilds shifts",
          "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto tokens = LexText("register<bit<32>> r", diags);
    REQUIRE(Kinds(tokens) == std::vector<TokenKind>{TokenKind::Identifier, TokenKind::Lt,
                                                    TokenKind::KwBit, TokenKind::Lt,
                                                    TokenKind::Integer, TokenKind::Gt,
                                                    TokenKind::Gt, TokenKind::Identifier,
                                                    TokenKind::End});
    CHECK(tokens[6].adjacent);
    CHECK_FALSE(tokens[7].adjacent);

    auto shift = ParseExpr("x >> 1 >= 3", diags);
    REQUIRE(shift);
    const auto* compare = shift->As<ast::BinaryExpr>();
    REQUIRE(compare);
    CHECK(compare->op == ast::BinaryOp::Ge);
    const auto* inner = compare->left->As<ast::BinaryExpr>();
    REQUIRE(inner);
    CHECK(inner->op == ast::BinaryOp::Shr);
    CHECK(inner->location.length == 2);
    CHECK(diags.All().empty());

    auto greater = ParseExpr("a > b", diags);
    REQUIRE(greater);
    CHECK(greater->As<ast::BinaryExpr>()->op == ast::BinaryOp::Gt);

    p4::Diagnostics spaced;
    CHECK_FALSE(ParseExpr("a > > b", spaced));
    CHECK(spaced.All().at(0).message == "'> >' is not a shift: write '>>' without a space");
}

TEST_CASE("lexer handles comments, strings, keywords and bad characters", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto tokens = LexText("// line comment\n"
                          "/* block\n   comment */ header_union \"a\\\"b\\n\" _ _x apply\n"
                          "x $ y",
                          diags);
    REQUIRE(tokens.size() == 8);
    CHECK(tokens[0].kind == TokenKind::KwHeaderUnion);
    CHECK(tokens[0].location.line == 3);
    CHECK(tokens[0].location.column == 15);
    CHECK(tokens[0].location.length == 12);
    CHECK(tokens[1].kind == TokenKind::String);
    CHECK(tokens[1].stringValue == "a\"b\n");
    CHECK(tokens[2].kind == TokenKind::DontCare);
    CHECK(tokens[3].kind == TokenKind::Identifier);
    CHECK(tokens[4].kind == TokenKind::KwApply);
    CHECK(tokens[5].text == "x");
    CHECK(tokens[6].text == "y");
    REQUIRE(diags.ErrorCount() == 1);
    CHECK(diags.All()[0].message == "unexpected character '$'");
    CHECK(diags.All()[0].location.line == 4);
    CHECK(diags.All()[0].location.column == 3);

    p4::Diagnostics comment;
    LexText("a /* oops\nb", comment);
    REQUIRE(comment.ErrorCount() == 1);
    CHECK(FirstErrorLine(comment) == "test.p4:1:3: error: unterminated comment");

    p4::Diagnostics string;
    LexText("@name(\"abc\n)", string);
    CHECK(FirstErrorLine(string) == "test.p4:1:7: error: unterminated string literal");
}

TEST_CASE("lexer takes multi-line strings and free-form annotation bodies, as p4c",
          "[p4][frontend]")
{
    // A string literal may span lines; the token is located where it starts, and the next
    // token on the next line keeps its own line.
    p4::Diagnostics strings;
    auto tokens = LexText("x = \"two\nlines\"; y", strings);
    REQUIRE(strings.ErrorCount() == 0);
    REQUIRE(tokens.size() == 6);
    CHECK(tokens[2].kind == TokenKind::String);
    CHECK(tokens[2].stringValue == "two\nlines");
    CHECK(tokens[2].location.line == 1);
    CHECK(tokens[2].location.column == 5);
    CHECK(tokens[4].location.line == 2);
    CHECK(tokens[4].location.column == 9);

    // Inside @name(...), a character P4 has no token for is kept (p4c's free-form bodies);
    // outside it is still an error.
    p4::Diagnostics annotation;
    tokens = LexText("@scrabble(it's (nested) 42) x", annotation);
    CHECK(annotation.ErrorCount() == 0);
    CHECK(tokens[4].kind == TokenKind::Other);
    CHECK(tokens[4].text == "'");
    CHECK(tokens.back().kind == TokenKind::End);
    CHECK(tokens[tokens.size() - 2].text == "x");
    p4::Diagnostics outside;
    LexText("@a(b) it's", outside);
    CHECK(FirstErrorLine(outside) == "test.p4:1:9: error: unexpected character \'\'\'");
}

TEST_CASE("lexer follows line markers back to the original file", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto tokens = LexText("# 10 \"orig.p4\"\nfoo\n"
                          "# 3 \"dir/other.p4\" 1 3\n  bar\n"
                          "#line 7 \"orig.p4\"\nbaz",
                          diags);
    CHECK(diags.All().empty());
    REQUIRE(tokens.size() == 4);
    CHECK(tokens[0].location.ToString() == "orig.p4:10:1");
    CHECK(tokens[1].location.ToString() == "dir/other.p4:3:3");
    CHECK(tokens[2].location.ToString() == "orig.p4:7:1");
}

TEST_CASE("a line marker naming a device or a FIFO is not read for carets", "[p4][frontend]")
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("incsim-fifo-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string fifo = (dir / "pipe.p4").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    for (const std::string& file : {std::string("/dev/zero"), fifo})
    {
        INFO(file);
        p4::Diagnostics diags;
        const std::string text = "# 3 \"" + file + "\"\nheader h { bit<8> a }\n";
        p4::Parse(LexText(text, diags), diags);
        CHECK(FirstErrorLine(diags) ==
              file + ":3:20: error: expected ';' after the field declaration");
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("tokens after an #include name the right file and line", "[p4][frontend]")
{
    p4::Diagnostics diags;
    std::string main = kP4TestDir + "/constructs/with-include.p4";
    auto tokens = p4::LexProgram(main, diags);
    INFO(diags.Render());
    REQUIRE(tokens);
    CHECK(diags.All().empty());
    auto find = [&](const std::string& text) {
        auto it = std::find_if(tokens->begin(), tokens->end(),
                               [&](const p4::Token& token) { return token.text == text; });
        REQUIRE(it != tokens->end());
        return it->location;
    };
    p4::SourceLocation inInclude = find("marker_in_include");
    CHECK(inInclude.ToString() == kP4TestDir + "/constructs/with-include-defs.p4:4:17");
    p4::SourceLocation inMain = find("marker_in_main");
    CHECK(inMain.ToString() == main + ":7:12");
    CHECK(find("packet_in").file->IsSystem());
    CHECK_FALSE(inMain.file->IsSystem());
}

// --- Preprocessor ----------------------------------------------------------------------------

TEST_CASE("the preprocessor expands macros and #if, and reports its errors", "[p4][frontend]")
{
    const std::string text = "#define N 4\n"
                             "#if N > 2\n"
                             "const bit<8> X = N;\n"
                             "#else\n"
                             "#error N is too small\n"
                             "#endif\n";
    p4::Diagnostics diags;
    auto program = p4::ParseProgramText("macros.p4", text, diags);
    REQUIRE(program);
    CHECK(diags.All().empty());
    const auto* x = FindDecl<ast::ConstDecl>(*program, "X");
    REQUIRE(x);
    CHECK(ast::ToString(*x->value) == "4");
    // The macro's column: the value came from expanding N at column 18.
    CHECK(x->value->location.ToString() == "macros.p4:3:18");

    p4::FrontendOptions small;
    small.preprocess.defines = {"N=1"};
    p4::Diagnostics failed;
    std::string undefined = text;
    undefined.replace(0, std::string("#define N 4\n").size(), "");
    CHECK_FALSE(p4::ParseProgramText("macros.p4", undefined, failed, small));
    CHECK(FirstErrorLine(failed) == "macros.p4:4:2: error: #error N is too small");

    p4::Diagnostics missing;
    CHECK_FALSE(p4::ParseProgram(kP4TestDir + "/no/such/file.p4", missing));
    CHECK(FirstErrorLine(missing) ==
          "error: cannot open '" + kP4TestDir + "/no/such/file.p4': No such file or directory");

    p4::FrontendOptions noCpp;
    noCpp.preprocess.cpp = "incsim-no-such-cpp";
    p4::Diagnostics spawn;
    CHECK_FALSE(p4::ParseProgramText("x.p4", "", spawn, noCpp));
    CHECK(FirstErrorLine(spawn) ==
          "error: cannot run the C preprocessor 'incsim-no-such-cpp': No such file or directory");
}

TEST_CASE("arguments reach cpp verbatim, never through a shell", "[p4][frontend]")
{
    p4::FrontendOptions options;
    options.preprocess.defines = {"V=\"$(touch /tmp/incsim-p4-injected); `true`\""};
    p4::Diagnostics diags;
    auto program =
        p4::ParseProgramText("quoted.p4", "@name(V) const bit<8> X = 1;\n", diags, options);
    REQUIRE(program);
    CHECK(diags.All().empty());
    const auto* x = FindDecl<ast::ConstDecl>(*program, "X");
    REQUIRE(x);
    CHECK(ast::FindAnnotation(x->annotations, "name")->StringArg() ==
          "$(touch /tmp/incsim-p4-injected); `true`");
}

// --- Parser ----------------------------------------------------------------------------------

TEST_CASE("incsim's core.p4 and v1model.p4 parse with no diagnostics", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto program = p4::ParseProgram(p4::DefaultSystemIncludeDir() + "/v1model.p4", diags);
    INFO(diags.Render());
    REQUIRE(program);
    CHECK(diags.All().empty());
    for (const auto& declaration : program->declarations)
    {
        INFO(declaration->name);
        CHECK(declaration->IsSystem());
    }

    const auto* errors = program->declarations.front()->As<ast::ErrorDecl>();
    REQUIRE(errors);
    std::vector<std::string> names;
    for (const auto& member : errors->members)
    {
        names.push_back(member->name);
    }
    CHECK(names == std::vector<std::string>{"NoError", "PacketTooShort", "NoMatch",
                                            "StackOutOfBounds", "HeaderTooShort",
                                            "ParserTimeout", "ParserInvalidArgument"});

    const auto* packetIn = FindDecl<ast::ExternDecl>(*program, "packet_in");
    REQUIRE(packetIn);
    CHECK(packetIn->methods.size() == 5);

    const auto* reg = FindDecl<ast::ExternDecl>(*program, "register");
    REQUIRE(reg);
    REQUIRE(reg->typeParams.size() == 1);
    REQUIRE(reg->methods.size() == 3);
    CHECK(reg->methods[0]->isConstructor);
    CHECK(reg->methods[1]->name == "read");
    CHECK(reg->methods[1]->params[0]->direction == ast::Direction::Out);

    const auto* metadata = FindDecl<ast::StructDecl>(*program, "standard_metadata_t");
    REQUIRE(metadata);
    auto width = [&](const char* field) -> uint32_t {
        const ast::StructField* f = metadata->FindField(field);
        REQUIRE(f);
        if (const auto* bits = f->type->As<ast::BitsType>())
        {
            return bits->width;
        }
        return 0;
    };
    CHECK(width("instance_type") == 32);
    CHECK(width("enq_qdepth") == 19);
    CHECK(width("ingress_global_timestamp") == 48);
    CHECK(width("mcast_grp") == 16);
    CHECK(width("priority") == 3);
    // p4c's default V1MODEL_VERSION, 20180101: ports are bit<9>, PortId_t is not declared.
    CHECK(width("ingress_port") == 9);
    CHECK(!FindDecl<ast::TypedefDecl>(*program, "PortId_t"));
    CHECK(metadata->FindField("parser_error")->type->Is<ast::ErrorType>());
    CHECK(ast::FindAnnotation(metadata->annotations, "name")->StringArg() == "standard_metadata");

    const auto* hash = FindDecl<ast::FunctionDecl>(*program, "hash");
    REQUIRE(hash);
    CHECK(hash->isExtern);
    CHECK(hash->typeParams.size() == 4);
    CHECK(hash->params.size() == 5);

    const auto* markToDrop = FindDecl<ast::FunctionDecl>(*program, "mark_to_drop");
    REQUIRE(markToDrop);
    CHECK(markToDrop->params.at(0)->direction == ast::Direction::InOut);

    const auto* v1switch = FindDecl<ast::PackageTypeDecl>(*program, "V1Switch");
    REQUIRE(v1switch);
    CHECK(v1switch->params.size() == 6);
    const auto* ingress = FindDecl<ast::ControlTypeDecl>(*program, "Ingress");
    REQUIRE(ingress);
    CHECK(ast::FindAnnotation(ingress->annotations, "pipeline") != nullptr);

    std::vector<std::string> algorithms;
    for (const auto& member : FindDecl<ast::EnumDecl>(*program, "HashAlgorithm")->members)
    {
        algorithms.push_back(member->name);
    }
    CHECK(algorithms == std::vector<std::string>{"crc32", "crc32_custom", "crc16", "crc16_custom",
                                                 "random", "identity", "csum16", "xor16"});
}

TEST_CASE("the sample program parses with no diagnostics", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto program = p4::ParseProgram(kP4TestDir + "/constructs/basic.p4", diags);
    INFO(diags.Render());
    REQUIRE(program);
    CHECK(diags.All().empty());

    const auto* verdict = FindDecl<ast::EnumDecl>(*program, "Verdict");
    REQUIRE(verdict);
    REQUIRE(verdict->underlyingType);
    CHECK(ast::ToString(*verdict->underlyingType) == "bit<8>");

    const auto* headers = FindDecl<ast::StructDecl>(*program, "headers_t");
    REQUIRE(headers);
    const auto* tags = headers->FindField("tags")->type->As<ast::StackType>();
    REQUIRE(tags);
    CHECK(tags->count == 4);

    const auto* parser = FindDecl<ast::ParserDecl>(*program, "MyParser");
    REQUIRE(parser);
    CHECK(parser->states.size() == 4);
    const ast::ParserState* start = parser->FindState("start");
    REQUIRE(start);
    const auto* select = start->transition->target->As<ast::SelectExpr>();
    REQUIRE(select);
    REQUIRE(select->cases.size() == 3);
    CHECK(select->cases[1]->keys[0]->As<ast::BinaryExpr>()->op == ast::BinaryOp::Mask);
    CHECK(select->cases[2]->keys[0]->Is<ast::DefaultExpr>());
    const auto* tagsSelect =
        parser->FindState("parse_tags")->transition->target->As<ast::SelectExpr>();
    const auto* lookahead = tagsSelect->selectors[0]->As<ast::CallExpr>();
    REQUIRE(lookahead);
    CHECK(ast::ToString(*lookahead->typeArgs.at(0)) == "bit<8>");

    const auto* ingress = FindDecl<ast::ControlDecl>(*program, "MyIngress");
    REQUIRE(ingress);
    const ast::TableDecl* table = nullptr;
    const ast::InstanceDecl* reg = nullptr;
    for (const auto& local : ingress->locals)
    {
        if (local->name == "ipv4_lpm")
        {
            table = local->As<ast::TableDecl>();
        }
        if (local->name == "flow_packets")
        {
            reg = local->As<ast::InstanceDecl>();
        }
    }
    REQUIRE(reg);
    CHECK(ast::ToString(*reg->type) == "register<bit<32>>");
    REQUIRE(table);
    REQUIRE(table->Key());
    REQUIRE(table->Key()->keys.size() == 2);
    CHECK(table->Key()->keys[0]->matchKind == "lpm");
    CHECK(table->Key()->keys[1]->matchKind == "exact");
    const ast::Annotation* keyName =
        ast::FindAnnotation(table->Key()->keys[1]->annotations, "name");
    REQUIRE(keyName);
    CHECK(keyName->StringArg() == "in_port");
    REQUIRE(table->Actions());
    CHECK(table->Actions()->actions.size() == 3);
    CHECK(ast::FindAnnotation(table->Actions()->actions[2]->annotations, "defaultonly"));
    REQUIRE(table->DefaultAction());
    CHECK(table->DefaultAction()->defaultAction->action->name == "NoAction");
    CHECK(ast::ToString(*table->Size()->value) == "1024");

    bool sawSwitch = false;
    for (const auto& statement : ingress->apply->statements)
    {
        if (const auto* switchStmt = statement->As<ast::SwitchStmt>())
        {
            sawSwitch = true;
            CHECK(ast::ToString(*switchStmt->expression) == "ipv4_lpm.apply().action_run");
            CHECK(switchStmt->cases.size() == 3);
            CHECK(switchStmt->cases[2]->label->Is<ast::DefaultExpr>());
        }
    }
    CHECK(sawSwitch);

    const auto* main = FindDecl<ast::InstanceDecl>(*program, "main");
    REQUIRE(main);
    CHECK(main->args.size() == 6);
}

TEST_CASE("the sample program's dump matches its golden file", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto program = p4::ParseProgram(kP4TestDir + "/constructs/basic.p4", diags);
    REQUIRE(program);
    CHECK(program->DumpToString() == ReadTextFile(kP4TestDir + "/constructs/basic.p4.dump"));
}

TEST_CASE("parse, dump and parse again gives the same dump", "[p4][frontend]")
{
    CheckRoundTrip("minimal.p4", kMinimalProgram);
    CheckRoundTrip("basic.p4", ReadTextFile(kP4TestDir + "/constructs/basic.p4"));
    CheckRoundTrip("expressions.p4", R"(#include <core.p4>
const bit<8> A = 1;
const bit<8> B = (A + 2) * 3 - -A;
const bool C = A & 3 == 1 || !(A > 2) && A != 4;
const bit<16> D = A ++ (bit<8>)(A << 1) >> 2;
const bit<8> E = A > 1 ? (A < 2 ? 8w1 : 8w2) : (bit<8>)~A[3:0] |+| A |-| 1;
const int<8> F = -8s5;
const bit<4> G = (A + A)[3:0];
const int H = 0x10 % 3 / 1;
typedef bit<8> byte_t;
const byte_t I = (byte_t)(A ^ 2);
)");
    CheckRoundTrip("statements.p4", R"(#include <core.p4>
struct s_t { bit<8> a; bool b; }
header h_t { bit<8> x; }
struct hs_t { h_t h; h_t[3] stack; }
control C(inout hs_t hs, inout s_t s) {
    bit<8> local = 8w3;
    action a(in bit<8> v, bit<8> cp) { s.a = v + cp; }
    @name("t.public") table t {
        key = { hs.h.x: ternary @name("x"); s.a: lpm; }
        actions = { a; @defaultonly NoAction; }
        const entries = {
            0x01 &&& 0x0f: a(1);
            priority = 10: 0x02 &&& 0xff: a(2);
            _: NoAction();
        }
        const default_action = NoAction();
        size = 64;
    }
    apply {
        const bit<8> k = 2;
        s_t copy = { a = 1, b = true };
        tuple<bit<8>, bool> pair = { 8w1, false };
        if (s.b) a(1); else if (!s.b) { return; } else { exit; }
        if (s.b) { a(2); }
        switch (t.apply().action_run) {
            a:
            NoAction: { hs.stack[0].setValid(); }
        }
        switch (s.a) {
            1: { s.a = 2; }
            default: { }
        }
        hs.stack.push_front(1);
        hs.h = { x = 4 };
        @atomic { s.a = hs.stack.last.x; }
        ;
    }
}
)");
}

TEST_CASE("P4 precedence: bitwise operators bind tighter than comparisons", "[p4][frontend]")
{
    struct Case
    {
        const char* text;
        const char* grouped; // fully parenthesized reading
    };
    const Case cases[] = {
        {"a & b == c", "((a & b) == c)"},
        {"a + b * c", "(a + (b * c))"},
        {"a - b - c", "((a - b) - c)"},
        {"a ++ b << 1", "((a ++ b) << 1)"},
        {"a | b ^ c & d", "(a | (b ^ (c & d)))"},
        {"a < b == c > d", "((a < b) == (c > d))"},
        {"a || b && c", "(a || (b && c))"},
        {"a ? b : c ? d : e", "(a ? b : (c ? d : e))"},
        {"-x[3:0]", "(-x[3:0])"},
        {"(bit<8>)x + 1", "(((bit<8>)x) + 1)"},
        {"!a.isValid() && b", "((!a.isValid()) && b)"},
        {"~a |+| b", "((~a) |+| b)"},
    };
    // Prints every binary, unary, cast and ternary node in parentheses.
    std::function<std::string(const ast::Expression&)> group = [&](const ast::Expression& e) {
        if (const auto* b = e.As<ast::BinaryExpr>())
        {
            return "(" + group(*b->left) + " " + ast::ToString(b->op) + " " + group(*b->right) +
                   ")";
        }
        if (const auto* u = e.As<ast::UnaryExpr>())
        {
            return "(" + std::string(ast::ToString(u->op)) + group(*u->operand) + ")";
        }
        if (const auto* c = e.As<ast::CastExpr>())
        {
            return "((" + ast::ToString(*c->target) + ")" + group(*c->operand) + ")";
        }
        if (const auto* t = e.As<ast::TernaryExpr>())
        {
            return "(" + group(*t->condition) + " ? " + group(*t->ifTrue) + " : " +
                   group(*t->ifFalse) + ")";
        }
        return ast::ToString(e);
    };
    for (const Case& c : cases)
    {
        INFO(c.text);
        p4::Diagnostics diags;
        auto expression = ParseExpr(c.text, diags);
        INFO(diags.Render());
        REQUIRE(expression);
        CHECK(group(*expression) == c.grouped);
        // Printing adds only the parentheses the grammar needs.
        CHECK(ast::ToString(*expression) == c.text);
    }
}

TEST_CASE("generic calls are told apart from comparisons by the names of types", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto program = p4::ParseProgramText("generics.p4", R"(#include <core.p4>
header h_t { bit<8> a; }
struct s_t { h_t h; bit<8> x; bit<8> y; }
parser P(packet_in pkt, out s_t s) {
    state start {
        s.x = (bit<8>)(s.y < s.x ? 1 : 0);
        pkt.extract<h_t>(s.h);
        transition select(pkt.lookahead<bit<16>>()[7:0]) {
            0: accept;
            default: reject;
        }
    }
}
)",
                                        diags);
    INFO(diags.Render());
    REQUIRE(program);
    CHECK(diags.All().empty());
    const auto* parser = FindDecl<ast::ParserDecl>(*program, "P");
    REQUIRE(parser);
    const auto& statements = parser->states[0]->statements;
    REQUIRE(statements.size() == 2);
    const auto* extract = statements[1]->As<ast::CallStmt>();
    REQUIRE(extract);
    REQUIRE(extract->call->typeArgs.size() == 1);
    CHECK(ast::ToString(*extract->call->typeArgs[0]) == "h_t");
}

TEST_CASE("unsupported P4 is reported by name, at its location", "[p4][frontend]")
{
    struct Case
    {
        const char* text;
        const char* error;
    };
    const Case cases[] = {
        {"control C() { apply { break; } }",
         "u.p4:1:23: error: 'break' is not supported by incsim; there are no loops"},
        {"value_set<bit<8>>(4) vs;",
         "u.p4:1:1: error: a value_set must be declared inside a parser"},
        {"table t { }", "u.p4:1:1: error: a table must be declared inside a control"},
        {"control C() { }", "u.p4:1:9: error: control 'C' has no apply block"},
        {"bit<8> x;",
         "u.p4:1:8: error: variables cannot be declared at the top level (use 'const')"},
    };
    for (const Case& c : cases)
    {
        INFO(c.text);
        p4::Diagnostics diags;
        p4::ParseProgramText("u.p4", c.text, diags);
        CHECK(FirstErrorLine(diags) == c.error);
    }
}

TEST_CASE("the parser recovers and reports several errors, up to the limit", "[p4][frontend]")
{
    const std::string path = kP4TestDir + "/bad/parser/several-errors.p4";
    p4::Diagnostics all;
    auto program = p4::ParseProgram(path, all);
    REQUIRE(program);
    CHECK(all.ErrorCount() == 3);
    // What parsed is kept: the header with one good field.
    const auto* header = FindDecl<ast::HeaderDecl>(*program, "a_t");
    REQUIRE(header);
    CHECK(header->fields.size() == 1);

    p4::Diagnostics limited;
    limited.SetErrorLimit(1);
    p4::ParseProgram(path, limited);
    CHECK(limited.ErrorCount() == 1);
    CHECK(limited.Render().find("note: stopped after 1 errors") != std::string::npos);

    // A missing ';' at the end of a line is assumed, so the next line still parses.
    p4::Diagnostics semicolon;
    auto recovered = p4::ParseProgramText("s.p4", "header h { bit<8> a\n bit<8> b; }\n", semicolon);
    CHECK(semicolon.ErrorCount() == 1);
    CHECK(FindDecl<ast::HeaderDecl>(*recovered, "h")->fields.size() == 2);
}

namespace
{

std::string
Repeat(const std::string& text, size_t times)
{
    std::string out;
    for (size_t i = 0; i < times; ++i)
    {
        out += text;
    }
    return out;
}

/// One way of nesting P4 constructs: the declarations and ingress body of a program that
/// nests `depth` levels deep.
struct NestingCase
{
    const char* name;
    std::function<std::pair<std::string, std::string>(size_t depth)> make;
};

const std::vector<NestingCase>&
NestingCases()
{
    static const std::vector<NestingCase> cases = {
        {"parentheses",
         [](size_t n) {
             return std::pair{"", "meta.x = " + Repeat("(", n) + "1" + Repeat(")", n) + ";"};
         }},
        {"unary operators",
         [](size_t n) { return std::pair{"", "meta.x = " + Repeat("~", n) + "meta.x;"}; }},
        {"casts",
         [](size_t n) { return std::pair{"", "meta.x = " + Repeat("(bit<8>)", n) + "meta.x;"}; }},
        {"a left-associative chain",
         [](size_t n) { return std::pair{"", "meta.x = meta.x" + Repeat(" + meta.x", n) + ";"}; }},
        {"conditional expressions",
         [](size_t n) {
             return std::pair{"", "meta.x = " + Repeat("meta.x == 1 ? 8w1 : ", n) + "8w2;"};
         }},
        {"slices of slices",
         [](size_t n) { return std::pair{"", "meta.x = meta.x" + Repeat("[7:0]", n) + ";"}; }},
        {"blocks",
         [](size_t n) { return std::pair{"", Repeat("{", n) + "meta.x = 1;" + Repeat("}", n)}; }},
        {"if statements",
         [](size_t n) { return std::pair{"", Repeat("if (meta.x == 1) ", n) + "meta.x = 2;"}; }},
        {"an else-if chain",
         [](size_t n) {
             return std::pair{"", "if (meta.x == 0) meta.x = 1;" +
                                      Repeat(" else if (meta.x == 1) meta.x = 2;", n)};
         }},
        {"tuple types",
         [](size_t n) {
             return std::pair{"typedef " + Repeat("tuple<", n) + "bit<8>" + Repeat(">", n) +
                                  " t_t;",
                              ""};
         }},
        {"a width expression",
         [](size_t n) {
             return std::pair{"typedef bit<" + Repeat("(", n) + "8" + Repeat(")", n) + "> w_t;",
                              ""};
         }},
    };
    return cases;
}

} // namespace

TEST_CASE("nesting within the limit compiles, and deeper is a located error, not a stack "
          "overflow",
          "[p4][frontend]")
{
    for (const NestingCase& c : NestingCases())
    {
        INFO(c.name);
        {
            const auto [decls, body] = c.make(200);
            p4::Diagnostics diags;
            CompileText("deep.p4", IngressProgram(decls, body), diags);
            INFO(diags.Render());
            CHECK(diags.ErrorCount() == 0);
        }
        const auto [decls, body] = c.make(20000);
        p4::Diagnostics diags;
        auto program = p4::ParseProgramText("deeper.p4", IngressProgram(decls, body), diags);
        REQUIRE(program);
        CHECK(diags.ErrorCount() == 1);
        const std::string error = FirstErrorLine(diags);
        CHECK(error.rfind("deeper.p4:", 0) == 0);
        CHECK(error.find(": error: nesting too deep: more than 256 statements, expressions or "
                         "types inside each other") != std::string::npos);
    }
}

TEST_CASE("bad lexer programs fail with their expected error", "[p4][frontend]")
{
    CHECK(CheckNegativePrograms(kP4TestDir + "/bad/lexer") >= 6);
}

TEST_CASE("bad parser programs fail with their expected error", "[p4][frontend]")
{
    CHECK(CheckNegativePrograms(kP4TestDir + "/bad/parser") >= 6);
}

TEST_CASE("AST nodes answer kind queries for leaves and bases", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto expression = ParseExpr("hdr.ipv4.ttl + 1", diags);
    REQUIRE(expression);
    CHECK(expression->Is<ast::Expression>());
    CHECK(expression->Is<ast::BinaryExpr>());
    CHECK_FALSE(expression->Is<ast::Statement>());
    CHECK(expression->As<ast::CallExpr>() == nullptr);
    const auto* member = expression->As<ast::BinaryExpr>()->left->As<ast::MemberExpr>();
    REQUIRE(member);
    CHECK(member->member == "ttl");
    CHECK(member->location.column == 10); // the member's name
    CHECK(member->resolved == nullptr);
    CHECK(member->type == nullptr);
    CHECK(std::string(ast::NodeKindName(member->kind)) == "MemberExpr");
}

TEST_CASE("ForEachChild walks the whole tree, and every node has a location", "[p4][frontend]")
{
    p4::Diagnostics diags;
    auto program = p4::ParseProgram(kP4TestDir + "/constructs/basic.p4", diags);
    REQUIRE(program);
    size_t nodes = 0;
    std::vector<std::string> unlocated;
    std::set<std::string> names;
    std::function<void(const ast::Node&)> walk = [&](const ast::Node& node) {
        ++nodes;
        if (!node.location.IsValid() || node.location.column == 0)
        {
            unlocated.push_back(ast::NodeKindName(node.kind));
        }
        if (const auto* name = node.As<ast::NameExpr>())
        {
            names.insert(name->name);
        }
        ast::ForEachChild(node, walk);
    };
    for (const auto& declaration : program->declarations)
    {
        walk(*declaration);
    }
    CHECK(nodes > 1000);
    CHECK(unlocated.empty());
    for (const char* expected : {"ipv4_lpm", "standard_metadata", "flow_packets", "NoAction",
                                 "forward", "Verdict", "parse_ipv4", "accept", "error",
                                 "HashAlgorithm", "MyParser", "TYPE_IPV4"})
    {
        INFO(expected);
        CHECK(names.count(expected) == 1);
    }

    // The mutable walk reaches the same nodes, so a checker can fill in its slots.
    size_t mutableNodes = 0;
    std::function<void(ast::Node&)> touch = [&](ast::Node& node) {
        ++mutableNodes;
        ast::ForEachChild(node, touch);
    };
    for (auto& declaration : program->declarations)
    {
        touch(*declaration);
    }
    CHECK(mutableNodes == nodes);
}

TEST_CASE("every program in tests/p4/constructs parses cleanly and round-trips", "[p4][frontend]")
{
    const std::string dir = kP4TestDir + "/constructs";
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        if (entry.is_regular_file() && entry.path().extension() == ".p4")
        {
            files.push_back(entry.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    CHECK(files.size() >= 3);
    for (const std::string& path : files)
    {
        INFO(path);
        p4::Diagnostics diags;
        auto program = p4::ParseProgram(path, diags);
        INFO(diags.Render());
        REQUIRE(program);
        CHECK(diags.All().empty());
        // Quoted includes resolve against the program's directory, so parse the text from there.
        CheckRoundTrip(path, ReadTextFile(path));
    }
}
