#include "p4/compiler/compile.h"

#include "p4/compiler/backend-support.h"
#include "p4/compiler/checker.h"
#include "p4/compiler/contract.h"
#include "p4/compiler/diagnostics.h"
#include "p4/compiler/midend.h"
#include "p4/runtime/source-hash.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace incsim::p4
{

namespace
{
/// The files read (not built-in buffers, whose names start with '<'), with the hash of their
/// bytes, relative to `root` when inside it.
std::vector<std::pair<std::string, uint64_t>>
HashSources(const std::vector<std::string>& files, const std::string& root)
{
    namespace fs = std::filesystem;
    std::vector<std::pair<std::string, uint64_t>> sources;
    std::error_code error;
    const fs::path base = root.empty() ? fs::path() : fs::weakly_canonical(root, error);
    for (const std::string& file : files)
    {
        std::ifstream in(file, std::ios::binary);
        if (file.empty() || file[0] == '<' || !in)
        {
            continue;
        }
        std::ostringstream bytes;
        bytes << in.rdbuf();
        fs::path path = fs::weakly_canonical(file, error);
        if (!base.empty())
        {
            const fs::path relative = path.lexically_relative(base);
            if (!relative.empty() && *relative.begin() != "..")
            {
                path = relative;
            }
        }
        sources.emplace_back(path.generic_string(), p4rt::SourceHash(bytes.str()));
    }
    return sources;
}

/// Parses and checks `path` for the back end: the files it read go into `result`, and `backend`
/// gets its name and source path from `path` where not given. Null when it has errors.
std::unique_ptr<ast::Program>
ParseForBackend(const std::string& path, Diagnostics& diags, const FrontendOptions& options,
                CompileResult& result, CppBackendOptions& backend)
{
    auto program = ParseProgram(path, diags, options);
    if (program)
    {
        for (const std::string& file : program->sources->FileNames())
        {
            result.dependencies.push_back(file);
        }
    }
    if (!program || diags.HasErrors() || !CheckProgram(*program, diags) ||
        !CheckBackendSupport(*program, diags))
    {
        return nullptr;
    }
    if (backend.name.empty())
    {
        backend.name = ProgramNameForPath(path);
    }
    if (!IsUsableCppIdentifier(backend.name))
    {
        diags.Error(SourceLocation::StartOf(program->sources->Get(path)),
                    "the program's name '" + backend.name +
                        "' (its C++ namespace: the file's name, or --name) is a C++ keyword "
                        "or not a usable C++ identifier; rename the file or pass another "
                        "--name");
        return nullptr;
    }
    if (backend.sourcePath.empty())
    {
        backend.sourcePath = path;
    }
    return program;
}
} // namespace

CompileResult
CompileProgram(const std::string& path, Diagnostics& diags, CppBackendOptions backend,
               const FrontendOptions& options)
{
    CompileResult result;
    auto program = ParseForBackend(path, diags, options, result, backend);
    if (!program || !CheckHasMain(*program, path, diags))
    {
        return result;
    }
    backend.sources = HashSources(result.dependencies, backend.sourceRoot);
    result.code = GenerateCpp(*program, backend, diags);
    if (diags.HasErrors())
    {
        result.code.reset();
    }
    return result;
}

std::optional<std::string>
DumpProgramIr(const std::string& path, Diagnostics& diags, const FrontendOptions& options)
{
    CompileResult result;
    CppBackendOptions backend;
    auto program = ParseForBackend(path, diags, options, result, backend);
    if (!program || !CheckHasMain(*program, path, diags))
    {
        return std::nullopt;
    }
    auto lowered = LowerProgram(*program, {diags.Sources().Get(path)}, diags);
    if (!lowered || diags.HasErrors())
    {
        return std::nullopt;
    }
    return ir::DumpIr(*lowered);
}

CompileResult
CompileLibrary(const std::string& path, Diagnostics& diags, CppBackendOptions backend,
               const FrontendOptions& options)
{
    CompileResult result;
    auto program = ParseForBackend(path, diags, options, result, backend);
    if (!program)
    {
        return result;
    }
    result.libraryContract = GenerateLibraryContract(*program, backend, diags);
    if (diags.HasErrors())
    {
        result.libraryContract.reset();
    }
    return result;
}

} // namespace incsim::p4
