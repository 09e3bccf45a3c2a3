#ifndef INCSIM_RUNNER_PROGRAM_LOADER_H
#define INCSIM_RUNNER_PROGRAM_LOADER_H

#include "sim/topology/routing.h"

#include <ns3/ptr.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace incsim::p4rt
{
struct ProgramInfo;
}

namespace incsim
{

class P4Pipeline;
class Scenario;
class SwitchDevice;
class SwitchPipeline;

/// Makes a switch's pipeline (called once per switch).
using PipelineFactory = std::function<std::unique_ptr<SwitchPipeline>(SwitchDevice&)>;
/// Configures a new pipeline as a protocol's controller would (tables, registers, multicast
/// groups), after routes and /switch/entries.
using PipelineConfigurator = std::function<void(P4Pipeline& pipeline, SwitchDevice& device)>;

/// The loader of switch programs: a factory of P4Pipelines running the compiled-in program
/// `program` (chosen at scenario path `where`, which errors name), with routes installed by an
/// EcmpRouteInstaller (`mode`, salted by `seed`), the scenario's /switch/entries applied (the
/// file is read once, here), then `configure`, and the replication ports of the result
/// checked against the switch.
PipelineFactory LoadProgram(const Scenario& scenario, const std::string& program,
                            const std::string& where, EcmpMode mode, uint64_t seed,
                            PipelineConfigurator configure = {});

/// The P4 programs `switches` run, by name (each once).
std::vector<const p4rt::ProgramInfo*>
ProgramsRunBy(const std::vector<ns3::Ptr<SwitchDevice>>& switches);

} // namespace incsim

#endif
