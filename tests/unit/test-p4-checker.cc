// The P4 semantic checker: name resolution, expression types and type errors.
//
// Valid programs (tests/p4/constructs/) must check with no diagnostics. Negative programs live
// in tests/p4/bad/checker/, one error each, with the expected first error on their first line:
// `// expect: name.p4:LINE:COL: error: message`.

#include "p4-test-support.h"

#include "p4/compiler/ast.h"
#include "p4/compiler/checker.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/frontend.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace p4 = incsim::p4;
using namespace incsim::p4test;
namespace ast = incsim::p4::ast;

namespace
{

const std::string& kP4TestDir = P4TestDir();

// Parses and checks; the parse itself must succeed.
std::unique_ptr<ast::Program>
ParseAndCheck(const std::string& name, const std::string& text, p4::Diagnostics& diags)
{
    auto program = p4::ParseProgramText(name, text, diags);
    REQUIRE(program);
    INFO(diags.Render());
    REQUIRE(diags.ErrorCount() == 0);
    p4::CheckProgram(*program, diags);
    return program;
}

// Runs every program directly in `dir` and compares its first error with its expectation.
size_t
CheckNegativePrograms(const std::string& dir)
{
    return ForEachNegativeProgram(dir, [](const std::string& path, const std::string& expected) {
        p4::Diagnostics diags;
        auto program = p4::ParseProgram(path, diags);
        INFO(diags.Render());
        REQUIRE(program);
        REQUIRE(diags.ErrorCount() == 0); // the error must come from the checker
        CHECK_FALSE(p4::CheckProgram(*program, diags));
        CHECK(FirstErrorLine(diags) == expected);
    });
}

// Calls `visit` on every node under `node`.
void
Walk(const ast::Node& node, const std::function<void(const ast::Node&)>& visit)
{
    if (node.Is<ast::Annotation>())
    {
        return; // annotation bodies are not checked
    }
    visit(node);
    ast::ForEachChild(node, [&](const ast::Node& child) { Walk(child, visit); });
}

// The first expression under the program's non-system declarations that prints as `text`.
const ast::Expression*
FindExpr(const ast::Program& program, const std::string& text)
{
    const ast::Expression* result = nullptr;
    for (const auto& declaration : program.declarations)
    {
        if (declaration->IsSystem())
        {
            continue;
        }
        Walk(*declaration, [&](const ast::Node& node) {
            const auto* expression = node.As<ast::Expression>();
            if (!result && expression && ast::ToString(*expression) == text)
            {
                result = expression;
            }
        });
    }
    return result;
}

std::string
TypeOf(const ast::Program& program, const std::string& text)
{
    const ast::Expression* expression = FindExpr(program, text);
    if (!expression)
    {
        return "<not found: " + text + ">";
    }
    return expression->type ? ast::ToString(*expression->type) : "<null>";
}

const char* kTypesProgram = R"(#include <core.p4>
#include <v1model.p4>
typedef bit<32> addr_t;
const bit<8> LIMIT = 8;
header h_t {
    bit<8> a;
    addr_t b;
    bit<(LIMIT * 2)> c;
}
header tag_t {
    bit<4> v;
}
struct hs_t {
    h_t h;
    tag_t[3] tags;
}
enum Color { Red, Green }
control C(inout hs_t hdr, inout standard_metadata_t sm) {
    action set_b(addr_t value) {
        hdr.h.b = value;
    }
    table t {
        key = { hdr.h.b: exact; }
        actions = { set_b; NoAction; }
    }
    apply {
        Color color = Color.Green;
        bit<16> sum = hdr.h.c + 1;
        bit<24> wide = hdr.h.a ++ hdr.h.c;
        bit<4> low = hdr.h.b[3:0];
        bool same = color == Color.Red;
        bit<4> first = hdr.tags[1].v;
        bit<32> lastIndex = hdr.tags.lastIndex;
        bit<8> picked = same ? hdr.h.a : 8w3;
        bit<8> answer = 42;
        int<8> minus = -77;
        if (t.apply().hit && hdr.h.isValid()) {
            set_b((addr_t)(bit<32>)hdr.h.a);
        }
    }
}
)";

} // namespace

TEST_CASE("checker accepts the front end's valid programs", "[p4][checker]")
{
    for (const char* name :
         {"basic.p4", "tables-and-externs.p4", "with-include.p4", "with-include-defs.p4",
          "functions.p4", "new-types-and-abstract-methods.p4", "header-unions.p4",
          "generics-and-annotations.p4"})
    {
        INFO(name);
        p4::Diagnostics diags;
        auto program = p4::ParseProgram(kP4TestDir + "/constructs/" + name, diags);
        REQUIRE(program);
        INFO(diags.Render());
        REQUIRE(diags.ErrorCount() == 0);
        CHECK(p4::CheckProgram(*program, diags));
        CHECK(diags.All().empty());
    }
}

