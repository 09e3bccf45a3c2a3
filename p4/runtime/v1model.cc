#include "p4/runtime/v1model.h"

#include "p4/runtime/error.h"
#include "p4/runtime/source-hash.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace incsim::p4rt
{

uint64_t
V1Program::MetadataField::Read(const void* state) const
{
    const auto* p = static_cast<const uint8_t*>(state) + offset;
    switch (storageBytes)
    {
    case 1:
        return *p;
    case 2: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        std::memcpy(&v, p, 8);
        return v;
    }
    }
}

std::vector<std::string>
ChangedSources(const ProgramInfo& info, const std::string& sourceRoot)
{
    std::vector<std::string> changed;
    for (const ProgramSourceFile& file : info.sources)
    {
        std::ifstream in(sourceRoot + "/" + file.path, std::ios::binary);
        if (!in)
        {
            continue;
        }
        std::ostringstream bytes;
        bytes << in.rdbuf();
        if (SourceHash(bytes.str()) != file.hash)
        {
            changed.push_back(file.path);
        }
    }
    return changed;
}

const GeneratedProgram&
FindGeneratedProgram(const std::vector<GeneratedProgram>& programs, const std::string& name)
{
    for (const GeneratedProgram& program : programs)
    {
        if (program.info.name == name || program.info.source == name)
        {
            return program;
        }
    }
    std::string known;
    for (const GeneratedProgram& program : programs)
    {
        known += (known.empty() ? "" : ", ") + program.info.name;
    }
    throw Error("no P4 program '" + name + "' is compiled into incsim (known: " +
                (known.empty() ? "none" : known) + ")");
}

} // namespace incsim::p4rt
