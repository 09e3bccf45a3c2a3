#include "tools/experiment/results-db.h"

#include "sim/core/diagnostics.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <stdexcept>

namespace incsim::experiment
{

namespace
{

std::string
Now()
{
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return text;
}

/// A prepared statement, finalized on scope exit.
class Statement
{
  public:
    Statement(sqlite3* db, const std::string& sql)
        : m_db(db)
    {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &m_stmt, nullptr) != SQLITE_OK)
        {
            throw ExternalError(fmt::format("results database: {} (in: {})",
                                                 sqlite3_errmsg(db), sql));
        }
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    void Bind(int i, const std::string& text)
    {
        sqlite3_bind_text(m_stmt, i, text.c_str(), static_cast<int>(text.size()),
                          SQLITE_TRANSIENT);
    }
    void Bind(int i, double value) { sqlite3_bind_double(m_stmt, i, value); }
    void Bind(int i, int64_t value) { sqlite3_bind_int64(m_stmt, i, value); }
    void BindJson(int i, const nlohmann::json& value)
    {
        if (value.is_number_integer())
        {
            Bind(i, value.get<int64_t>());
        }
        else if (value.is_number())
        {
            Bind(i, value.get<double>());
        }
        else if (value.is_string())
        {
            Bind(i, value.get<std::string>());
        }
        else if (value.is_boolean())
        {
            Bind(i, int64_t{value.get<bool>() ? 1 : 0});
        }
        else
        {
            Bind(i, value.dump());
        }
    }

    /// Steps once; true while there are rows.
    bool Step()
    {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW)
        {
            return true;
        }
        if (rc != SQLITE_DONE)
        {
            throw ExternalError(fmt::format("results database: {}", sqlite3_errmsg(m_db)));
        }
        return false;
    }

    /// Makes the statement ready to run again with new bindings.
    void Reset()
    {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }

    sqlite3_stmt* Get() { return m_stmt; }

  private:
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

void
Flatten(const nlohmann::json& value, const std::string& prefix,
        std::vector<std::pair<std::string, double>>& out)
{
    if (value.is_object())
    {
        for (const auto& [key, inner] : value.items())
        {
            Flatten(inner, prefix.empty() ? key : prefix + "." + key, out);
        }
    }
    else if (value.is_number())
    {
        out.emplace_back(prefix, value.get<double>());
    }
    else if (value.is_boolean())
    {
        out.emplace_back(prefix, value.get<bool>() ? 1.0 : 0.0);
    }
}

} // namespace

namespace
{
/// `text` between `quote`s, each `quote` inside doubled (SQL's escaping).
std::string
Quote(const std::string& text, char quote)
{
    std::string out(1, quote);
    for (char c : text)
    {
        out += c;
        if (c == quote)
        {
            out += c;
        }
    }
    return out + quote;
}
} // namespace

std::string
QuoteIdentifier(const std::string& name)
{
    return Quote(name, '"');
}

std::string
QuoteLiteral(const std::string& text)
{
    return Quote(text, '\'');
}

std::vector<std::pair<std::string, double>>
FlattenMetrics(const nlohmann::json& metrics)
{
    std::vector<std::pair<std::string, double>> out;
    Flatten(metrics, "", out);
    return out;
}

namespace
{
/// SQLite's application_id of an incsim results database: "INCS".
constexpr int kApplicationId = 0x494e4353;
const std::vector<std::string> kTables = {"metrics", "runs", "sweep_runs", "sweeps", "traces"};
} // namespace

