// The C++ back end: constructs outside the subset are located errors, and generation is
// deterministic. (Its behaviour is tested by the STF scripts under tests/p4, which run the
// generated programs.)

#include "p4/compiler/compile.h"
#include "p4/compiler/diagnostics.h"
#include "tests/unit/p4-test-support.h"

#include <catch2/catch.hpp>

using namespace incsim;
using namespace incsim::p4test;

TEST_CASE("constructs outside the subset are errors that name them, at their location",
          "[p4][backend]")
{
    const size_t count = ForEachNegativeProgram(
        P4TestDir() + "/bad/backend", [](const std::string& path, const std::string& expected) {
            p4::Diagnostics diags;
            const p4::CompileResult result = p4::CompileProgram(path, diags);
            INFO(diags.Render());
            CHECK_FALSE(result.code);
            CHECK(FirstErrorLine(diags) == expected);
        });
    CHECK(count >= 8);
}

TEST_CASE("generating a program twice gives identical code", "[p4][backend]")
{
    const std::string path = P4TestDir() + "/../../p4/forward.p4";
    p4::Diagnostics first;
    p4::Diagnostics second;
    const p4::CompileResult a = p4::CompileProgram(path, first, {"forward", "p4/forward.p4"});
    const p4::CompileResult b = p4::CompileProgram(path, second, {"forward", "p4/forward.p4"});
    INFO(first.Render());
    REQUIRE(a.code);
    REQUIRE(b.code);
    CHECK(a.code->source == b.code->source);
    CHECK(a.code->header == b.code->header);
    // The depfile lists the program and the architecture it includes.
    bool sawV1model = false;
    for (const std::string& dependency : a.dependencies)
    {
        sawV1model = sawV1model || dependency.find("v1model.p4") != std::string::npos;
    }
    CHECK(sawV1model);
}

TEST_CASE("program names are C++ identifiers made from the file name", "[p4][backend]")
{
    CHECK(p4::ProgramNameForPath("p4/forward.p4") == "forward");
    CHECK(p4::ProgramNameForPath("tests/p4/programs/clone-resubmit.p4") == "clone_resubmit");
    CHECK(p4::ProgramNameForPath("/x/2pc.p4") == "_2pc");
    CHECK(p4::ProgramNameForPath("a.b.p4") == "a_b");
}
