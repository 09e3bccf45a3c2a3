#include "commands.h"

#include "protocols/builtin-protocols.h"
#include "sim/core/diagnostics.h"
#include "sim/core/output-file.h"
#include "sim/scenario/scenario.h"
#include "tools/experiment/process.h"
#include "tools/experiment/sweep-runner.h"

#include <fmt/format.h>


#include <algorithm>
#include <filesystem>

namespace incsim::cli
{

namespace
{

/// One entry of a figure registry (a protocol's analysis/figures.json): the sweep behind a
/// figure and the script that draws it.
struct Figure
{
    std::string name;
    std::string reproduces;
    std::string sweep;  // both made absolute; the registry gives them relative to itself
    std::string script;
};

void
LoadFigures(const std::string& path, std::vector<Figure>& figures)
{
    const nlohmann::json document = ReadJsonFile(path);
    if (!document.contains("figures") || !document["figures"].is_array())
    {
        throw InputError(path, "/figures", "expected an array of figures");
    }
    const std::filesystem::path dir = std::filesystem::absolute(path).parent_path();
    const auto& list = document["figures"];
    for (size_t i = 0; i < list.size(); ++i)
    {
        const std::string where = "/figures/" + std::to_string(i);
        Figure figure;
        for (auto [key, field] : {std::pair{"name", &figure.name},
                                  std::pair{"reproduces", &figure.reproduces},
                                  std::pair{"sweep", &figure.sweep},
                                  std::pair{"script", &figure.script}})
        {
            if (!list[i].contains(key) || !list[i][key].is_string())
            {
                throw InputError(path, where + "/" + key, "expected a string");
            }
            *field = list[i][key].get<std::string>();
        }
        for (const Figure& known : figures)
        {
            if (known.name == figure.name)
            {
                throw InputError(path, where + "/name",
                                 fmt::format("figure '{}' is already registered (by {})",
                                             figure.name, known.script));
            }
        }
        figure.sweep = (dir / figure.sweep).lexically_normal().string();
        figure.script = (dir / figure.script).lexically_normal().string();
        figures.push_back(figure);
    }
}

/// The figures of `registry`, or of every built-in protocol when it is empty.
std::vector<Figure>
LoadFigures(const std::string& registry)
{
    std::vector<Figure> figures;
    if (!registry.empty())
    {
        LoadFigures(registry, figures);
        return figures;
    }
    for (const std::string& file : BuiltinFigureRegistries())
    {
        LoadFigures(std::string(INCSIM_SOURCE_DIR) + "/" + file, figures);
    }
    return figures;
}

} // namespace

void
AddReproduceCommand(CLI::App& app)
{
    struct ReproduceArgs
    {
        std::string figure;
        bool list = false;
        std::string registry;
        std::string outDir = "figures";
        experiment::SweepOptions options;
    };
    auto args = std::make_shared<ReproduceArgs>();
    CLI::App* reproduce = app.add_subcommand(
        "reproduce", "Run the sweep behind a figure (what the database lacks) and draw it");
    reproduce->add_option("figure", args->figure, "Figure name (see --list)");
    reproduce->add_flag("--list", args->list, "List the figures");
    reproduce->add_option("--registry", args->registry,
                          "A figure registry to use instead of the built-in protocols' "
                          "(protocols/NAME/analysis/figures.json)");
    reproduce->add_option("--out", args->outDir, "Where the PNG and PDF go");
    AddSweepRunOptions(*reproduce, args->options);
    reproduce->add_option("--runs", args->options.outDir, "Where run directories go");
    reproduce->callback([args] {
        const std::vector<Figure> figures = LoadFigures(args->registry);
        if (args->list || args->figure.empty())
        {
            for (const Figure& figure : figures)
            {
                fmt::print("{:<24} {}\n", figure.name, figure.reproduces);
            }
            return;
        }
        const auto found = std::find_if(figures.begin(), figures.end(),
                                        [&](const Figure& f) { return f.name == args->figure; });
        if (found == figures.end())
        {
            std::string known;
            for (const Figure& figure : figures)
            {
                known += (known.empty() ? "" : ", ") + figure.name;
            }
            throw UsageError(fmt::format("no figure '{}' (known: {})", args->figure, known));
        }
        // The figures' directory, before any run: a figure that cannot be written is known now,
        // not after its sweep.
        RequireWritableDirectory(args->outDir);
        experiment::SweepOptions options = args->options;
        options.incsimBinary = experiment::SelfExecutable();
        options.sourceDir = INCSIM_SOURCE_DIR;
        options.progress = ShowProgress("auto");
        const experiment::SweepSpec sweep = experiment::LoadSweep(found->sweep);
        const experiment::SweepReport report = experiment::RunSweep(sweep, options);
        fmt::print("{}: {} runs ({} already in {}, {} ran, {} failed)\n", sweep.name,
                   report.total, report.skipped + report.recovered, options.database,
                   report.ok, report.failed);
        if (report.failed > 0 && !report.interrupted)
        {
            // A figure from part of its data would look complete: do not draw it.
            fmt::print(stderr, "error: {} runs of {} failed; see `incsim results {} --where "
                               "\"status != 'ok'\"`\n",
                       report.failed, sweep.name, options.database);
        }
        ThrowIfIncomplete(report);
        const int status = experiment::RunProcess({"/usr/bin/python3", found->script,
                                                   "--db", options.database, "--out",
                                                   args->outDir});
        if (status != 0)
        {
            throw ExternalError(fmt::format("{} exited with status {}", found->script,
                                                 status));
        }
    });
}

} // namespace incsim::cli
