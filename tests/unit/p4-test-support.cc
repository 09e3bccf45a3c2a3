#include "p4-test-support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace incsim::p4test
{

const std::string&
P4TestDir()
{
    static const std::string dir = std::string(INCSIM_SOURCE_DIR) + "/tests/p4";
    return dir;
}

std::string
ReadTextFile(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string
FirstErrorLine(const p4::Diagnostics& diags)
{
    for (const p4::Diagnostic& diagnostic : diags.All())
    {
        if (diagnostic.severity == p4::Severity::Error)
        {
            std::string rendered = diags.Render(diagnostic);
            return rendered.substr(0, rendered.find('\n'));
        }
    }
    return "<no error>";
}

size_t
ForEachNegativeProgram(
    const std::string& dir,
    const std::function<void(const std::string& path, const std::string& expected)>& check)
{
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
    {
        if (entry.is_regular_file() && entry.path().extension() == ".p4")
        {
            files.push_back(entry.path().filename().string());
        }
    }
    std::sort(files.begin(), files.end());
    for (const std::string& file : files)
    {
        std::string path = dir + "/" + file;
        std::string text = ReadTextFile(path);
        std::string firstLine = text.substr(0, text.find('\n'));
        const std::string prefix = "// expect: ";
        INFO(path);
        REQUIRE(firstLine.compare(0, prefix.size(), prefix) == 0);
        check(path, dir + "/" + firstLine.substr(prefix.size()));
    }
    return files.size();
}

} // namespace incsim::p4test
