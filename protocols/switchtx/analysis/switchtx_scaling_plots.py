"""SwitchTx's series for Figs. 11 and 14-17 (spec 7.1): FaSST, SwitchTx (+Tree-GaS), SwitchTx
(+all) and Eris as (label, mask) pairs for plot_series, the ratio of two series, and a line per
series with the paper's claim printed beside the plotted numbers."""

import matplotlib.pyplot as plt

from incsim_analysis import style
from incsim_analysis.figure import load_sweep, plot_series, save
from incsim_analysis.results import summarize

COORDINATION = "protocol.params.coordination"
REORDER = "protocol.params.reorder"
THROUGHPUT = "switchtx.throughput_txn_per_s"
P50 = "switchtx.latency_p50_us"

# SwitchTx (+all) is +Tree-GaS with +Reorder. Dynamic MPL (+MPL) is not on main yet, so
# +all runs the static MPL of Sec. 5.1 (docs/switchtx.md, "Figures 14-17 against the paper").
FASST = ("FaSST", lambda r: r[COORDINATION] == "fasst")
TREE_GAS = ("SwitchTx (+Tree-GaS)", lambda r: (r[COORDINATION] == "switch") & (r[REORDER] == 0))
ALL = ("SwitchTx (+all, static MPL)", lambda r: (r[COORDINATION] == "switch") & (r[REORDER] == 1))
ERIS = ("Eris", lambda r: r[COORDINATION] == "eris")


def mops(runs):
    """Adds the throughput in millions of committed transactions per second."""
    return runs.assign(mops=runs[THROUGHPUT] / 1e6)


def ratio(runs, by, metric, numerator, denominator):
    """At each point of `by`, the mean of `metric` in one series over its mean in another."""
    means = [summarize(runs[mask(runs)], by, metric).set_index(by)["mean"]
             for _, mask in (numerator, denominator)]
    return (means[0] / means[1]).rename(f"{numerator[0]} / {denominator[0]}").reset_index()


def panel(axis, runs, x, metric, series, title, xlabel, ylabel, claim):
    """One panel: a line per series, the plotted numbers printed under `title` with the
    paper's `claim` beside them."""
    print(f"== {title}: the paper says: {claim}")
    plot_series(axis, runs, x, metric, series, title=f"{title}: ")
    axis.set_title(title)
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    axis.set_ylim(bottom=0)
    axis.legend()


def print_ratio(title, runs, by, metric, numerator, denominator, claim):
    style.print_table(f"{title} (paper: {claim})", ratio(runs, by, metric, numerator, denominator))


def contention_figure(doc, name, x, xlabel, latency_claim):
    """Figs. 15 and 16: (a) throughput and (b) P50 latency against the contention level `x`,
    for FaSST, SwitchTx (+Tree-GaS) and SwitchTx (+all), with the ratios to FaSST."""
    series = [FASST, TREE_GAS, ALL]
    args, runs = load_sweep(doc, name, [THROUGHPUT, P50])
    runs = mops(runs)
    fig, (throughput, latency) = plt.subplots(1, 2, figsize=(6.6, 2.6))
    panel(throughput, runs, x, "mops", series, "(a) throughput", xlabel, "throughput (Mtxn/s)",
          "S27: SwitchTx 1.67x-2.16x FaSST across contention levels")
    panel(latency, runs, x, P50, series, "(b) P50 latency", xlabel, "P50 latency (us)",
          latency_claim)
    for numerator in (TREE_GAS, ALL):
        print_ratio(f"throughput, {numerator[0]}", runs, [x], "mops", numerator, FASST,
                    "S27: 1.67x-2.16x")
    print_ratio("P50 latency", runs, [x], P50, TREE_GAS, FASST,
                "S28: +Tree-GaS 0.605-0.811 of FaSST")
    save(fig, args, name)
