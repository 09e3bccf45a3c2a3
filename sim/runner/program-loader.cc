#include "sim/runner/program-loader.h"

#include "sim/core/diagnostics.h"
#include "sim/core/json-reader.h"
#include "sim/scenario/scenario.h"
#include "sim/switch/ecmp-route-installer.h"
#include "sim/switch/p4-pipeline.h"
#include "sim/switch/replication-ports.h"
#include "sim/switch/switch-device.h"

#include "p4/runtime/entries-file.h"
#include "p4/runtime/error.h"

#include <SwitchPrograms.h>

#include <fmt/format.h>

#include <map>

namespace incsim
{

PipelineFactory
LoadProgram(const Scenario& scenario, const std::string& programName, const std::string& where,
            EcmpMode mode, uint64_t seed, PipelineConfigurator configure)
{
    ParamView sw = scenario.Section("switch");
    const std::vector<p4rt::GeneratedProgram> programs = p4gen::SwitchPrograms();
    p4rt::GeneratedProgram program;
    try
    {
        program = p4rt::FindGeneratedProgram(programs, programName);
    }
    catch (const p4rt::Error& error)
    {
        throw InputError(scenario.File(), where, error.what());
    }
    // Table entries for every switch, read once.
    std::string entries;
    std::shared_ptr<const nlohmann::json> entriesDoc;
    if (sw.Has("entries"))
    {
        entries = scenario.ResolvePath(sw.String("entries"));
        try
        {
            entriesDoc = std::make_shared<const nlohmann::json>(ReadJsonFile(entries));
        }
        catch (const InputError& error)
        {
            throw InputError(scenario.File(), "/switch/entries", error.what());
        }
    }
    const std::string file = scenario.File();
    return [mode, seed, program, entries, entriesDoc, file, configure](SwitchDevice& device) {
        auto pipeline = std::make_unique<P4Pipeline>(
            device, program.create(),
            std::make_unique<EcmpRouteInstaller>(device.NodeId(), device.NumPorts(), mode, seed));
        if (entriesDoc)
        {
            try
            {
                p4rt::LoadEntriesJson(pipeline->Control(), *entriesDoc, entries);
            }
            catch (const p4rt::Error& error)
            {
                throw InputError(file, "/switch/entries",
                                 fmt::format("switch {}: {}", device.Name(), error.what()));
            }
        }
        if (configure)
        {
            configure(*pipeline, device);
        }
        CheckReplicationPorts(pipeline->Control(), device, entriesDoc.get(), entries, file);
        return pipeline;
    };
}

std::vector<const p4rt::ProgramInfo*>
ProgramsRunBy(const std::vector<ns3::Ptr<SwitchDevice>>& switches)
{
    std::map<std::string, const p4rt::ProgramInfo*> byName;
    for (const ns3::Ptr<SwitchDevice>& device : switches)
    {
        if (const auto* pipeline = dynamic_cast<const P4Pipeline*>(device->GetPipeline()))
        {
            byName.emplace(pipeline->ProgramInfo().name, &pipeline->ProgramInfo());
        }
    }
    std::vector<const p4rt::ProgramInfo*> programs;
    for (const auto& [name, info] : byName)
    {
        programs.push_back(info);
    }
    return programs;
}

} // namespace incsim
