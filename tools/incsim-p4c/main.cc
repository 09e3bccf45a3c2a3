// incsim-p4c: the build-time P4 compiler. CMake runs it on every program (see
// cmake/P4Programs.cmake); `incsim p4 compile` is the same compiler for people.
//
//   incsim-p4c PROGRAM.p4 --name NAME --out-dir DIR [--depfile FILE] [--source-name PATH]
//              [--source-root DIR] [--library] [--dump-ir FILE]
//
// Writes DIR/NAME.h, DIR/NAME.cc and DIR/NAME-contract.h (only when their contents change, so
// an edit that does not change the generated code rebuilds nothing) and a Make-style depfile
// listing the includes. With --library, the file is a library of declarations with no `main`
// (p4/lib/headers.p4), and only DIR/NAME-contract.h is written. --dump-ir also writes the
// program's mid-end IR as text (p4/compiler/ir.h) to FILE.

#include "p4/compiler/compile.h"
#include "p4/compiler/diagnostics.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>
#include <vector>

namespace
{

bool
WriteIfChanged(const std::string& path, const std::string& text)
{
    std::ifstream existing(path, std::ios::binary);
    if (existing)
    {
        std::ostringstream current;
        current << existing.rdbuf();
        if (current.str() == text)
        {
            return true;
        }
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    return static_cast<bool>(out);
}

std::string
EscapeMake(const std::string& path)
{
    std::string out;
    for (char c : path)
    {
        if (c == ' ' || c == '#')
        {
            out += '\\';
        }
        out += c;
    }
    return out;
}

} // namespace

int
main(int argc, char** argv)
{
    CLI::App app{"incsim's P4_16 compiler: v1model program -> C++ (build-time tool)"};
    std::string program;
    std::string name;
    std::string outDir;
    std::string depfile;
    std::string sourceName;
    std::string sourceRoot;
    app.add_option("program", program, "P4 source file")->required();
    app.add_option("--name", name, "Program name (a C++ identifier)")->required();
    app.add_option("--out-dir", outDir, "Directory for NAME.h and NAME.cc")->required();
    app.add_option("--depfile", depfile, "Write a Make-style depfile here");
    app.add_option("--source-name", sourceName, "Source path recorded in the program's info");
    app.add_option("--source-root", sourceRoot,
                   "Record the program's source files relative to this directory");
    bool library = false;
    app.add_flag("--library", library,
                 "A library of declarations without main: write only NAME-contract.h");
    std::string dumpIr;
    app.add_option("--dump-ir", dumpIr, "Also write the program's mid-end IR as text here");
    CLI11_PARSE(app, argc, argv);

    incsim::p4::Diagnostics diags;
    const incsim::p4::CppBackendOptions options{name, sourceName, {}, sourceRoot};
    incsim::p4::CompileResult result = library
                                           ? incsim::p4::CompileLibrary(program, diags, options)
                                           : incsim::p4::CompileProgram(program, diags, options);
    std::cerr << diags.Render();
    if (library ? !result.libraryContract : !result.code)
    {
        return 1;
    }
    if (!dumpIr.empty())
    {
        incsim::p4::Diagnostics irDiags;
        const auto ir = incsim::p4::DumpProgramIr(program, irDiags);
        std::cerr << irDiags.Render();
        if (!ir || !WriteIfChanged(dumpIr, *ir))
        {
            std::cerr << "incsim-p4c: cannot write " << dumpIr << "\n";
            return 1;
        }
    }
    std::vector<std::pair<std::string, const std::string*>> outputs;
    if (!library)
    {
        outputs.emplace_back(outDir + "/" + name + ".h", &result.code->header);
        outputs.emplace_back(outDir + "/" + name + ".cc", &result.code->source);
    }
    outputs.emplace_back(outDir + "/" + name + "-contract.h",
                         library ? &*result.libraryContract : &result.code->contract);
    std::string targets;
    for (const auto& [path, text] : outputs)
    {
        if (!WriteIfChanged(path, *text))
        {
            std::cerr << "incsim-p4c: cannot write " << path << "\n";
            return 1;
        }
        targets += (targets.empty() ? "" : " ") + EscapeMake(path);
    }
    if (!depfile.empty())
    {
        std::string deps = targets + ":";
        for (const std::string& file : result.dependencies)
        {
            if (!file.empty() && file[0] != '<')
            {
                deps += " \\\n  " + EscapeMake(file);
            }
        }
        WriteIfChanged(depfile, deps + "\n");
    }
    return 0;
}