ResultsDb::ResultsDb(const std::string& path, Access access)
    : m_path(path)
{
    const bool readOnly = access == Access::ReadOnly;
    if (readOnly && !std::filesystem::exists(path))
    {
        throw InputError(path, "", "no such results database");
    }
    const int flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK)
    {
        const std::string message = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw ExternalError(fmt::format("{}: cannot open the results database: {}", path,
                                             message));
    }
    sqlite3_busy_timeout(m_db, 10000);
    try
    {
        RequireIncsimDatabase(!readOnly);
    }
    catch (...)
    {
        sqlite3_close(m_db);
        m_db = nullptr;
        throw;
    }
    if (!readOnly)
    {
        Exec("PRAGMA application_id=" + std::to_string(kApplicationId));
        Exec("PRAGMA journal_mode=WAL");
        Exec("PRAGMA synchronous=NORMAL");
        Exec("CREATE TABLE IF NOT EXISTS runs ("
             "run_id TEXT PRIMARY KEY, sweep TEXT NOT NULL, scenario_hash TEXT NOT NULL, "
             "code_version TEXT NOT NULL, repetition INTEGER, seed INTEGER, status TEXT NOT NULL, "
             "wall_seconds REAL, events INTEGER, simulated_ns INTEGER, peak_rss_kb INTEGER, "
             "run_dir TEXT, error TEXT, finished_at TEXT, params TEXT)");
        Exec("CREATE INDEX IF NOT EXISTS runs_by_scenario ON runs (scenario_hash, code_version)");
        Exec("CREATE TABLE IF NOT EXISTS metrics (run_id TEXT NOT NULL, name TEXT NOT NULL, "
             "value REAL, PRIMARY KEY (run_id, name))");
        Exec("CREATE TABLE IF NOT EXISTS traces (run_id TEXT NOT NULL, name TEXT NOT NULL, "
             "path TEXT, PRIMARY KEY (run_id, name))");
        Exec("CREATE TABLE IF NOT EXISTS sweeps (name TEXT PRIMARY KEY, sweep_file TEXT, "
             "parameters TEXT, metrics TEXT, updated_at TEXT)");
        Exec("CREATE TABLE IF NOT EXISTS sweep_runs (sweep TEXT NOT NULL, run_id TEXT NOT NULL, "
             "PRIMARY KEY (sweep, run_id))");
    }
    ReloadColumns();
}

void
ResultsDb::RequireIncsimDatabase(bool allowEmpty) const
{
    // Reading the schema is the first access: a file that is not SQLite fails here.
    sqlite3_stmt* raw = nullptr;
    const char* sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name";
    if (sqlite3_prepare_v2(m_db, sql, -1, &raw, nullptr) != SQLITE_OK)
    {
        throw InputError(m_path, "", fmt::format("not an incsim results database ({})",
                                                 sqlite3_errmsg(m_db)));
    }
    std::vector<std::string> tables;
    while (sqlite3_step(raw) == SQLITE_ROW)
    {
        tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)));
    }
    sqlite3_finalize(raw);
    if (tables.empty() && allowEmpty)
    {
        return;
    }
    Statement id(m_db, "PRAGMA application_id");
    const int applicationId = id.Step() ? sqlite3_column_int(id.Get(), 0) : 0;
    const bool hasTables = std::all_of(kTables.begin(), kTables.end(), [&](const std::string& t) {
        return std::find(tables.begin(), tables.end(), t) != tables.end();
    });
    // Databases from before the application id have 0 and incsim's tables.
    if (applicationId == kApplicationId || (applicationId == 0 && hasTables))
    {
        return;
    }
    std::string list;
    for (const std::string& table : tables)
    {
        list += (list.empty() ? "" : ", ") + table;
    }
    throw InputError(m_path, "",
                     fmt::format("not an incsim results database (it has {}); incsim leaves it "
                                 "untouched",
                                 tables.empty() ? std::string("no tables") : "tables " + list));
}

void
ResultsDb::ReloadColumns()
{
    m_columns.clear();
    Statement columns(m_db, "PRAGMA table_info(runs)");
    while (columns.Step())
    {
        m_columns.emplace_back(
            reinterpret_cast<const char*>(sqlite3_column_text(columns.Get(), 1)));
    }
}

