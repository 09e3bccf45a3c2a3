#ifndef INCSIM_EXPERIMENT_RESULTS_DB_H
#define INCSIM_EXPERIMENT_RESULTS_DB_H

// The results store: one SQLite file for every sweep. Layout (docs/results.md):
//
//   runs     one row per run: run_id, sweep (the one that ran it), scenario_hash, code_version, repetition, seed,
//            status ('ok', 'failed', 'timeout'), wall_seconds, events, simulated_ns,
//            peak_rss_kb, run_dir, error (stderr tail of a failed run), finished_at, params
//            (JSON), and one column per varied parameter, named by its scenario path
//            ("workload.load")
//   sweep_runs  sweep, run_id: every sweep a run belongs to (sweeps may share runs)
//   metrics  run_id, name (dotted path in metrics.json, "udp.latency_p99_us"), value
//   traces   run_id, name (file name in the run directory), path
//   sweeps   name, sweep_file, parameters (JSON list), metrics (JSON list), updated_at
//
// pandas: pd.read_sql("SELECT * FROM runs", sqlite3.connect("results.sqlite")).

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace incsim::experiment
{

struct RunRecord
{
    std::string runId;
    std::string sweep;
    std::string scenarioHash;
    std::string codeVersion;
    uint32_t repetition = 0;
    uint64_t seed = 0;
    std::string status;  // ok, failed, timeout
    double wallSeconds = 0;
    uint64_t events = 0;
    int64_t simulatedNs = 0;
    int64_t peakRssKb = 0;
    std::string runDir;
    std::string error;
    /// The varied parameters, path -> value.
    std::vector<std::pair<std::string, nlohmann::json>> params;
    /// Flattened metrics.json: dotted name -> number.
    std::vector<std::pair<std::string, double>> metrics;
    /// Trace files: name -> path.
    std::vector<std::pair<std::string, std::string>> traces;
};

class ResultsDb
{
  public:
    enum class Access
    {
        ReadWrite,  ///< opens or creates the database (sweeps)
        ReadOnly,   ///< opens an existing database and never writes to it (results)
    };

    /// Opens the database. A file that is not an incsim results database (another SQLite file,
    /// or not SQLite at all) is refused with InputError before anything is written to it;
    /// other failures throw std::runtime_error naming the file.
    explicit ResultsDb(const std::string& path, Access access = Access::ReadWrite);
    ~ResultsDb();
    ResultsDb(const ResultsDb&) = delete;
    ResultsDb& operator=(const ResultsDb&) = delete;

    void RecordSweep(const std::string& name, const std::string& file,
                     const std::vector<std::string>& parameters,
                     const std::vector<std::string>& metrics);

    /// Whether a run with this resolved scenario and code version finished successfully.
    bool HasFinished(const std::string& scenarioHash, const std::string& codeVersion) const;

    /// Notes that `sweep` includes the (already recorded) run, whose values of the sweep's
    /// parameters are `params`.
    void AddToSweep(const std::string& sweep, const std::string& runId,
                    const std::vector<std::pair<std::string, nlohmann::json>>& params);

    /// How many runs in `sweep` reported `metric`.
    size_t CountMetric(const std::string& sweep, const std::string& metric) const;

    /// Inserts or replaces the run (one transaction: the run, its metrics and traces, and its
    /// membership of run.sweep).
    void RecordRun(const RunRecord& run);

    const std::string& Path() const { return m_path; }

    /// A query's result as text rows, the first row being the column names.
    std::vector<std::vector<std::string>> Query(const std::string& sql) const;

  private:
    /// Throws InputError unless the open file is empty or an incsim results database.
    void RequireIncsimDatabase(bool allowEmpty) const;
    void Exec(const std::string& sql) const;
    void InsertSweepRun(const std::string& sweep, const std::string& runId);
    void EnsureParamColumn(const std::string& name);
    /// Reads the runs table's column names (another process may have added some).
    void ReloadColumns();

    std::string m_path;
    sqlite3* m_db = nullptr;
    std::vector<std::string> m_columns;  // of runs
};

/// `name` as an SQL identifier, in double quotes.
std::string QuoteIdentifier(const std::string& name);
/// `text` as an SQL string literal, in single quotes.
std::string QuoteLiteral(const std::string& text);

/// metrics.json flattened to dotted names with numeric values (booleans as 0/1).
std::vector<std::pair<std::string, double>> FlattenMetrics(const nlohmann::json& metrics);

} // namespace incsim::experiment

#endif