TEST_CASE("checker resolves every name and types every operation in the valid programs",
          "[p4][checker]")
{
    for (const char* name : {"basic.p4", "tables-and-externs.p4"})
    {
        INFO(name);
        p4::Diagnostics diags;
        auto program = p4::ParseProgram(kP4TestDir + "/constructs/" + name, diags);
        REQUIRE(program);
        REQUIRE(p4::CheckProgram(*program, diags));
        size_t names = 0;
        size_t typed = 0;
        for (const auto& declaration : program->declarations)
        {
            if (declaration->IsSystem())
            {
                continue;
            }
            Walk(*declaration, [&](const ast::Node& node) {
                if (const auto* nameExpr = node.As<ast::NameExpr>())
                {
                    INFO(nameExpr->location.ToString() << " " << nameExpr->name);
                    CHECK(nameExpr->resolved != nullptr);
                    ++names;
                }
                else if (const auto* namedType = node.As<ast::NamedType>())
                {
                    INFO(namedType->location.ToString() << " " << namedType->name);
                    CHECK(namedType->resolved != nullptr);
                }
                else if (const auto* key = node.As<ast::KeyElement>())
                {
                    CHECK(key->resolvedMatchKind != nullptr);
                }
                else if (node.Is<ast::BinaryExpr>() || node.Is<ast::SliceExpr>() ||
                         node.Is<ast::IntegerLiteral>() || node.Is<ast::CastExpr>() ||
                         node.Is<ast::IndexExpr>() || node.Is<ast::UnaryExpr>())
                {
                    INFO(node.location.ToString() << " "
                                                  << ast::ToString(*node.As<ast::Expression>()));
                    CHECK(node.As<ast::Expression>()->type != nullptr);
                    ++typed;
                }
            });
        }
        CHECK(names > 20);
        CHECK(typed > 10);
    }
}

TEST_CASE("checker types expressions", "[p4][checker]")
{
    p4::Diagnostics diags;
    auto program = ParseAndCheck("types.p4", kTypesProgram, diags);
    INFO(diags.Render());
    REQUIRE(diags.All().empty());

    CHECK(TypeOf(*program, "hdr.h.c + 1") == "bit<16>");
    CHECK(TypeOf(*program, "1") == "bit<16>"); // the literal adapted to the other operand
    CHECK(TypeOf(*program, "hdr.h.a ++ hdr.h.c") == "bit<24>");
    CHECK(TypeOf(*program, "hdr.h.b[3:0]") == "bit<4>");
    CHECK(TypeOf(*program, "hdr.h.b") == "bit<32>"); // the typedef is followed
    CHECK(TypeOf(*program, "color == Color.Red") == "bool");
    CHECK(TypeOf(*program, "Color.Green") == "Color");
    CHECK(TypeOf(*program, "hdr.tags[1]") == "tag_t");
    CHECK(TypeOf(*program, "hdr.tags[1].v") == "bit<4>");
    CHECK(TypeOf(*program, "hdr.tags.lastIndex") == "bit<32>");
    CHECK(TypeOf(*program, "same ? hdr.h.a : 8w3") == "bit<8>");
    CHECK(TypeOf(*program, "hdr.h.isValid()") == "bool");
    CHECK(TypeOf(*program, "t.apply().hit") == "bool");
    CHECK(TypeOf(*program, "(bit<32>)hdr.h.a") == "bit<32>");
    CHECK(TypeOf(*program, "hdr") == "hs_t");
    // `int` literals take the width of what they are assigned to.
    CHECK(TypeOf(*program, "42") == "bit<8>");
    CHECK(TypeOf(*program, "-77") == "int<8>");
    CHECK(TypeOf(*program, "77") == "int<8>");
}

TEST_CASE("checker resolves names to their declarations", "[p4][checker]")
{
    p4::Diagnostics diags;
    auto program = ParseAndCheck("types.p4", kTypesProgram, diags);
    REQUIRE(diags.All().empty());

    const auto* value = FindExpr(*program, "value");
    REQUIRE(value);
    const auto* name = value->As<ast::NameExpr>();
    REQUIRE(name);
    REQUIRE(name->resolved);
    CHECK(name->resolved->Is<ast::Parameter>());
    CHECK(name->resolved->name == "value");

    const auto* field = FindExpr(*program, "hdr.h.b")->As<ast::MemberExpr>();
    REQUIRE(field);
    REQUIRE(field->resolved);
    CHECK(field->resolved->Is<ast::StructField>());

    const auto* call = FindExpr(*program, "set_b((addr_t)(bit<32>)hdr.h.a)")->As<ast::CallExpr>();
    REQUIRE(call);
    const auto* callee = call->callee->As<ast::NameExpr>();
    REQUIRE(callee);
    REQUIRE(callee->resolved);
    CHECK(callee->resolved->Is<ast::ActionDecl>());

    // bit<(LIMIT * 2)> was evaluated.
    bool found = false;
    for (const auto& declaration : program->declarations)
    {
        if (const auto* header = declaration->As<ast::HeaderDecl>(); header && header->name == "h_t")
        {
            const auto* bits = header->FindField("c")->type->As<ast::BitsType>();
            REQUIRE(bits);
            CHECK(bits->width == 16);
            found = true;
        }
    }
    CHECK(found);
}

