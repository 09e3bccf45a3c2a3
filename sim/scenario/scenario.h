#ifndef INCSIM_SCENARIO_SCENARIO_H
#define INCSIM_SCENARIO_SCENARIO_H

#include "sim/core/diagnostics.h"
#include "sim/scenario/schema.h"

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

    /// `error`, blamed on --set (file "--set") when the value at its path came from an override
    /// rather than from the file; otherwise `error` itself.
    InputError Blame(const InputError& error) const;

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

/// Applies `overrides` ("links.delay=2us", "/protocol/params/k=8"; the value is parsed as JSON
/// when it is valid JSON, else taken as a string), then validates. Throws InputError.
Scenario ParseScenario(const nlohmann::json& document,
                       const std::string& file,
                       const std::string& baseDir,
                       const std::vector<std::string>& overrides);

/// Reads and parses a scenario file; a JSON syntax error is reported with line and column.
Scenario LoadScenario(const std::string& path, const std::vector<std::string>& overrides = {});

/// A JSON syntax error located in the text. what() reads "FILE:LINE:COL: JSON syntax error:
/// message", since a position in the text has no JSON pointer yet.
class JsonSyntaxError : public InputError
{
  public:
    JsonSyntaxError(const std::string& file,
                    size_t line,
                    size_t column,
                    const std::string& message);

    const char* what() const noexcept override { return m_what.c_str(); }
    size_t Line() const { return m_line; }
    size_t Column() const { return m_column; }

  private:
    std::string m_what;
    size_t m_line;
    size_t m_column;
};

/// Parses `text` read from `file`; throws JsonSyntaxError with line and column.
nlohmann::json ParseJsonText(const std::string& text, const std::string& file);
/// Reads and parses a JSON file; throws InputError when it cannot be read, JsonSyntaxError
/// when it is not JSON. Shared by every loader of input files.
nlohmann::json ReadJsonFile(const std::string& path);

/// The generated reference of the scenario format (Markdown, without the BEGIN/END GENERATED
/// markers), covering every registered topology generator and protocol. docs/scenario.md
/// embeds it between `<!-- BEGIN GENERATED: schema -->` and `<!-- END GENERATED: schema -->`.
std::string ScenarioReferenceMarkdown();

} // namespace incsim

#endif
