#include "commands.h"

#include "p4/compiler/checker.h"
#include "p4/compiler/compile.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/frontend.h"
#include "p4/runtime/entries-file.h"
#include "p4/runtime/error.h"
#include "p4/runtime/v1model-switch.h"
#include "sim/core/diagnostics.h"
#include "sim/core/output-file.h"
#include "sim/core/json-reader.h"

#include <SwitchPrograms.h>
#include <TestPrograms.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

namespace incsim::cli
{

namespace
{

/// The compiled-in program generated from `path`: matched by source file, then checked to be
/// what compiling `path` now gives (so a stale build is an error, not a wrong test result).
p4rt::GeneratedProgram
CompiledProgram(const std::string& path)
{
    namespace fs = std::filesystem;
    std::vector<p4rt::GeneratedProgram> programs = p4gen::SwitchPrograms();
    for (auto& program : p4gen::TestPrograms())
    {
        programs.push_back(std::move(program));
    }
    std::error_code error;
    const fs::path wanted = fs::weakly_canonical(path, error);
    for (const auto& program : programs)
    {
        const fs::path source =
            fs::weakly_canonical(fs::path(INCSIM_SOURCE_DIR) / program.info.source, error);
        if (source != wanted)
        {
            continue;
        }
        p4::Diagnostics diags;
        const p4::CompileResult now =
            p4::CompileProgram(path, diags, {program.info.name, program.info.source});
        if (!now.code)
        {
            std::cerr << diags.Render();
            throw LocatedInputError(fmt::format("{}: {} error(s)", path, diags.ErrorCount()));
        }
        if (now.code->codeHash != program.info.codeHash)
        {
            throw StaleBuildError(fmt::format("{} has changed since incsim was built; rebuild it "
                                        "(cmake --build build) to test the new version",
                                        path));
        }
        return program;
    }
    std::string known;
    for (const auto& program : programs)
    {
        known += "\n  " + program.info.source;
    }
    throw LocatedInputError(fmt::format("{} is not compiled into incsim. Programs are compiled at build "
                                "time from p4/*.p4 and tests/p4/programs/*.p4; these are:{}",
                                path, known));
}

/// "N table entries, ..." for what an entries file holds, the items it lists.
std::string
EntriesSummary(const nlohmann::json& doc)
{
    size_t entries = 0;
    size_t defaults = 0;
    for (const auto& item : doc.value("tables", nlohmann::json::array()))
    {
        ++(item.value("default_action", false) ? defaults : entries);
    }
    size_t cells = 0;
    for (const auto& item : doc.value("registers", nlohmann::json::array()))
    {
        cells += item.contains("values") ? item["values"].size() : 1;
    }
    return fmt::format("{} table entries, {} default actions, {} multicast groups, "
                       "{} clone sessions, {} register cells",
                       entries, defaults,
                       doc.value("multicast_groups", nlohmann::json::array()).size(),
                       doc.value("clone_sessions", nlohmann::json::array()).size(), cells);
}

} // namespace

void
AddP4Command(CLI::App& app)
{
    CLI::App* p4 = app.add_subcommand("p4", "incsim's P4_16 compiler");
    p4->require_subcommand(1);

    struct ParseArgs
    {
        std::string program;
        bool dumpAst = false;
        bool dumpTokens = false;
    };
    auto args = std::make_shared<ParseArgs>();
    CLI::App* parse = p4->add_subcommand(
        "parse", "Preprocess and parse a P4_16 program; report syntax errors as file:line:col");
    parse->add_option("program", args->program, "P4 source file")->required();
    parse->add_flag("--dump-ast", args->dumpAst, "Print the parsed program back as P4 text");
    parse->add_flag("--dump-tokens", args->dumpTokens, "Print the token stream");
    parse->callback([args] {
        p4::Diagnostics diags;
        if (args->dumpTokens)
        {
            auto tokens = p4::LexProgram(args->program, diags);
            if (tokens)
            {
                std::cout << p4::DumpTokens(*tokens);
            }
        }
        else
        {
            auto program = p4::ParseProgram(args->program, diags);
            if (program && args->dumpAst && !diags.HasErrors())
            {
                program->Dump(std::cout);
            }
        }
        std::cerr << diags.Render();
        if (diags.HasErrors())
        {
            throw LocatedInputError(
                fmt::format("{}: {} error(s)", args->program, diags.ErrorCount()));
        }
    });

    auto checked = std::make_shared<std::string>();
    CLI::App* check = p4->add_subcommand(
        "check", "Parse and type-check a P4_16 program (names, types, widths, arity, the subset)");
    check->add_option("program", *checked, "P4 source file")->required();
    check->callback([checked] {
        p4::Diagnostics diags;
        auto program = p4::ParseProgram(*checked, diags);
        if (program && !diags.HasErrors() && p4::CheckProgram(*program, diags))
        {
            p4::CheckHasMain(*program, *checked, diags);
        }
        std::cerr << diags.Render();
        if (diags.HasErrors())
        {
            throw LocatedInputError(fmt::format("{}: {} error(s)", *checked, diags.ErrorCount()));
        }
        fmt::print("{}: ok\n", *checked);
    });

    struct CompileArgs
    {
        std::string program;
        std::string outDir;
        bool contract = false;
        bool dumpIr = false;
    };
    auto compileArgs = std::make_shared<CompileArgs>();
    CLI::App* compile = p4->add_subcommand(
        "compile", "Compile a P4_16 program to C++ (what the build generates), for inspection");
    compile->add_option("program", compileArgs->program, "P4 source file")->required();
    compile->add_option("-o,--out-dir", compileArgs->outDir,
                        "Write NAME.h, NAME.cc and NAME-contract.h here instead of printing "
                        "the source");
    compile->add_flag("--contract", compileArgs->contract,
                      "Print the contract header (constants, header layouts, control-plane "
                      "names) instead of the source");
    compile->add_flag("--dump-ir", compileArgs->dumpIr,
                      "Print the mid-end's IR (p4/compiler/ir.h) instead of the source");
    compile->callback([compileArgs] {
        p4::Diagnostics diags;
        if (compileArgs->dumpIr)
        {
            const auto ir = p4::DumpProgramIr(compileArgs->program, diags);
            std::cerr << diags.Render();
            if (!ir)
            {
                throw LocatedInputError(fmt::format("{}: {} error(s)", compileArgs->program,
                                                    diags.ErrorCount()));
            }
            std::cout << *ir;
            return;
        }
        const p4::CompileResult result = p4::CompileProgram(compileArgs->program, diags);
        std::cerr << diags.Render();
        if (!result.code)
        {
            throw LocatedInputError(fmt::format("{}: {} error(s)", compileArgs->program,
                                                diags.ErrorCount()));
        }
        if (compileArgs->outDir.empty())
        {
            std::cout << (compileArgs->contract ? result.code->contract : result.code->source);
            return;
        }
        const std::string name = p4::ProgramNameForPath(compileArgs->program);
        std::error_code error;
        std::filesystem::create_directories(compileArgs->outDir, error);
        if (error)
        {
            throw OutputError(compileArgs->outDir, error.message());
        }
        WriteTextFile(compileArgs->outDir + "/" + name + ".h", result.code->header);
        WriteTextFile(compileArgs->outDir + "/" + name + ".cc", result.code->source);
        WriteTextFile(compileArgs->outDir + "/" + name + "-contract.h", result.code->contract);
        fmt::print("wrote {0}/{1}.h, {0}/{1}.cc and {0}/{1}-contract.h\n", compileArgs->outDir,
                   name);
    });

    struct EntriesArgs
    {
        std::string program;
        std::string file;
    };
    auto entriesArgs = std::make_shared<EntriesArgs>();
    CLI::App* entries = p4->add_subcommand(
        "entries", "Load a table-entries file (docs/entries.md) into a compiled-in P4 program, as "
                   "a scenario's /switch/entries does, and say what it holds");
    entries->add_option("program", entriesArgs->program, "P4 source file")->required();
    entries->add_option("entries", entriesArgs->file, "Entries JSON file")->required();
    entries->callback([entriesArgs] {
        const p4rt::GeneratedProgram program = CompiledProgram(entriesArgs->program);
        const nlohmann::json doc = ReadJsonFile(entriesArgs->file);
        const auto instance = program.create();
        try
        {
            p4rt::LoadEntriesJson(instance->Control(), doc, entriesArgs->file);
        }
        catch (const p4rt::Error& error)
        {
            throw LocatedInputError(error.what());
        }
        fmt::print("{}: ok ({})\n", entriesArgs->file, EntriesSummary(doc));
    });

    struct TestArgs
    {
        std::string program;
        std::vector<std::string> scripts;
    };
    auto testArgs = std::make_shared<TestArgs>();
    CLI::App* test = p4->add_subcommand(
        "test", "Run STF scripts against a compiled-in P4 program (a v1model switch, no ns-3)");
    test->add_option("program", testArgs->program, "P4 source file")->required();
    test->add_option("scripts", testArgs->scripts, "STF files")->required();
    test->callback([testArgs] {
        const p4rt::GeneratedProgram program = CompiledProgram(testArgs->program);
        size_t failed = 0;
        for (const std::string& path : testArgs->scripts)
        {
            p4rt::StfScript script;
            try
            {
                script = p4rt::ParseStfFile(path);
            }
            catch (const p4rt::Error& error)
            {
                throw LocatedInputError(error.what());
            }
            p4rt::V1SwitchTarget target(program.create());
            const p4rt::StfResult result = p4rt::RunStf(script, target);
            if (result.Passed())
            {
                fmt::print("{}: passed\n", path);
            }
            else
            {
                ++failed;
                std::cerr << result.Report(path);
                fmt::print("{}: FAILED ({} failure(s))\n", path, result.failures.size());
            }
        }
        if (failed > 0)
        {
            throw VerdictFailure(fmt::format("{} of {} STF script(s) failed", failed,
                                        testArgs->scripts.size()));
        }
    });
}

} // namespace incsim::cli
