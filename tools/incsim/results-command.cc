#include "commands.h"

#include "tools/experiment/results-db.h"

#include "sim/core/diagnostics.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <algorithm>

namespace incsim::cli
{

namespace
{

std::string
CsvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
    {
        return text;
    }
    std::string out = "\"";
    for (char c : text)
    {
        out += c == '"' ? "\"\"" : std::string(1, c);
    }
    return out + "\"";
}

/// The parameters and metrics the sweeps in the database declared, in first-seen order.
std::pair<std::vector<std::string>, std::vector<std::string>>
DeclaredColumns(const experiment::ResultsDb& db, const std::string& sweep)
{
    std::vector<std::string> parameters;
    std::vector<std::string> metrics;
    const auto rows = db.Query("SELECT parameters, metrics FROM sweeps" +
                               (sweep.empty() ? "" : " WHERE name = " + experiment::QuoteLiteral(sweep)) +
                               " ORDER BY name");
    const auto add = [](std::vector<std::string>& to, const std::string& json) {
        for (const auto& item : nlohmann::json::parse(json))
        {
            const std::string name = item.get<std::string>();
            if (std::find(to.begin(), to.end(), name) == to.end())
            {
                to.push_back(name);
            }
        }
    };
    for (size_t i = 1; i < rows.size(); ++i)
    {
        add(parameters, rows[i][0]);
        add(metrics, rows[i][1]);
    }
    return {parameters, metrics};
}

/// Throws UsageError unless `name` is among the values `sql` lists, naming some that are.
void
RequireKnown(const experiment::ResultsDb& db, const std::string& noun, const std::string& name,
             const std::string& sql)
{
    const auto rows = db.Query(sql);
    std::vector<std::string> known;
    for (size_t i = 1; i < rows.size(); ++i)
    {
        if (rows[i][0] == name)
        {
            return;
        }
        known.push_back(rows[i][0]);
    }
    constexpr size_t kShown = 12;
    std::string list;
    for (size_t i = 0; i < std::min(known.size(), kShown); ++i)
    {
        list += (list.empty() ? "" : ", ") + known[i];
    }
    if (known.size() > kShown)
    {
        list += fmt::format(", and {} more", known.size() - kShown);
    }
    throw UsageError(fmt::format("--{}: no {} \"{}\" in {} (known: {})", noun, noun, name,
                                 db.Path(), known.empty() ? std::string("none") : list));
}

/// The failed runs' errors under the table: which run, which point, and why.
void
PrintFailures(const experiment::ResultsDb& db, const std::string& where)
{
    const auto rows = db.Query("SELECT r.run_id, r.status, r.error FROM runs r" + where +
                               (where.empty() ? " WHERE " : " AND ") +
                               "r.status != 'ok' ORDER BY r.run_id");
    for (size_t i = 1; i < rows.size(); ++i)
    {
        fmt::print("\n{} ({}):\n", rows[i][0], rows[i][1]);
        std::string error = rows[i][2];
        while (!error.empty() && error.back() == '\n')
        {
            error.pop_back();
        }
        for (size_t start = 0; start <= error.size();)
        {
            const size_t end = std::min(error.find('\n', start), error.size());
            fmt::print("  {}\n", error.substr(start, end - start));
            start = end + 1;
        }
    }
}

} // namespace

void
AddResultsCommand(CLI::App& app)
{
    struct ResultsArgs
    {
        std::string database;
        std::string where;
        std::string sweep;
        std::vector<std::string> metrics;
        bool csv = false;
    };
    auto args = std::make_shared<ResultsArgs>();
    CLI::App* results = app.add_subcommand(
        "results", "List or export runs from a results database: parameters, status, metrics");
    results->add_option("database", args->database, "Results database (SQLite)")->required();
    results->add_option("--where", args->where,
                        "SQL condition on runs, e.g. \"status = 'ok' AND \\\"workload.load\\\" > 0.3\"");
    results->add_option("--sweep", args->sweep, "Only this sweep");
    results->add_option("--metric", args->metrics,
                        "Metric columns to show (default: the sweeps' declared metrics)");
    results->add_flag("--csv", args->csv, "Write CSV to stdout");
    results->callback([args] {
        experiment::ResultsDb db(args->database, experiment::ResultsDb::Access::ReadOnly);
        if (!args->sweep.empty())
        {
            RequireKnown(db, "sweep", args->sweep, "SELECT name FROM sweeps ORDER BY name");
        }
        auto [parameters, metrics] = DeclaredColumns(db, args->sweep);
        if (!args->metrics.empty())
        {
            for (const std::string& metric : args->metrics)
            {
                RequireKnown(db, "metric", metric,
                             "SELECT DISTINCT name FROM metrics ORDER BY name");
            }
            metrics = args->metrics;
        }
        std::string sql = "SELECT r.sweep, r.run_id";
        for (const std::string& parameter : parameters)
        {
            sql += ", r." + experiment::QuoteIdentifier(parameter);
        }
        sql += ", r.repetition, r.seed, r.status, r.wall_seconds";
        for (const std::string& metric : metrics)
        {
            sql += ", (SELECT value FROM metrics m WHERE m.run_id = r.run_id AND m.name = " +
                   experiment::QuoteLiteral(metric) + ") AS " + experiment::QuoteIdentifier(metric);
        }
        sql += " FROM runs r";
        std::vector<std::string> conditions;
        if (!args->sweep.empty())
        {
            conditions.push_back("r.run_id IN (SELECT run_id FROM sweep_runs WHERE sweep = " +
                                 experiment::QuoteLiteral(args->sweep) + ")");
        }
        if (!args->where.empty())
        {
            conditions.push_back("(" + args->where + ")");
        }
        std::string where;
        for (size_t i = 0; i < conditions.size(); ++i)
        {
            where += (i == 0 ? " WHERE " : " AND ") + conditions[i];
        }
        sql += where;
        sql += " ORDER BY r.sweep";
        for (const std::string& parameter : parameters)
        {
            sql += ", r." + experiment::QuoteIdentifier(parameter);
        }
        sql += ", r.repetition";
        std::vector<std::vector<std::string>> rows;
        try
        {
            rows = db.Query(sql);
        }
        catch (const ExternalError& error)
        {
            if (args->where.empty())
            {
                throw;
            }
            throw UsageError(fmt::format("--where \"{}\": {}", args->where, error.what()));
        }
        if (args->csv)
        {
            for (const auto& row : rows)
            {
                for (size_t c = 0; c < row.size(); ++c)
                {
                    std::cout << (c ? "," : "") << CsvField(row[c]);
                }
                std::cout << '\n';
            }
            return;
        }
        std::vector<size_t> widths(rows.front().size(), 0);
        for (const auto& row : rows)
        {
            for (size_t c = 0; c < row.size(); ++c)
            {
                widths[c] = std::max(widths[c], std::min<size_t>(row[c].size(), 24));
            }
        }
        for (const auto& row : rows)
        {
            std::string line;
            for (size_t c = 0; c < row.size(); ++c)
            {
                std::string cell = row[c].size() > 24 ? row[c].substr(0, 23) + "~" : row[c];
                line += fmt::format("{:<{}}  ", cell, widths[c]);
            }
            while (!line.empty() && line.back() == ' ')
            {
                line.pop_back();
            }
            fmt::print("{}\n", line);
        }
        fmt::print("({} runs)\n", rows.size() - 1);
        PrintFailures(db, where);
    });
}

} // namespace incsim::cli
