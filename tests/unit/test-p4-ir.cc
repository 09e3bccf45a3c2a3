// The mid-end IR (p4/compiler/ir.h, midend.h): the golden dump of a small program
// (tests/p4/ir/small.ir), that the dump depends on the program only, and the lowering's
// properties read off the IR itself: constants folded, objects numbered and resolved, the
// parser's transitions explicit edges with one keyset per selector.

#include "p4/compiler/checker.h"
#include "p4/compiler/compile.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/frontend.h"
#include "p4/compiler/midend.h"
#include "p4-test-support.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

using namespace incsim;

namespace
{

const std::string&
SmallProgram()
{
    static const std::string path = p4test::P4TestDir() + "/ir/small.p4";
    return path;
}

/// The first line of `text` where it differs from `golden`, for the failure message.
std::string
FirstDifferentLine(const std::string& text, const std::string& golden)
{
    size_t line = 1;
    size_t start = 0;
    for (size_t i = 0; i < std::min(text.size(), golden.size()); ++i)
    {
        if (text[i] != golden[i])
        {
            return "line " + std::to_string(line) + ": " +
                   text.substr(start, text.find('\n', i) - start);
        }
        if (text[i] == '\n')
        {
            ++line;
            start = i + 1;
        }
    }
    return text.size() == golden.size() ? "" : "the lengths differ";
}

struct Lowered
{
    p4::Diagnostics diags;
    std::unique_ptr<p4::ast::Program> program;
    std::unique_ptr<p4::ir::Program> ir;
};

std::unique_ptr<Lowered>
Lower(const std::string& path)
{
    auto lowered = std::make_unique<Lowered>();
    lowered->program = p4::ParseProgram(path, lowered->diags);
    REQUIRE(lowered->program);
    REQUIRE(p4::CheckProgram(*lowered->program, lowered->diags));
    lowered->ir = p4::LowerProgram(*lowered->program, {lowered->diags.Sources().Get(path)},
                                   lowered->diags);
    INFO(lowered->diags.Render());
    REQUIRE(lowered->ir);
    return lowered;
}

} // namespace

TEST_CASE("the IR of a small program is as written", "[p4][ir]")
{
    p4::Diagnostics diags;
    const auto text = p4::DumpProgramIr(SmallProgram(), diags);
    INFO(diags.Render());
    REQUIRE(text);
    const std::string golden = p4test::ReadTextFile(p4test::P4TestDir() + "/ir/small.ir");
    INFO("regenerate with: incsim p4 compile tests/p4/ir/small.p4 --dump-ir");
    INFO(FirstDifferentLine(*text, golden));
    CHECK(*text == golden);
}

TEST_CASE("the IR dump depends on the program only", "[p4][ir]")
{
    // Twice in one process (fresh parses, so different node addresses), and for a program
    // with every kind of object.
    for (const std::string& path :
         {SmallProgram(), std::string(INCSIM_SOURCE_DIR) + "/p4/onepipe.p4"})
    {
        p4::Diagnostics first;
        p4::Diagnostics second;
        const auto a = p4::DumpProgramIr(path, first);
        const auto b = p4::DumpProgramIr(path, second);
        INFO(path << "\n" << first.Render());
        REQUIRE(a);
        REQUIRE(b);
        CHECK(*a == *b);
    }
}

TEST_CASE("the IR folds constants and resolves objects and transitions", "[p4][ir]")
{
    auto lowered = Lower(SmallProgram());
    const p4::ir::Program& ir = *lowered->ir;
    REQUIRE(ir.constDecls.size() == 3);
    CHECK(ir.constants.Folded(ir.constDecls[1]) == 0x0802u);
    CHECK(ir.constants.Folded(ir.constDecls[2]) == 0x09u);

    REQUIRE(ir.tables.size() == 1);
    const p4::ir::Table& route = ir.tables[0];
    CHECK(route.controlPlaneName == "I.route");
    CHECK(route.mayExit);  // through stop()
    REQUIRE(route.actions.size() == 3);
    CHECK(ir.actions[route.actions[1].action].controlPlaneName == "I.copy");
    CHECK(route.actions[1].ref->args.size() == 1);
    CHECK(ir.TableOf(route.decl) == &route);
    REQUIRE(ir.externs.size() == 1);
    CHECK(ir.externs[0].runtime == p4::ExternRuntime::Register);
    CHECK(ir.externs[0].width == 8);
    CHECK(ir.externs[0].size == 4);

    REQUIRE(ir.states.size() == 3);
    const p4::ir::Transition& start = ir.states[0].transition;
    REQUIRE(start.isSelect);
    CHECK(start.selectors.size() == 2);
    REQUIRE(start.cases.size() == 3);
    CHECK(start.cases[0].keysets.size() == 2);  // the tuple, one keyset per selector
    CHECK(start.cases[0].target.kind == p4::ir::Target::Kind::State);
    CHECK(ir.states[start.cases[0].target.state].decl->name == "two");
    CHECK(start.cases[1].target.kind == p4::ir::Target::Kind::Accept);
    CHECK(start.cases[2].isDefault);
    CHECK(start.cases[2].target.kind == p4::ir::Target::Kind::Reject);
    CHECK(ir.states[1].transition.target.kind == p4::ir::Target::Kind::Accept);
    // A state without a transition statement rejects.
    CHECK(ir.states[2].transition.source == nullptr);
    CHECK(ir.states[2].transition.target.kind == p4::ir::Target::Kind::Reject);
}

TEST_CASE("an extern the runtime does not implement is a located lowering error", "[p4][ir]")
{
    p4::Diagnostics diags;
    auto program = p4::ParseProgramText(
        "meter.p4", p4test::IngressProgram("meter(32w4, MeterType.packets) m;", ""), diags);
    REQUIRE(program);
    REQUIRE(p4::CheckProgram(*program, diags));
    CHECK_FALSE(p4::LowerProgram(*program, {diags.Sources().Get("meter.p4")}, diags));
    CHECK_THAT(p4test::FirstErrorLine(diags),
               Catch::Matchers::EndsWith("error: extern 'meter' is outside incsim's P4 subset"));
}