ResultsDb::~ResultsDb()
{
    sqlite3_close(m_db);
}

void
ResultsDb::Exec(const std::string& sql) const
{
    char* error = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK)
    {
        const std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw ExternalError(fmt::format("{}: {} (in: {})", m_path, message, sql));
    }
}

void
ResultsDb::EnsureParamColumn(const std::string& name)
{
    // SQLite compares column names without case; another process may have added it meanwhile.
    const auto same = [&](const std::string& column) {
        return column.size() == name.size() &&
               std::equal(column.begin(), column.end(), name.begin(), [](char a, char b) {
                   return std::tolower(static_cast<unsigned char>(a)) ==
                          std::tolower(static_cast<unsigned char>(b));
               });
    };
    if (std::any_of(m_columns.begin(), m_columns.end(), same))
    {
        return;
    }
    ReloadColumns();
    if (std::none_of(m_columns.begin(), m_columns.end(), same))
    {
        Exec("ALTER TABLE runs ADD COLUMN " + QuoteIdentifier(name));
        m_columns.push_back(name);
    }
}

void
ResultsDb::InsertSweepRun(const std::string& sweep, const std::string& runId)
{
    Statement insert(m_db, "INSERT OR IGNORE INTO sweep_runs VALUES (?, ?)");
    insert.Bind(1, sweep);
    insert.Bind(2, runId);
    insert.Step();
}

void
ResultsDb::AddToSweep(const std::string& sweep, const std::string& runId,
                      const std::vector<std::pair<std::string, nlohmann::json>>& params)
{
    Exec("BEGIN IMMEDIATE");
    try
    {
        Statement read(m_db, "SELECT params FROM runs WHERE run_id = ?");
        read.Bind(1, runId);
        nlohmann::json merged = nlohmann::json::object();
        if (read.Step() && sqlite3_column_type(read.Get(), 0) == SQLITE_TEXT)
        {
            merged = nlohmann::json::parse(
                reinterpret_cast<const char*>(sqlite3_column_text(read.Get(), 0)));
        }
        // This sweep may vary parameters the run's first sweep fixed: the run has them too.
        for (const auto& [name, value] : params)
        {
            EnsureParamColumn(name);
            Statement update(m_db, "UPDATE runs SET " + QuoteIdentifier(name) +
                                       " = ? WHERE run_id = ?");
            update.BindJson(1, value);
            update.Bind(2, runId);
            update.Step();
            merged[name] = value;
        }
        Statement write(m_db, "UPDATE runs SET params = ? WHERE run_id = ?");
        write.Bind(1, merged.dump());
        write.Bind(2, runId);
        write.Step();
        InsertSweepRun(sweep, runId);
        Exec("COMMIT");
    }
    catch (...)
    {
        Exec("ROLLBACK");
        throw;
    }
}

void
ResultsDb::RecordSweep(const std::string& name, const std::string& file,
                       const std::vector<std::string>& parameters,
                       const std::vector<std::string>& metrics)
{
    for (const std::string& parameter : parameters)
    {
        EnsureParamColumn(parameter);
    }
    Statement insert(m_db, "INSERT OR REPLACE INTO sweeps VALUES (?, ?, ?, ?, ?)");
    insert.Bind(1, name);
    insert.Bind(2, file);
    insert.Bind(3, nlohmann::json(parameters).dump());
    insert.Bind(4, nlohmann::json(metrics).dump());
    insert.Bind(5, Now());
    insert.Step();
}

bool
ResultsDb::HasFinished(const std::string& scenarioHash, const std::string& codeVersion) const
{
    Statement query(m_db, "SELECT 1 FROM runs WHERE scenario_hash = ? AND code_version = ? "
                          "AND status = 'ok' LIMIT 1");
    query.Bind(1, scenarioHash);
    query.Bind(2, codeVersion);
    return query.Step();
}

