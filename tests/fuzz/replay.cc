// incsim_fuzz_replay: feeds files to a fuzz target's entry point in the normal (g++) build, as
// the fuzzer would, and says what became of each.
//
//   incsim_fuzz_replay TARGET [--expect any|accepted|rejected] PATH...
//
// A PATH may be a directory (its files, recursively, in name order). Exit status 1 if any
// input escaped with a finding (an exception that is not one of the project's errors, or an
// error that does not name its place), or was not what --expect asks; a crash is a crash.

#include "tests/fuzz/fuzz-targets.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace
{

std::vector<std::string>
Files(const std::vector<std::string>& paths)
{
    std::vector<std::string> files;
    for (const std::string& path : paths)
    {
        if (!std::filesystem::is_directory(path))
        {
            files.push_back(path);
            continue;
        }
        std::vector<std::string> inDir;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
        {
            if (entry.is_regular_file() && entry.path().filename().string()[0] != '.')
            {
                inDir.push_back(entry.path().string());
            }
        }
        std::sort(inDir.begin(), inDir.end());
        files.insert(files.end(), inDir.begin(), inDir.end());
    }
    return files;
}

std::string
FirstLine(const std::string& text)
{
    return text.substr(0, text.find('\n'));
}

} // namespace

int
main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string expect = "any";
    if (args.size() >= 2 && args[1] == "--expect" && args.size() >= 3)
    {
        expect = args[2];
        args.erase(args.begin() + 1, args.begin() + 3);
    }
    if (args.size() < 2 || (expect != "any" && expect != "accepted" && expect != "rejected"))
    {
        std::fprintf(stderr,
                     "usage: incsim_fuzz_replay TARGET [--expect any|accepted|rejected] PATH...\n");
        return 2;
    }
    incsim::fuzz::Target target = nullptr;
    try
    {
        target = incsim::fuzz::FindTarget(args[0]);
    }
    catch (const std::invalid_argument& error)
    {
        std::fprintf(stderr, "%s\n", error.what());
        return 2;
    }
    const std::vector<std::string> files = Files({args.begin() + 1, args.end()});
    if (files.empty())
    {
        std::fprintf(stderr, "no input files\n");
        return 2;
    }
    size_t bad = 0;
    for (const std::string& file : files)
    {
        std::ifstream in(file, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        try
        {
            const incsim::fuzz::Outcome outcome = target(text.str());
            const bool unexpected = (expect == "accepted" && !outcome.accepted) ||
                                    (expect == "rejected" && outcome.accepted);
            bad += unexpected ? 1 : 0;
            std::printf("%s%s: %s\n", unexpected ? "UNEXPECTED " : "", file.c_str(),
                        outcome.accepted ? "accepted"
                                         : ("rejected: " + FirstLine(outcome.error)).c_str());
            if (unexpected && !outcome.accepted)
            {
                std::printf("%s\n", outcome.error.c_str());
            }
        }
        catch (const std::exception& exception)
        {
            ++bad;
            std::printf("FINDING %s: %s\n", file.c_str(),
                        incsim::fuzz::DescribeException(exception).c_str());
        }
    }
    std::printf("%zu input(s), %zu not as expected (%s)\n", files.size(), bad, expect.c_str());
    return bad == 0 ? 0 : 1;
}
