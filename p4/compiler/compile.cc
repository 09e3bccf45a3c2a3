#include "p4/compiler/compile.h"

#include "p4/compiler/checker.h"
#include "p4/compiler/diagnostics.h"

namespace incsim::p4
{

CompileResult
CompileProgram(const std::string& path, Diagnostics& diags, CppBackendOptions backend,
               const FrontendOptions& options)
{
    CompileResult result;
    auto program = ParseProgram(path, diags, options);
    if (program)
    {
        for (const std::string& file : program->sources->FileNames())
        {
            result.dependencies.push_back(file);
        }
    }
    if (!program || diags.HasErrors() || !CheckProgram(*program, diags) ||
        !CheckHasMain(*program, path, diags))
    {
        return result;
    }
    if (backend.name.empty())
    {
        backend.name = ProgramNameForPath(path);
    }
    if (backend.sourcePath.empty())
    {
        backend.sourcePath = path;
    }
    result.code = GenerateCpp(*program, backend, diags);
    if (diags.HasErrors())
    {
        result.code.reset();
    }
    return result;
}

} // namespace incsim::p4
