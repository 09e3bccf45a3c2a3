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
void AddObjectsCommand(CLI::App& app);
void AddP4Command(CLI::App& app);
void AddSweepCommand(CLI::App& app);
void AddResultsCommand(CLI::App& app);
void AddReproduceCommand(CLI::App& app);
void AddCheckCommand(CLI::App& app);

/// Whether to show a live progress line for --progress `mode` (auto: on a terminal, outside CI).
bool ShowProgress(const std::string& mode);

/// Thrown by a command that has finished but must exit with a status other than 0 (a sweep
/// with failed runs); main returns `status` without printing anything.
struct ExitStatus
{
    int status = 0;
};

/// The options of `sweep` and `reproduce` that say where and how runs go: --db, --jobs,
/// --backend.
void AddSweepRunOptions(CLI::App& command, experiment::SweepOptions& options);
/// Throws ExitStatus for a sweep that did not finish: 130 when interrupted, else the number of
/// failed runs (at most 100).
void ThrowIfIncomplete(const experiment::SweepReport& report);

} // namespace incsim::cli

#endif
