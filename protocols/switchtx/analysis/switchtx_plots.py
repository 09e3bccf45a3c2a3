"""SwitchTx's plotting helpers: the systems of the ablation ladder named from a run's
parameters, grouped bars, and the paper's numbers printed beside ours."""

import pandas as pd

from incsim_analysis import style
from incsim_analysis.results import summarize

COORDINATION = "protocol.params.coordination"
SCOPE = "protocol.params.scope"
REORDER = "protocol.params.reorder"
ADMISSION = "protocol.params.admission"
METRIC = "switchtx.{}".format

# The ablation ladder (Fig. 10), in the paper's order.
SYSTEMS = ["Eris", "FaSST", "+GaS", "+Tree-GaS", "+Reorder", "+MPL"]


def system_of(row):
    """The ladder step a run is: coordination, scope and reorder."""
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


def means(runs, by, metric):
    """The mean of `metric` over repetitions at each point of `by`, indexed by `by`."""
    return summarize(runs, by, metric).set_index(by)["mean"]


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


def print_against_paper(title, rows):
    """rows: (what, ours, paper) triples; prints them with our value over the paper's."""
    frame = pd.DataFrame(rows, columns=["quantity", "incsim", "paper"])
    frame["incsim / paper"] = frame["incsim"] / frame["paper"]
    style.print_table(title, frame)
