"""What the figure scripts share: the command line, loading one sweep, drawing one line per
series of a metric against a parameter (with the paper's 5th-95th percentile error bars where
asked), and saving with the plotted numbers printed. Protocol-specific plotting lives with the
protocol (protocols/NAME/analysis/)."""

import argparse
import sys
from pathlib import Path

from incsim_analysis import style
from incsim_analysis.results import load_runs, summarize


def load_sweep(doc, sweep, metrics):
    """Parses --db/--out, returns (args, runs of `sweep` with `metrics`); exits if empty."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    runs = load_runs(args.db, sweep=sweep, metrics=metrics)
    if runs.empty:
        sys.exit(f"{args.db}: no finished runs of the {sweep} sweep")
    style.apply()
    return args, runs


def plot_series(axis, runs, x, metric, series, band=None, title=""):
    """One line per (label, mask) in `series`: the mean of `metric` at each `x`. `band`: a
    (low metric, high metric) pair drawn as error bars around the mean."""
    for label, mask in series:
        subset = runs[mask(runs)]
        if subset.empty:
            continue
        table = summarize(subset, [x], metric)
        errors = None
        if band is not None:
            low = summarize(subset, [x], band[0])["mean"]
            high = summarize(subset, [x], band[1])["mean"]
            errors = [table["mean"] - low, high - table["mean"]]
        axis.errorbar(table[x], table["mean"], yerr=errors, marker="o", markersize=3, capsize=2,
                      label=label)
        style.print_table(f"{title}{metric}, {label}", table[[x, "n", "mean"]])


def save(fig, args, name):
    fig.tight_layout()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    for path in style.save(fig, str(Path(args.out) / name)):
        print(f"wrote {path}")


def equals(column, value):
    return lambda runs: runs[column] == value