TEST_CASE("checker resolves parser states, accept and reject", "[p4][checker]")
{
    const char* text = R"(#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; }
struct hs_t { h_t h; }
parser P(packet_in packet, out hs_t hdr) {
    state start {
        packet.extract(hdr.h);
        transition select(hdr.h.a) {
            1: next;
            default: accept;
        }
    }
    state next {
        transition reject;
    }
}
)";
    p4::Diagnostics diags;
    auto program = ParseAndCheck("states.p4", text, diags);
    INFO(diags.Render());
    REQUIRE(diags.All().empty());
    std::vector<const ast::NameExpr*> states;
    for (const auto& declaration : program->declarations)
    {
        if (declaration->IsSystem())
        {
            continue;
        }
        Walk(*declaration, [&](const ast::Node& node) {
            if (const auto* selectCase = node.As<ast::SelectCase>())
            {
                states.push_back(selectCase->state.get());
            }
        });
    }
    CHECK(TypeOf(*program, "1") == "bit<8>"); // the key takes the selector's type
    REQUIRE(states.size() == 2);
    REQUIRE(states[0]->resolved);
    CHECK(states[0]->resolved->Is<ast::ParserState>());
    CHECK(states[0]->resolved->name == "next");
    CHECK(states[1]->resolved == &p4::AcceptState());
}

TEST_CASE("checker reports several errors and carries on", "[p4][checker]")
{
    const char* text = R"(#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<16> b; }
struct hs_t { h_t h; }
control C(inout hs_t hdr) {
    apply {
        hdr.h.a = undefined_thing;
        hdr.h.b = hdr.h.b + hdr.h.a;
        hdr.h.c = 1;
    }
}
)";
    p4::Diagnostics diags;
    ParseAndCheck("several.p4", text, diags);
    REQUIRE(diags.ErrorCount() == 3);
    CHECK(diags.All()[0].message == "'undefined_thing' is not declared");
    CHECK(diags.All()[1].message == "operands have different types: bit<16> and bit<8>");
    CHECK(diags.All()[2].message == "header 'h_t' has no field 'c'");
    // Rendered with the source line and a caret.
    std::string rendered = diags.Render(diags.All()[2]);
    CHECK(rendered.find("several.p4:9:15: error:") == 0);
    CHECK(rendered.find("        hdr.h.c = 1;\n") != std::string::npos);
    CHECK(rendered.find("^") != std::string::npos);
}

TEST_CASE("bad checker programs fail with their expected error", "[p4][checker]")
{
    CHECK(CheckNegativePrograms(kP4TestDir + "/bad/checker") >= 5);
}

TEST_CASE("a program without a package 'main' has nothing to run", "[p4][checker]")
{
    for (const std::string& text :
         {std::string(), std::string("// only a comment\n"),
          std::string("#include <core.p4>\n#include <v1model.p4>\nheader h_t { bit<8> a; }\n")})
    {
        INFO(text);
        p4::Diagnostics diags;
        auto program = ParseAndCheck("nomain.p4", text, diags);
        CHECK(diags.ErrorCount() == 0); // a file of declarations is fine to check ...
        CHECK_FALSE(p4::CheckHasMain(*program, "nomain.p4", diags)); // ... but not a program
        REQUIRE(diags.ErrorCount() == 1);
        CHECK(diags.Render(diags.All()[0]).rfind(
                  "nomain.p4:1:1: error: the program instantiates no package 'main' (e.g. "
                  "V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), "
                  "MyComputeChecksum(), MyDeparser()) main;), so it has nothing to run\n",
                  0) == 0);
    }
    p4::Diagnostics diags;
    auto program = p4::ParseProgram(kP4TestDir + "/constructs/basic.p4", diags);
    REQUIRE(program);
    REQUIRE(p4::CheckProgram(*program, diags));
    CHECK(p4::CheckHasMain(*program, kP4TestDir + "/constructs/basic.p4", diags));
}
