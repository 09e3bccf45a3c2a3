"""What the figure scripts share: the command line, loading one sweep, drawing one line per
series of a metric against a parameter (with the paper's 5th-95th percentile error bars where
asked), and saving with the plotted numbers printed; 1Pipe's latency-and-delivery figure, and
Gotthard's three switch modes with their throughput-and-latency figure."""

import argparse
import sys
from pathlib import Path

import matplotlib.pyplot as plt

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


def latency_and_delivery(runs, x, series, xlabel):
    """A figure of 1Pipe's mean delivery latency (5th-95th percentile bars) and delivery ratio
    side by side, one line per (label, mask) of `series` against parameter `x`."""
    fig, (latency, delivered) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    plot_series(latency, runs, x, "onepipe.latency_mean_us", series,
                band=("onepipe.latency_p5_us", "onepipe.latency_p95_us"))
    plot_series(delivered, runs, x, "onepipe.delivery_ratio", series)
    for axis in (latency, delivered):
        axis.set_xlabel(xlabel)
        axis.set_ylim(bottom=0)
    latency.set_ylabel("delivery latency (µs)")
    delivered.set_ylabel("messages delivered / sent")
    if len(series) > 1:
        latency.legend()
    return fig, latency, delivered


LATENCY_AND_DELIVERY = ["onepipe.latency_mean_us", "onepipe.latency_p5_us",
                        "onepipe.latency_p95_us", "onepipe.delivery_ratio"]


MODE = "protocol.params.mode"
MODES = [("Forward", "forward"), ("Read cache", "read-cache"), ("Gotthard", "gotthard")]
THROUGHPUT = "gotthard.throughput_txn_per_s"
LATENCY = "gotthard.latency_mean_us"
THROUGHPUT_AND_LATENCY = [THROUGHPUT, LATENCY]


def mode_series(modes=MODES):
    """The (label, mask) series of Gotthard's switch modes, for plot_series."""
    return [(label, equals(MODE, mode)) for label, mode in modes]


def mode_ratio(runs, by, metric, numerator="gotthard", denominator="read-cache"):
    """At each point of `by`, the mean of `metric` in one switch mode over its mean in another."""
    means = [summarize(runs[runs[MODE] == mode], by, metric).set_index(by)["mean"]
             for mode in (numerator, denominator)]
    return (means[0] / means[1]).rename(f"{numerator} / {denominator}").reset_index()


def throughput_and_latency(runs, x, xlabel):
    """Gotthard's two-panel figure against parameter `x`: (a) committed transactions per second
    and (b) their mean latency, one line per switch mode. Also prints Gotthard's throughput over
    the read cache's."""
    runs = runs.assign(latency_mean_ms=runs[LATENCY] / 1e3)
    fig, (throughput, latency) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    plot_series(throughput, runs, x, THROUGHPUT, mode_series(), title="(a) ")
    plot_series(latency, runs, x, "latency_mean_ms", mode_series(), title="(b) ")
    for axis in (throughput, latency):
        axis.set_xlabel(xlabel)
        axis.set_ylim(bottom=0)
    throughput.set_ylabel("throughput (committed txn/s)")
    latency.set_ylabel("mean latency (ms)")
    throughput.legend()
    style.print_table("throughput, Gotthard / read cache", mode_ratio(runs, [x], THROUGHPUT))
    return fig, throughput, latency
