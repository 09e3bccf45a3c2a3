// The architecture as data (p4/compiler/architecture.h): a program's `main` binds to the
// description whose package it instantiates, block roles and parameter slots come from that
// description, not from v1model's names or positions. A three-block toy architecture that
// the compiler has never heard of binds, and lowers to the IR, like v1model does.

#include "p4/compiler/architecture.h"
#include "p4/compiler/checker.h"
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

/// A toy architecture: parser, one control, deparser; its own intrinsic metadata.
const char* const kToyProgram = R"(
#include <core.p4>
header h_t { bit<8> f; }
struct hs_t { h_t h; }
struct toy_meta_t { bit<9> port; }
parser ToyParser<H>(packet_in b, out H hdr, inout toy_meta_t meta);
control ToyWork<H>(inout H hdr, inout toy_meta_t meta);
control ToyDeparser<H>(packet_out b, in H hdr);
package Toy<H>(ToyParser<H> p, ToyWork<H> w, ToyDeparser<H> d);

parser P(packet_in b, out hs_t hdr, inout toy_meta_t meta) {
    state start { b.extract(hdr.h); transition accept; }
}
control W(inout hs_t hdr, inout toy_meta_t meta) { apply { meta.port = 1; } }
control D(packet_out b, in hs_t hdr) { apply { b.emit(hdr.h); } }
Toy(d = D(), p = P(), w = W()) main;
)";

p4::Architecture
ToyArchitecture()
{
    p4::Architecture toy;
    toy.name = "toy";
    toy.package = "Toy";
    toy.blocks = {{"in", p4::BlockKind::Parser},
                  {"work", p4::BlockKind::Control},
                  {"out", p4::BlockKind::Deparser}};
    toy.types = {{"packet_in", p4::ArchSlot::Packet},
                 {"packet_out", p4::ArchSlot::Packet},
                 {"H", p4::ArchSlot::Headers},
                 {"toy_meta_t", p4::ArchSlot::Intrinsic}};
    toy.intrinsicType = "toy_meta_t";
    toy.intrinsicFields = {{"port", "egressSpec", false, false, true, true}};
    toy.externs = {{"toy_drop", p4::ExternRuntime::MarkToDrop}};
    return toy;
}

struct Parsed
{
    p4::Diagnostics diags;
    std::unique_ptr<p4::ast::Program> program;
};

std::unique_ptr<Parsed>
ParseAndCheck(const std::string& name, const std::string& text)
{
    auto parsed = std::make_unique<Parsed>();
    parsed->program = p4::ParseProgramText(name, text, parsed->diags);
    REQUIRE(parsed->program);
    REQUIRE(p4::CheckProgram(*parsed->program, parsed->diags));
    REQUIRE_FALSE(parsed->diags.HasErrors());
    return parsed;
}

p4::SourceLocation
Whole(Parsed& parsed, const std::string& name)
{
    return {parsed.diags.Sources().Get(name)};
}

const p4::ast::Declaration*
Param(const p4::ast::Declaration* block, size_t i)
{
    if (const auto* parser = block->As<p4::ast::ParserDecl>())
    {
        return parser->params[i].get();
    }
    return block->As<p4::ast::ControlDecl>()->params[i].get();
}

} // namespace

TEST_CASE("a toy three-block architecture binds from its description alone", "[p4][architecture]")
{
    auto parsed = ParseAndCheck("toy.p4", kToyProgram);
    const p4::Architecture toy = ToyArchitecture();
    auto binding = p4::BindArchitecture(*parsed->program, {&p4::V1ModelArchitecture(), &toy},
                                        Whole(*parsed, "toy.p4"), parsed->diags);
    INFO(parsed->diags.Render());
    REQUIRE(binding);
    CHECK(binding->architecture == &toy);
    // Bound by name in any order, and by the description's roles.
    REQUIRE(binding->blocks.size() == 3);
    CHECK(binding->Block("in")->name == "P");
    CHECK(binding->Block("work")->name == "W");
    CHECK(binding->Block("out")->name == "D");
    CHECK(binding->Block("ingress") == nullptr);
    CHECK(binding->types.at(p4::ArchSlot::Headers)->name == "hs_t");
    CHECK(binding->types.at(p4::ArchSlot::Intrinsic)->name == "toy_meta_t");
    CHECK(binding->types.count(p4::ArchSlot::Metadata) == 0);
    const p4::ast::Declaration* parser = binding->Block("in");
    CHECK(binding->params.at(Param(parser, 0)) == p4::ArchSlot::Packet);
    CHECK(binding->params.at(Param(parser, 1)) == p4::ArchSlot::Headers);
    CHECK(binding->params.at(Param(parser, 2)) == p4::ArchSlot::Intrinsic);
    CHECK(binding->params.at(Param(binding->Block("out"), 0)) == p4::ArchSlot::Packet);
    CHECK(toy.FindExtern("toy_drop")->runtime == p4::ExternRuntime::MarkToDrop);
    CHECK(toy.FindExtern("mark_to_drop") == nullptr);
}

