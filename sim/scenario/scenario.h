#ifndef INCSIM_SCENARIO_SCENARIO_H
#define INCSIM_SCENARIO_SCENARIO_H

#include "sim/core/diagnostics.h"
#include "sim/core/json-reader.h"
#include "sim/schema/schema.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace incsim
{

/// A validated scenario. `resolved` is the whole document after --set overrides and defaults;
/// the views below point into it (so a Scenario is not copyable, only movable).
class Scenario
{
  public:
    Scenario(const Scenario&) = delete;
    Scenario& operator=(const Scenario&) = delete;
    Scenario(Scenario&&) = default;
    Scenario& operator=(Scenario&&) = default;

    /// Label used in error messages: the file name as given.
    const std::string& File() const { return m_file; }
    /// Directory relative to which paths in the scenario (topology files, entries) resolve.
    const std::string& BaseDir() const { return m_baseDir; }
    /// A path from the scenario: absolute as is, relative from BaseDir().
    std::string ResolvePath(const std::string& path) const;
    const nlohmann::json& Resolved() const { return *m_resolved; }

    uint64_t Seed() const;
    int64_t DurationNs() const;
    /// A view of a top-level section: "topology", "links", "switch", "hosts", "routing",
    /// "clocks", "protocol", "workload", "faults", "outputs", "simulator".
    ParamView Section(const std::string& name) const;

    /// What the run simulates, as a hash (16 hex digits) of the canonical form of the resolved
    /// document (Spec::Canonical: units normalised, input files by their contents). Runs with
    /// the same identity are the same run. Throws InputError if an input file cannot be read.
    std::string Identity() const;

    /// Call in a handler of `error`: throws it again, blamed on --set (file "--set") when the
    /// value at its path came from an override rather than from the file, else unchanged (the
    /// exception itself, not a copy, so a located syntax error keeps its line and column).
    [[noreturn]] void RethrowBlamingOverrides(const InputError& error) const;

    /// Spec of the whole document, built from the registered generators and protocols.
    static Spec DocumentSpec();

    friend Scenario ParseScenario(const nlohmann::json& document,
                                  const std::string& file,
                                  const std::string& baseDir,
                                  const std::vector<std::string>& overrides);

  private:
    Scenario() = default;
    std::string m_file;
    std::string m_baseDir;
    std::unique_ptr<nlohmann::json> m_resolved;
    std::vector<std::string> m_overridden;  ///< JSON pointers set by --set
};

/// /simulator/scheduler: the ns-3 scheduler's TypeId name by scenario name.
const Choices<std::string>& SchedulerChoices();

/// /background/congestion_control: whether the bulk flows run DCTCP (true) or loss-based
/// congestion control only (false).
const Choices<bool>& DctcpChoices();

/// What a /faults entry does.
enum class FaultAction
{
    LinkDown,
    LinkUp,
    NodeCrash,
    NodeRecover,
    LossRate
};
const Choices<FaultAction>& FaultActionChoices();

/// When a run shows its progress line (/outputs/progress, `incsim run --progress`).
enum class ProgressMode
{
    Auto,   ///< on a terminal, redrawn in place once the run has lasted 2 s of wall time
    Always, ///< line by line (a first line at once, then every few seconds), also off a terminal
    Never
};
const Choices<ProgressMode>& ProgressModeChoices();

/// A switch and NIC queue priority that traffic asks for: an integer in [0, 7] below
/// /switch/priorities, the number of queues each port has. Every protocol param naming a
/// priority uses it, so that no traffic is silently folded into another queue.
Spec PrioritySpec();

/// Applies `overrides` ("links.delay=2us", "/protocol/params/k=8"; the value is parsed as JSON
/// when it is valid JSON, else taken as a string), then validates. Throws InputError.
Scenario ParseScenario(const nlohmann::json& document,
                       const std::string& file,
                       const std::string& baseDir,
                       const std::vector<std::string>& overrides);

/// Reads and parses a scenario file; a JSON syntax error is reported with line and column.
Scenario LoadScenario(const std::string& path, const std::vector<std::string>& overrides = {});

/// The scenario a run directory was made from (its scenario.resolved.json), validated and
/// typed like any scenario, for what reads a finished run (protocol checkers): they take the
/// values, with every default, from its sections rather than from raw JSON. Paths in it are
/// the original scenario's and resolve against the run directory, so read values, not files.
/// Throws InputError naming the file and JSON path when it does not validate (a run of
/// another incsim version, an edited file).
Scenario LoadRunScenario(const std::string& runDir);

/// The generated reference of the scenario format (Markdown, without the BEGIN/END GENERATED
/// markers), covering every registered topology generator and protocol. docs/scenario.md
/// embeds it between `<!-- BEGIN GENERATED: schema -->` and `<!-- END GENERATED: schema -->`.
std::string ScenarioReferenceMarkdown();

} // namespace incsim

#endif
