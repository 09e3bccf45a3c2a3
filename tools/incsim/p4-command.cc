#include "commands.h"

#include "p4/compiler/checker.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/frontend.h"

#include <fmt/format.h>

#include <iostream>

namespace incsim::cli
{

namespace
{

/// Compiler failures exit with status 1 after printing every diagnostic, like a compiler.
class P4Failure : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

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
            throw P4Failure(fmt::format("{}: {} error(s)", args->program, diags.ErrorCount()));
        }
    });

    auto checked = std::make_shared<std::string>();
    CLI::App* check = p4->add_subcommand(
        "check", "Parse and type-check a P4_16 program (names, types, widths, arity, the subset)");
    check->add_option("program", *checked, "P4 source file")->required();
    check->callback([checked] {
        p4::Diagnostics diags;
        auto program = p4::ParseProgram(*checked, diags);
        if (program && !diags.HasErrors())
        {
            p4::CheckProgram(*program, diags);
        }
        std::cerr << diags.Render();
        if (diags.HasErrors())
        {
            throw P4Failure(fmt::format("{}: {} error(s)", *checked, diags.ErrorCount()));
        }
        fmt::print("{}: ok\n", *checked);
    });
}

} // namespace incsim::cli
