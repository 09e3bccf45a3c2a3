#ifndef INCSIM_TOOLS_COMMANDS_H
#define INCSIM_TOOLS_COMMANDS_H

#include <CLI/CLI.hpp>

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

} // namespace incsim::cli

#endif
