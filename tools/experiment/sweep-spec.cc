#include "tools/experiment/sweep-spec.h"

#include "sim/core/diagnostics.h"
#include "sim/core/rng.h"
#include "sim/core/units.h"
#include "sim/scenario/scenario.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

namespace incsim::experiment
{

namespace
{

using nlohmann::json;

const std::set<std::string> kKeys = {"name",        "scenario", "set",     "vary",
                                     "repetitions", "seed",     "metrics", "timeout"};

std::string
Describe(const json& value)
{
    std::string text = value.dump();
    return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

/// Every point extended by every choice, in order (the first factor varies slowest).
std::vector<Assignment>
Cross(const std::vector<Assignment>& points, const std::vector<Assignment>& choices)
{
    std::vector<Assignment> crossed;
    crossed.reserve(points.size() * choices.size());
    for (const Assignment& partial : points)
    {
        for (const Assignment& choice : choices)
        {
            Assignment point = partial;
            point.insert(point.end(), choice.begin(), choice.end());
            crossed.push_back(std::move(point));
        }
    }
    return crossed;
}

class SweepParser
{
  public:
    explicit SweepParser(std::string file)
        : m_file(std::move(file))
    {
    }

    [[noreturn]] void Error(const std::string& path, const std::string& message) const
    {
        throw InputError(m_file, path, message);
    }

    SweepSpec Parse(const json& document)
    {
        if (!document.is_object())
        {
            Error("", "expected a JSON object, got " + Describe(document));
        }
        for (const auto& [key, value] : document.items())
        {
            if (!kKeys.count(key))
            {
                std::string known;
                for (const auto& k : kKeys)
                {
                    known += (known.empty() ? "" : ", ") + k;
                }
                Error("/" + key, "unknown key (expected one of: " + known + ")");
            }
        }
        SweepSpec sweep;
        sweep.file = m_file;
        sweep.name = RequiredString(document, "name");
        const bool plain = std::all_of(sweep.name.begin(), sweep.name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        });
        if (!plain || sweep.name[0] == '.')
        {
            Error("/name", "expected letters, digits, '-', '_' and '.' (it names a directory), "
                           "got " + Describe(document["name"]));
        }
        const std::string scenario = RequiredString(document, "scenario");
        const std::filesystem::path base = std::filesystem::path(m_file).parent_path();
        sweep.scenarioPath =
            std::filesystem::path(scenario).is_absolute() ? scenario : (base / scenario).string();
        if (document.contains("set"))
        {
            sweep.fixed = Assignments(document["set"], "/set");
            for (const auto& [path, value] : sweep.fixed)
            {
                m_fixedPaths.insert(path);
            }
        }
        if (document.contains("vary"))
        {
            const json& vary = document["vary"];
            if (!vary.is_array())
            {
                Error("/vary", "expected an array of {\"grid\"|\"zip\"|\"list\": ...}, got " +
                                   Describe(vary));
            }
            for (size_t i = 0; i < vary.size(); ++i)
            {
                m_factor = i;
                sweep.factors.push_back(Factor(vary[i], "/vary/" + std::to_string(i)));
            }
        }
        sweep.parameters = m_parameters;
        sweep.repetitions = static_cast<uint32_t>(
            PositiveInteger(document, "repetitions", 1, 100000));
        sweep.seed = PositiveInteger(document, "seed", 1, uint64_t{1} << 53);
        if (document.contains("metrics"))
        {
            const json& metrics = document["metrics"];
            if (!metrics.is_array())
            {
                Error("/metrics", "expected an array of metric paths such as "
                                  "\"udp.latency_p99_us\", got " + Describe(metrics));
            }
            for (size_t i = 0; i < metrics.size(); ++i)
            {
                if (!metrics[i].is_string() || metrics[i].get<std::string>().empty())
                {
                    Error("/metrics/" + std::to_string(i),
                          "expected a metric path such as \"udp.latency_p99_us\", got " +
                              Describe(metrics[i]));
                }
                sweep.metrics.push_back(metrics[i].get<std::string>());
            }
        }
        if (document.contains("timeout"))
        {
            const json& timeout = document["timeout"];
            const auto ns = timeout.is_string() ? ParseDurationNs(timeout.get<std::string>())
                                                : std::nullopt;
            if (!ns || *ns <= 0)
            {
                Error("/timeout", "expected a positive duration like \"600s\", got " +
                                      Describe(timeout));
            }
            sweep.timeoutNs = ns;
        }
        return sweep;
    }

  private:
    std::string RequiredString(const json& document, const std::string& key) const
    {
        if (!document.contains(key))
        {
            Error("/" + key, "required key is missing");
        }
        const json& value = document[key];
        if (!value.is_string() || value.get<std::string>().empty())
        {
            Error("/" + key, "expected a non-empty string, got " + Describe(value));
        }
        return value.get<std::string>();
    }

    uint64_t PositiveInteger(const json& document, const std::string& key, uint64_t fallback,
                             uint64_t max) const
    {
        if (!document.contains(key))
        {
            return fallback;
        }
        const json& value = document[key];
        if (!value.is_number_unsigned() || value.get<uint64_t>() == 0 ||
            value.get<uint64_t>() > max)
        {
            Error("/" + key, "expected an integer from 1 to " + std::to_string(max) + ", got " +
                                 Describe(value));
        }
        return value.get<uint64_t>();
    }

    /// {"path": value, ...}
    Assignment Assignments(const json& object, const std::string& where) const
    {
        if (!object.is_object() || object.empty())
        {
            Error(where, "expected an object of scenario paths and values, got " +
                             Describe(object));
        }
        Assignment assignment;
        for (const auto& [path, value] : object.items())
        {
            CheckPath(path, where);
            assignment.emplace_back(path, value);
        }
        return assignment;
    }

    void CheckPath(const std::string& path, const std::string& where) const
    {
        if (path.empty() || path == "/" || path.find("..") != std::string::npos ||
            path.back() == '.' || path.back() == '/')
        {
            Error(where + "/" + path, "expected a scenario path such as \"links.rate\"");
        }
        if (path == "seed" || path == "/seed")
        {
            Error(where + "/" + path, "the seed is the sweep's: use \"seed\" and "
                                      "\"repetitions\" at the top level");
        }
    }

    void NoteParameter(const std::string& path, const std::string& where)
    {
        if (m_fixedPaths.count(path))
        {
            Error(where, "\"" + path + "\" is both fixed in /set and varied");
        }
        const auto [it, added] = m_factorOf.emplace(path, m_factor);
        if (added)
        {
            m_parameters.push_back(path);
        }
        else if (it->second != m_factor)
        {
            Error(where, "\"" + path + "\" is already varied by /vary/" +
                             std::to_string(it->second));
        }
    }

    std::vector<Assignment> Factor(const json& factor, const std::string& where)
    {
        if (!factor.is_object() || factor.size() != 1)
        {
            Error(where, "expected exactly one of {\"grid\": ...}, {\"zip\": ...}, "
                         "{\"list\": [...]}, got " + Describe(factor));
        }
        const std::string kind = factor.begin().key();
        const json& body = factor.begin().value();
        const std::string at = where + "/" + kind;
        std::vector<Assignment> points;
        if (kind == "list")
        {
            if (!body.is_array() || body.empty())
            {
                Error(at, "expected a non-empty array of points, got " + Describe(body));
            }
            for (size_t i = 0; i < body.size(); ++i)
            {
                points.push_back(Assignments(body[i], at + "/" + std::to_string(i)));
                for (const auto& [path, value] : points.back())
                {
                    NoteParameter(path, at + "/" + std::to_string(i) + "/" + path);
                }
            }
            return points;
        }
        if (kind != "grid" && kind != "zip")
        {
            Error(where + "/" + kind, "unknown factor (expected grid, zip or list)");
        }
        if (!body.is_object() || body.empty())
        {
            Error(at, "expected an object of paths and value lists, got " + Describe(body));
        }
        std::vector<std::pair<std::string, std::vector<json>>> columns;
        for (const auto& [path, values] : body.items())
        {
            CheckPath(path, at);
            if (!values.is_array() || values.empty())
            {
                Error(at + "/" + path, "expected a non-empty array of values, got " +
                                           Describe(values));
            }
            NoteParameter(path, at + "/" + path);
            columns.emplace_back(path, std::vector<json>(values.begin(), values.end()));
        }
        if (kind == "zip")
        {
            const size_t length = columns.front().second.size();
            for (const auto& [path, values] : columns)
            {
                if (values.size() != length)
                {
                    Error(at + "/" + path,
                          "a zip needs lists of equal length: " + std::to_string(values.size()) +
                              " values here, " + std::to_string(length) + " for \"" +
                              columns.front().first + "\"");
                }
            }
            for (size_t i = 0; i < length; ++i)
            {
                Assignment point;
                for (const auto& [path, values] : columns)
                {
                    point.emplace_back(path, values[i]);
                }
                points.push_back(point);
            }
            return points;
        }
        points.push_back({});
        for (const auto& [path, values] : columns)
        {
            std::vector<Assignment> choices;
            for (const json& value : values)
            {
                choices.push_back({{path, value}});
            }
            points = Cross(points, choices);
        }
        return points;
    }

    std::string m_file;
    std::set<std::string> m_fixedPaths;
    std::vector<std::string> m_parameters;
    std::map<std::string, size_t> m_factorOf;
    size_t m_factor = 0;
};

std::string
Override(const std::string& path, const json& value)
{
    return path + "=" + value.dump();
}

} // namespace

SweepSpec
ParseSweep(const json& document, const std::string& file)
{
    return SweepParser(file).Parse(document);
}

SweepSpec
LoadSweep(const std::string& path)
{
    return ParseSweep(ReadJsonFile(path), path);
}

uint64_t
RepetitionSeed(uint64_t sweepSeed, uint32_t repetition)
{
    if (repetition == 0)
    {
        return sweepSeed;
    }
    // Kept below 2^53 so that the seed survives JSON readers that use doubles.
    return Mix64(sweepSeed ^ (uint64_t{repetition} * 0x9E3779B97F4A7C15ull)) >> 11;
}

std::vector<PlannedRun>
ExpandSweep(const SweepSpec& sweep)
{
    std::vector<Assignment> points{{}};
    for (const auto& factor : sweep.factors)
    {
        points = Cross(points, factor);
    }
    std::vector<PlannedRun> runs;
    for (const Assignment& point : points)
    {
        for (uint32_t r = 0; r < sweep.repetitions; ++r)
        {
            PlannedRun run;
            run.point = point;
            run.repetition = r;
            run.seed = RepetitionSeed(sweep.seed, r);
            for (const auto& [path, value] : sweep.fixed)
            {
                run.overrides.push_back(Override(path, value));
            }
            for (const auto& [path, value] : point)
            {
                run.overrides.push_back(Override(path, value));
            }
            run.overrides.push_back(Override("seed", run.seed));
            runs.push_back(std::move(run));
        }
    }
    return runs;
}

} // namespace incsim::experiment
