#include "tools/experiment/run-job.h"

#include "sim/core/rng.h"
#include "sim/scenario/scenario.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace incsim::experiment
{

std::optional<nlohmann::json>
TryReadJson(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        return std::nullopt;
    }
    nlohmann::json value = nlohmann::json::parse(in, nullptr, false);
    if (value.is_discarded())
    {
        return std::nullopt;
    }
    return value;
}

std::string
TextHash(const std::string& text)
{
    return fmt::format("{:016x}", Fnv1a(text));
}

std::string
PointText(const PlannedRun& planned)
{
    std::string text;
    for (const auto& [path, value] : planned.point)
    {
        text += (text.empty() ? "" : ", ") + path + "=" + value.dump();
    }
    return text + (text.empty() ? "" : ", ") + "repetition " + std::to_string(planned.repetition);
}

std::string
FileTail(const std::string& path, size_t lines)
{
    std::ifstream in(path);
    if (!in)
    {
        return "";
    }
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);)
    {
        all.push_back(line);
    }
    std::string tail;
    for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i)
    {
        tail += all[i] + "\n";
    }
    return tail;
}

namespace
{
/// Whether the run directory holds a finished run of `job` by this code, given its run.json and
/// metrics.json as read (run.json is written last and says which scenario ran, by its
/// identity, and with which code).
bool
Finished(const RunJob& job, const std::string& codeVersion,
         const std::optional<nlohmann::json>& run, const std::optional<nlohmann::json>& metrics)
{
    return run && metrics && run->value("version", "") == codeVersion &&
           run->value("identity", "") == job.scenarioHash;
}

} // namespace

bool
RunDirectoryFinished(const RunJob& job, const std::string& codeVersion)
{
    return Finished(job, codeVersion, TryReadJson(job.runDir + "/run.json"),
                    TryReadJson(job.runDir + "/metrics.json"));
}

RunRecord
CollectRun(const SweepSpec& sweep, const std::string& codeVersion, const RunJob& job, RunEnd end)
{
    RunRecord record;
    record.runId = job.runId;
    record.sweep = sweep.name;
    record.scenarioHash = job.scenarioHash;
    record.codeVersion = codeVersion;
    record.repetition = job.planned.repetition;
    record.seed = job.planned.seed;
    record.runDir = std::filesystem::absolute(job.runDir).string();
    record.params = job.planned.point;
    const auto run = TryReadJson(job.runDir + "/run.json");
    const auto metrics = TryReadJson(job.runDir + "/metrics.json");
    if (end == RunEnd::Exited && Finished(job, codeVersion, run, metrics))
    {
        record.status = "ok";
        record.wallSeconds = run->value("wall_seconds", 0.0);
        record.events = run->value("events", uint64_t{0});
        record.simulatedNs = run->value("simulated_ns", int64_t{0});
        record.peakRssKb = run->value("peak_rss_kb", int64_t{0});
        record.metrics = FlattenMetrics(*metrics);
        for (const auto& entry : std::filesystem::recursive_directory_iterator(job.runDir))
        {
            const std::string name =
                std::filesystem::relative(entry.path(), job.runDir).string();
            const bool bookkeeping = name == "run.json" || name == "metrics.json" ||
                                     name == "scenario.resolved.json" || name == "stdout.txt" ||
                                     name == "stderr.txt" || name == "end.json";
            if (entry.is_regular_file() && !bookkeeping)
            {
                record.traces.emplace_back(name,
                                           std::filesystem::absolute(entry.path()).string());
            }
        }
        return record;
    }
    record.status = end == RunEnd::TimedOut ? "timeout" : "failed";
    std::string why = FileTail(job.runDir + "/stderr.txt", 20);
    if (why.empty())
    {
        why = end == RunEnd::TimedOut ? "timed out" : "no output (crashed?)";
    }
    record.error = fmt::format("run with {}: {}", PointText(job.planned), why);
    return record;
}

} // namespace incsim::experiment
