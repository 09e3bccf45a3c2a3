// The C++ back end: constructs outside the subset are located errors, and generation is
// deterministic. (Its behaviour is tested by the STF scripts under tests/p4, which run the
// generated programs.)

#include "p4/compiler/compile.h"
#include "p4/compiler/diagnostics.h"
#include "tests/unit/p4-test-support.h"

#include <catch2/catch.hpp>

#include <string>

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
    // The name is a C++ namespace: a keyword or a predefined macro takes an underscore.
    CHECK(p4::ProgramNameForPath("tests/inline.p4") == "inline_");
    CHECK(p4::ProgramNameForPath("linux.p4") == "linux_");
}

TEST_CASE("a program name that cannot be a C++ namespace is an error naming it",
          "[p4][backend]")
{
    const std::string path = P4TestDir() + "/../../p4/forward.p4";
    for (const char* name : {"inline", "register", "__x", "a-b"})
    {
        p4::Diagnostics diags;
        const p4::CompileResult result = p4::CompileProgram(path, diags, {name, "p4/forward.p4"});
        INFO(name << ": " << diags.Render());
        CHECK_FALSE(result.code);
        CHECK(diags.Render().find(std::string("the program's name '") + name + "'") !=
              std::string::npos);
    }
}

TEST_CASE("constants built on constants fold once, however long or branching the chain",
          "[p4][backend]")
{
    // Each constant uses the previous one: thousands deep, and twice each (2^60 uses if
    // expanded); the value is folded, (1 + 5000) mod 256 and 2^60 mod 256.
    std::string chain = "const bit<8> c0 = 1;\n";
    for (int i = 1; i <= 5000; ++i)
    {
        chain += "const bit<8> c" + std::to_string(i) + " = c" + std::to_string(i - 1) + " + 1;\n";
    }
    std::string doubling = "const bit<8> d0 = 1;\n";
    for (int i = 1; i <= 60; ++i)
    {
        doubling += "const bit<8> d" + std::to_string(i) + " = d" + std::to_string(i - 1) +
                    " + d" + std::to_string(i - 1) + ";\n";
    }
    p4::Diagnostics diags;
    const auto code = CompileText("chains.p4",
                                  IngressProgram(chain + doubling,
                                                 "meta.x = c5000; hdr.h.f = d60;"),
                                  diags);
    INFO(diags.Render());
    REQUIRE(code);
    CHECK(code->source.find("s.meta.x_ = UINT64_C(0x89);") != std::string::npos);  // 5001
    CHECK(code->source.find("s.hdr.h_.f_ = UINT64_C(0x0);") != std::string::npos);  // 2^60
}

TEST_CASE("a constant that does not fold and would expand without bound is an error",
          "[p4][backend]")
{
    // bit<128> constants are inlined where used; each of these doubles its predecessor.
    std::string doubling = "const bit<128> w0 = 1;\n";
    for (int i = 1; i <= 40; ++i)
    {
        doubling += "const bit<128> w" + std::to_string(i) + " = w" + std::to_string(i - 1) +
                    " | w" + std::to_string(i - 1) + ";\n";
    }
    p4::Diagnostics diags;
    CHECK_FALSE(CompileText("wide.p4", IngressProgram(doubling, "meta.w = w40;"), diags));
    CHECK(diags.ErrorCount() == 1);
    CHECK(FirstErrorLine(diags) ==
          "wide.p4:18:16: error: constant 'w12' is outside incsim's P4 subset: it is not a "
          "compile-time value of up to 64 bits, so each use repeats its expression, which "
          "expands to more than 4096 operations");
}
