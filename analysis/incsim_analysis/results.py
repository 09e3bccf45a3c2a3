"""Reading a results database (docs/results.md): runs with their parameters and metrics as
columns, and summaries over repetitions."""

import math
import sqlite3

import pandas as pd


def load_runs(db_path, sweep=None, metrics=None, status="ok"):
    """One row per run: the runs table (parameters are columns named by their scenario path)
    plus one column per metric. `metrics` defaults to every metric the runs reported."""
    with sqlite3.connect(db_path) as db:
        where, args = [], []
        if sweep is not None:
            where.append("sweep = ?")
            args.append(sweep)
        if status is not None:
            where.append("status = ?")
            args.append(status)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        runs = pd.read_sql_query(f"SELECT * FROM runs{clause}", db, params=args)
        values = pd.read_sql_query(
            "SELECT m.run_id, m.name, m.value FROM metrics m JOIN runs r ON r.run_id = m.run_id"
            + clause.replace("sweep", "r.sweep").replace("status", "r.status"), db, params=args)
    if metrics is not None:
        values = values[values["name"].isin(metrics)]
    wide = values.pivot(index="run_id", columns="name", values="value").reset_index()
    return runs.merge(wide, on="run_id", how="left")


def summarize(runs, by, metric):
    """Mean and 95% confidence interval (normal approximation) of `metric` over the
    repetitions at each point of `by`; also the run count, min and max."""
    rows = []
    for key, group in runs.groupby(by[0] if len(by) == 1 else by, sort=True):
        values = group[metric].dropna()
        n = len(values)
        mean = values.mean() if n else float("nan")
        half = 1.96 * values.std(ddof=1) / math.sqrt(n) if n > 1 else 0.0
        point = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        point.update({"n": n, "mean": mean, "ci95": half, "min": values.min(),
                      "max": values.max()})
        rows.append(point)
    return pd.DataFrame(rows)