TEST_CASE("a package no description names is a located error naming the targets",
          "[p4][architecture]")
{
    auto parsed = ParseAndCheck("toy.p4", kToyProgram);
    CHECK_FALSE(p4::BindArchitecture(*parsed->program, p4::Architectures(),
                                     Whole(*parsed, "toy.p4"), parsed->diags));
    CHECK(p4test::FirstErrorLine(parsed->diags) ==
          "toy.p4:16:32: error: package 'Toy' is outside incsim's P4 subset: incsim targets "
          "v1model's V1Switch");
}

TEST_CASE("block kinds come from the description: a control where it says parser is an error",
          "[p4][architecture]")
{
    auto parsed = ParseAndCheck("toy.p4", kToyProgram);
    p4::Architecture swapped = ToyArchitecture();
    swapped.blocks = {{"in", p4::BlockKind::Control},
                      {"work", p4::BlockKind::Parser},
                      {"out", p4::BlockKind::Deparser}};
    CHECK_FALSE(p4::BindArchitecture(*parsed->program, {&swapped}, Whole(*parsed, "toy.p4"),
                                     parsed->diags));
    CHECK(p4test::FirstErrorLine(parsed->diags) ==
          "toy.p4:16:32: error: internal: Toy blocks of the wrong kind");
    p4::Architecture fourBlocks = ToyArchitecture();
    fourBlocks.blocks.push_back({"extra", p4::BlockKind::Control});
    p4::Diagnostics diags;
    CHECK_FALSE(
        p4::BindArchitecture(*parsed->program, {&fourBlocks}, Whole(*parsed, "toy.p4"), diags));
    CHECK(p4test::FirstErrorLine(diags) == "toy.p4:16:32: error: Toy takes four blocks");
}

TEST_CASE("v1model's description binds the six V1Switch blocks by role", "[p4][architecture]")
{
    const std::string path = std::string(INCSIM_SOURCE_DIR) + "/p4/forward.p4";
    p4::Diagnostics diags;
    auto program = p4::ParseProgram(path, diags);
    REQUIRE(program);
    REQUIRE(p4::CheckProgram(*program, diags));
    auto binding = p4::BindArchitecture(*program, p4::Architectures(),
                                        {diags.Sources().Get(path)}, diags);
    INFO(diags.Render());
    REQUIRE(binding);
    const p4::Architecture& v1model = p4::V1ModelArchitecture();
    CHECK(binding->architecture == &v1model);
    REQUIRE(binding->blocks.size() == 6);
    CHECK(binding->Block("parser")->Is<p4::ast::ParserDecl>());
    for (const char* role : {"verify_checksum", "ingress", "egress", "compute_checksum",
                             "deparser"})
    {
        CHECK(binding->Block(role)->Is<p4::ast::ControlDecl>());
    }
    CHECK(binding->types.at(p4::ArchSlot::Intrinsic)->name == v1model.intrinsicType);
    CHECK(binding->types.count(p4::ArchSlot::Headers) == 1);
    CHECK(binding->types.count(p4::ArchSlot::Metadata) == 1);
    CHECK(v1model.FindExtern("register")->runtime == p4::ExternRuntime::Register);
    CHECK(v1model.FindExtern("register")->indexTypeArg == 1);
    CHECK(v1model.FindExtern("random")->runtime == p4::ExternRuntime::Unsupported);
}

TEST_CASE("the mid-end lowers a toy-architecture program into the IR from its description",
          "[p4][architecture][ir]")
{
    auto parsed = ParseAndCheck("toy.p4", kToyProgram);
    const p4::Architecture toy = ToyArchitecture();
    auto lowered =
        p4::LowerProgram(*parsed->program, Whole(*parsed, "toy.p4"), parsed->diags, {&toy});
    INFO(parsed->diags.Render());
    REQUIRE(lowered);
    CHECK(lowered->parser->name == "P");
    REQUIRE(lowered->controls.size() == 1);  // the deparser emits and has no objects
    CHECK(lowered->controls[0]->name == "W");
    REQUIRE(lowered->states.size() == 1);
    CHECK(lowered->states[0].transition.target.kind == p4::ir::Target::Kind::Accept);
    const std::string dump = p4::ir::DumpIr(*lowered);
    CHECK_THAT(dump, Catch::Matchers::StartsWith("architecture toy (package Toy)\n"
                                                 "    block in: P\n"
                                                 "    block work: W\n"
                                                 "    block out: D\n"
                                                 "    slot headers: hs_t\n"
                                                 "    slot intrinsic: toy_meta_t\n"));
    CHECK_THAT(dump, Catch::Matchers::Contains("control W\n    meta.port: bit<9> = 0x1: bit<9>\n"));
}
