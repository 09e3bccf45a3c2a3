#include "commands.h"

#include "sim/runner/runner.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

#include <filesystem>

namespace incsim::cli
{

namespace
{

struct RunArgs
{
    std::string scenario;
    std::vector<std::string> overrides;
    std::string seed;
    std::string out;
    std::string progress;
};

std::string
DefaultRunDir(const Scenario& scenario)
{
    std::string stem = std::filesystem::path(scenario.File()).stem().string();
    return fmt::format("runs/{}-seed{}", stem, scenario.Seed());
}

void
PrintSummary(const RunSummary& summary)
{
    fmt::print("run directory   {}\n", summary.runDir);
    fmt::print("simulated       {:.6g} ms in {:.2f} s wall ({} events, {:.3g} M events/s)\n",
               summary.simulatedNs / 1e6,
               summary.wallSeconds,
               summary.events,
               summary.wallSeconds > 0 ? summary.events / summary.wallSeconds / 1e6 : 0.0);
    fmt::print("peak memory     {:.1f} MiB\n", summary.peakRssKb / 1024.0);
    for (const auto& [section, values] : summary.metrics.items())
    {
        fmt::print("[{}]\n", section);
        for (const auto& [key, value] : values.items())
        {
            if (value.is_object())
            {
                std::string parts;
                for (const auto& [k, v] : value.items())
                {
                    if (!(v.is_number() && v.get<double>() == 0))
                    {
                        parts += fmt::format("{}{}={}", parts.empty() ? "" : " ", k, v.dump());
                    }
                }
                fmt::print("  {:<22} {}\n", key, parts.empty() ? "none" : parts);
            }
            else if (value.is_number_float())
            {
                fmt::print("  {:<22} {:.4g}\n", key, value.get<double>());
            }
            else
            {
                fmt::print("  {:<22} {}\n", key, value.dump());
            }
        }
    }
}

} // namespace

uint64_t
ParseSeed(const std::string& text)
{
    const bool digits = !text.empty() && text.size() <= 19 &&
                        text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoull(text) > static_cast<uint64_t>(INT64_MAX))
    {
        throw UsageError("--seed: expected an integer from 0 to 2^63-1, got \"" + text + "\"");
    }
    return std::stoull(text);
}

void
AddRunCommand(CLI::App& app)
{
    auto args = std::make_shared<RunArgs>();
    CLI::App* run = app.add_subcommand("run", "Run a scenario and write a run directory");
    run->add_option("scenario", args->scenario, "Scenario JSON file")->required();
    run->add_option("--set", args->overrides, "Override a scenario value: path=value")
        ->type_name("PATH=VALUE");
    run->add_option("--seed", args->seed, "Random seed (overrides /seed): 0 to 2^63-1");
    run->add_option("--out", args->out, "Run directory (default runs/<scenario>-seed<N>)");
    std::vector<std::string> progressModes;
    for (const auto& [name, mode] : ProgressModeChoices())
    {
        progressModes.push_back(name);
    }
    run->add_option("--progress", args->progress, "auto, always or never (overrides the scenario)")
        ->check(CLI::IsMember(progressModes));
    run->callback([args] {
        std::vector<std::string> overrides = args->overrides;
        if (!args->seed.empty())
        {
            overrides.push_back("seed=" + std::to_string(ParseSeed(args->seed)));
        }
        Scenario scenario = LoadScenario(args->scenario, overrides);
        RunOptions options;
        options.outDir = args->out.empty() ? DefaultRunDir(scenario) : args->out;
        options.sourceDir = INCSIM_SOURCE_DIR;
        if (!args->progress.empty())
        {
            options.progress = ParseProgressMode(args->progress);
        }
        PrintSummary(RunScenario(scenario, options));
    });
}

} // namespace incsim::cli
