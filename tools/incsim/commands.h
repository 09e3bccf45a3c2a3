#ifndef INCSIM_TOOLS_COMMANDS_H
#define INCSIM_TOOLS_COMMANDS_H

#include <CLI/CLI.hpp>

namespace incsim::experiment
{
struct SweepOptions;
struct SweepReport;
} // namespace incsim::experiment

namespace incsim::cli
{

// Each subcommand adds itself to the app; its callback runs the command.
void AddRunCommand(CLI::App& app);
void AddValidateCommand(CLI::App& app);
void AddTopoCommand(CLI::App& app);
void AddListCommand(CLI::App& app);
void AddSchemaCommand(CLI::App& app);
void AddTracesCommand(CLI::App& app);
void AddObjectsCommand(CLI::App& app);
void AddP4Command(CLI::App& app);
void AddSweepCommand(CLI::App& app);
void AddResultsCommand(CLI::App& app);
void AddReproduceCommand(CLI::App& app);
void AddCheckCommand(CLI::App& app);

/// A --seed value: a decimal integer from 0 to 2^63-1 (the scenario's /seed range); throws
/// UsageError otherwise.
uint64_t ParseSeed(const std::string& text);

/// Whether to show a live progress line for --progress `mode` (auto: on a terminal, outside CI).
bool ShowProgress(const std::string& mode);

/// Thrown by a command that has finished but must exit with a status other than 0 (a sweep
/// with failed runs); main returns `status` (exit-codes.h) without printing anything.
struct ExitStatus
{
    int status = 0;
};

/// An invalid input whose message already locates the problem (a P4 compiler's error count
/// after its diagnostics, an STF parse error); exits with kExitInput.
class LocatedInputError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// A negative verdict with a one-line summary (STF scripts that failed); exits with
/// kExitVerdict.
class VerdictFailure : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// A command line that parses but makes no sense (e.g. `--jobs 0`); exits with kExitUsage.
class UsageError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// The options of `sweep` and `reproduce` that say where and how runs go: --db, --jobs,
/// --backend.
void AddSweepRunOptions(CLI::App& command, experiment::SweepOptions& options);
/// Throws ExitStatus for a sweep that did not finish: kExitInterrupted when interrupted,
/// kExitRunsFailed when some runs failed.
void ThrowIfIncomplete(const experiment::SweepReport& report);

} // namespace incsim::cli

#endif
