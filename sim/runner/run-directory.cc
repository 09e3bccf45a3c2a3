#include "sim/runner/run-directory.h"

#include "sim/core/diagnostics.h"

#include <filesystem>
#include <set>

namespace incsim
{

namespace
{
/// A sweep worker's captured output, opened before the run starts.
const std::set<std::string> kCaptured = {"stdout.txt", "stderr.txt"};
} // namespace

void
PrepareRunDirectory(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::error_code error;
    fs::create_directories(dir, error);
    if (error || !fs::is_directory(dir))
    {
        throw OutputError(dir, error ? error.message() : "not a directory");
    }
    std::set<fs::path> earlier;
    bool isRunDirectory = false;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir))
    {
        const std::string name = entry.path().filename().string();
        isRunDirectory |= name == "scenario.resolved.json";
        if (!kCaptured.count(name))
        {
            earlier.insert(entry.path());
        }
    }
    if (earlier.empty())
    {
        return;
    }
    if (!isRunDirectory)
    {
        throw OutputError(dir, "the directory is not empty and holds no earlier run (no "
                               "scenario.resolved.json); choose another run directory");
    }
    for (const fs::path& path : earlier)
    {
        fs::remove_all(path, error);
        if (error)
        {
            throw OutputError(path.string(), "cannot remove the earlier run's file: " +
                                                 error.message());
        }
    }
}

} // namespace incsim
