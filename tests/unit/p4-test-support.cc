#include "p4-test-support.h"

#include "p4/compiler/backend-support.h"
#include "p4/compiler/checker.h"
#include "p4/compiler/frontend.h"

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

std::string
IngressProgram(const std::string& decls, const std::string& body)
{
    return "#include <core.p4>\n#include <v1model.p4>\n"
           "header h_t { bit<8> f; }\n"
           "struct headers_t { h_t h; }\n"
           "struct meta_t { bit<8> x; bit<128> w; }\n" +
           decls +
           "\ncontrol I(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {\n"
           "    apply {\n" +
           body +
           "\n    }\n}\n"
           "parser P(packet_in p, out headers_t hdr, inout meta_t meta,\n"
           "         inout standard_metadata_t sm) {\n"
           "    state start { transition accept; }\n}\n"
           "control V(inout headers_t hdr, inout meta_t meta) { apply {} }\n"
           "control E(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {\n"
           "    apply {}\n}\n"
           "control C(inout headers_t hdr, inout meta_t meta) { apply {} }\n"
           "control D(packet_out p, in headers_t hdr) { apply {} }\n"
           "V1Switch(P(), V(), I(), E(), C(), D()) main;\n";
}

std::optional<p4::CppCode>
CompileText(const std::string& name, const std::string& text, p4::Diagnostics& diags)
{
    auto program = p4::ParseProgramText(name, text, diags);
    if (!program || diags.HasErrors() || !p4::CheckProgram(*program, diags) ||
        !p4::CheckBackendSupport(*program, diags))
    {
        return std::nullopt;
    }
    auto code = p4::GenerateCpp(*program, {p4::ProgramNameForPath(name), name}, diags);
    return diags.HasErrors() ? std::nullopt : code;
}

} // namespace incsim::p4test