size_t
ResultsDb::CountMetric(const std::string& sweep, const std::string& metric) const
{
    Statement query(m_db, "SELECT COUNT(*) FROM metrics m JOIN sweep_runs s "
                          "ON s.run_id = m.run_id WHERE s.sweep = ? AND m.name = ?");
    query.Bind(1, sweep);
    query.Bind(2, metric);
    query.Step();
    return static_cast<size_t>(sqlite3_column_int64(query.Get(), 0));
}

void
ResultsDb::RecordRun(const RunRecord& run)
{
    Exec("BEGIN IMMEDIATE");
    try
    {
        for (const auto& [name, value] : run.params)
        {
            EnsureParamColumn(name);
        }
        InsertSweepRun(run.sweep, run.runId);
        std::string columns = "run_id, sweep, scenario_hash, code_version, repetition, seed, "
                              "status, wall_seconds, events, simulated_ns, peak_rss_kb, run_dir, "
                              "error, finished_at, params";
        std::string placeholders = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
        nlohmann::json params = nlohmann::json::object();
        for (const auto& [name, value] : run.params)
        {
            columns += ", " + QuoteIdentifier(name);
            placeholders += ", ?";
            params[name] = value;
        }
        Statement insert(m_db, "INSERT OR REPLACE INTO runs (" + columns + ") VALUES (" +
                                   placeholders + ")");
        insert.Bind(1, run.runId);
        insert.Bind(2, run.sweep);
        insert.Bind(3, run.scenarioHash);
        insert.Bind(4, run.codeVersion);
        insert.Bind(5, int64_t{run.repetition});
        insert.Bind(6, static_cast<int64_t>(run.seed));
        insert.Bind(7, run.status);
        insert.Bind(8, run.wallSeconds);
        insert.Bind(9, static_cast<int64_t>(run.events));
        insert.Bind(10, run.simulatedNs);
        insert.Bind(11, run.peakRssKb);
        insert.Bind(12, run.runDir);
        insert.Bind(13, run.error);
        insert.Bind(14, Now());
        insert.Bind(15, params.dump());
        int i = 16;
        for (const auto& [name, value] : run.params)
        {
            insert.BindJson(i++, value);
        }
        insert.Step();
        for (const char* table : {"metrics", "traces"})
        {
            Statement clear(m_db, fmt::format("DELETE FROM {} WHERE run_id = ?", table));
            clear.Bind(1, run.runId);
            clear.Step();
        }
        Statement metric(m_db, "INSERT INTO metrics VALUES (?, ?, ?)");
        for (const auto& [name, value] : run.metrics)
        {
            metric.Reset();
            metric.Bind(1, run.runId);
            metric.Bind(2, name);
            metric.Bind(3, value);
            metric.Step();
        }
        Statement trace(m_db, "INSERT INTO traces VALUES (?, ?, ?)");
        for (const auto& [name, path] : run.traces)
        {
            trace.Reset();
            trace.Bind(1, run.runId);
            trace.Bind(2, name);
            trace.Bind(3, path);
            trace.Step();
        }
        Exec("COMMIT");
    }
    catch (...)
    {
        Exec("ROLLBACK");
        throw;
    }
}

std::vector<std::vector<std::string>>
ResultsDb::Query(const std::string& sql) const
{
    Statement query(m_db, sql);
    std::vector<std::vector<std::string>> rows;
    const int columns = sqlite3_column_count(query.Get());
    rows.emplace_back();
    for (int c = 0; c < columns; ++c)
    {
        rows.back().emplace_back(sqlite3_column_name(query.Get(), c));
    }
    while (query.Step())
    {
        rows.emplace_back();
        for (int c = 0; c < columns; ++c)
        {
            const auto* text = sqlite3_column_text(query.Get(), c);
            rows.back().emplace_back(text ? reinterpret_cast<const char*>(text) : "");
        }
    }
    return rows;
}

} // namespace incsim::experiment
