"""SwitchTx's plotting helpers, for every figure script: the systems of the ablation ladder
named from a run's parameters, the series of Figs. 11 and 14-17 (spec 7.1) as (label, mask)
pairs for plot_series, means and ratios over repetitions, grouped bars, line panels, and the
paper's numbers and claims printed beside ours."""

import matplotlib.pyplot as plt
import pandas as pd

from incsim_analysis import style
from incsim_analysis.figure import load_sweep, plot_series, save
from incsim_analysis.results import summarize

COORDINATION = "protocol.params.coordination"
SCOPE = "protocol.params.scope"
REORDER = "protocol.params.reorder"
ADMISSION = "protocol.params.admission"
METRIC = "switchtx.{}".format
THROUGHPUT = METRIC("throughput_txn_per_s")
P50 = METRIC("latency_p50_us")
MPL = METRIC("mpl.mean")

# The ablation ladder (Fig. 10), in the paper's order.
SYSTEMS = ["Eris", "FaSST", "+GaS", "+Tree-GaS", "+Reorder", "+MPL"]


def system_of(row):
    """The ladder step a run is: coordination, scope, reorder and admission."""
    coordination = row[COORDINATION]
    if coordination == "eris":
        return "Eris"
    if coordination == "fasst":
        return "FaSST"
    if coordination == "switch":
        if row.get(ADMISSION) == "dynamic":
            return "+MPL"
        if row.get(REORDER) in (True, 1, "true"):
            return "+Reorder"
        return "+GaS" if row.get(SCOPE) == "root" else "+Tree-GaS"
    return coordination


def with_systems(runs):
    return runs.assign(system=runs.apply(system_of, axis=1))


def system_series(label, system):
    """A (label, mask) series of the runs that are ladder step `system`."""
    return (label, lambda runs: runs.apply(system_of, axis=1) == system)


# Figs. 14-17's series (spec 7.1): SwitchTx (+all) is the top of the ladder, +Tree-GaS with
# +Reorder and +MPL (dynamic admission, Listing 1).
FASST = system_series("FaSST", "FaSST")
TREE_GAS = system_series("SwitchTx (+Tree-GaS)", "+Tree-GaS")
ALL = system_series("SwitchTx (+all)", "+MPL")
ERIS = system_series("Eris", "Eris")


def means(runs, by, metric):
    """The mean of `metric` over repetitions at each point of `by`, indexed by `by`."""
    return summarize(runs, by, metric).set_index(by)["mean"]


def mops(runs):
    """Adds the throughput in millions of committed transactions per second."""
    return runs.assign(mops=runs[THROUGHPUT] / 1e6)


def ratio(runs, by, metric, numerator, denominator):
    """At each point of `by`, the mean of `metric` in one series over its mean in another."""
    over = means(runs[numerator[1](runs)], by, metric) / \
        means(runs[denominator[1](runs)], by, metric)
    return over.rename(f"{numerator[0]} / {denominator[0]}").reset_index()


def grouped_bars(axis, table, groups, series, ylabel, fmt=None):
    """Bars of table[(group, serie)], one cluster per group, one colour per serie; `fmt`
    labels each bar with its value."""
    width = 0.8 / max(len(series), 1)
    for index, serie in enumerate(series):
        offsets = [g + (index - (len(series) - 1) / 2) * width for g in range(len(groups))]
        values = [table.get((group, serie), float("nan")) for group in groups]
        bars = axis.bar(offsets, values, width, label=serie, color=f"C{index}")
        if fmt:
            axis.bar_label(bars, fmt=fmt, fontsize=5, padding=1)
    axis.set_xticks(range(len(groups)), groups)
    axis.set_ylabel(ylabel)
    axis.grid(axis="x", visible=False)


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


def print_against_paper(title, rows):
    """rows: (what, ours, paper) triples; prints them with our value over the paper's."""
    frame = pd.DataFrame(rows, columns=["quantity", "incsim", "paper"])
    frame["incsim / paper"] = frame["incsim"] / frame["paper"]
    style.print_table(title, frame)


def print_ratio(title, runs, by, metric, numerator, denominator, claim):
    style.print_table(f"{title} (paper: {claim})", ratio(runs, by, metric, numerator, denominator))


def contention_figure(doc, name, x, xlabel, latency_claim):
    """Figs. 15 and 16: (a) throughput and (b) P50 latency against the contention level `x`,
    for FaSST, SwitchTx (+Tree-GaS) and SwitchTx (+all), with the ratios to FaSST."""
    series = [FASST, TREE_GAS, ALL]
    args, runs = load_sweep(doc, name, [THROUGHPUT, P50, MPL])
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
    print_ratio("P50 latency", runs, [x], P50, ALL, TREE_GAS,
                "S29/S30: +all's P50 against +Tree-GaS's")
    style.print_table(f"{ALL[0]}: MPL per thread, mean over epochs (paper: S29, it shrinks "
                      "as contention rises)", means(runs[ALL[1](runs)], [x], MPL).reset_index())
    save(fig, args, name)
