"""Reading a results database (docs/results.md): runs with their parameters and metrics as
columns, and summaries over repetitions."""

import math
import sqlite3
from contextlib import closing

import pandas as pd

# Two-sided 95% Student t quantiles by degrees of freedom (1..30); 1.96 beyond.
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def load_runs(db_path, sweep=None, metrics=None, status="ok"):
    """One row per run: the runs table (parameters are columns named by their scenario path)
    plus one column per metric. `metrics` defaults to every metric the runs reported."""
    with closing(sqlite3.connect(db_path)) as db:
        where, args = [], []
        if sweep is not None:
            where.append("r.run_id IN (SELECT run_id FROM sweep_runs WHERE sweep = ?)")
            args.append(sweep)
        if status is not None:
            where.append("r.status = ?")
            args.append(status)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        runs = pd.read_sql_query(f"SELECT r.* FROM runs r{clause}", db, params=args)
        values = pd.read_sql_query(
            "SELECT m.run_id, m.name, m.value FROM metrics m JOIN runs r ON r.run_id = m.run_id"
            + clause, db, params=args)
    if metrics is not None:
        values = values[values["name"].isin(metrics)]
    wide = values.pivot(index="run_id", columns="name", values="value").reset_index()
    return runs.merge(wide, on="run_id", how="left")


def summarize(runs, by, metric):
    """Mean and 95% confidence interval (Student t) of `metric` over the repetitions at each
    point of `by`; also the run count, min and max."""
    rows = []
    for key, group in runs.groupby(by[0] if len(by) == 1 else by, sort=True):
        values = group[metric].dropna()
        n = len(values)
        mean = values.mean() if n else float("nan")
        t = _T95[n - 2] if 1 < n <= len(_T95) + 1 else 1.96
        half = t * values.std(ddof=1) / math.sqrt(n) if n > 1 else 0.0
        point = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        point.update({"n": n, "mean": mean, "ci95": half, "min": values.min(),
                      "max": values.max()})
        rows.append(point)
    return pd.DataFrame(rows)
