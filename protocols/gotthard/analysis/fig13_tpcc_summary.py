#!/usr/bin/python3
"""Gotthard Fig. 13: summary of TPC-C throughput, committed transactions per second of all
transactions, of Payment and of Order-Status, for forwarding, the read cache and Gotthard
(paper defaults: 1 warehouse, 2 districts, 10 customers per district, Payment : Order-Status
43 : 4, 8 clients, delta 0.2, RTT 100 ms).

usage: /usr/bin/python3 protocols/gotthard/analysis/fig13_tpcc_summary.py --db results.sqlite --out DIR
Reads the "gotthard-fig13" sweep (scenarios/gotthard/fig13-tpcc-summary.json). The paper's
bars for New-Order, Delivery and Stock-Level have no counterpart: the workload runs Payment
and Order-Status only. Clients keep the records they have read (paper Sec. 5.4), so the
transactions carry compares and writes but no reads, and the read cache has nothing to answer:
its bars are forwarding's. Writes DIR/gotthard-fig13.png and .pdf and prints the plotted
numbers, with Gotthard's throughput over the read cache's.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, save  # noqa: E402
from gotthard_plots import MODE, MODES, THROUGHPUT  # noqa: E402
from incsim_analysis.results import summarize  # noqa: E402

KINDS = [("All", THROUGHPUT),
         ("Payment", "gotthard.kinds.payment.throughput_txn_per_s"),
         ("Order-Status", "gotthard.kinds.order_status.throughput_txn_per_s")]


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig13", [metric for _, metric in KINDS])
    table = pd.DataFrame({kind: summarize(runs, [MODE], metric).set_index(MODE)["mean"]
                          for kind, metric in KINDS})
    table = table.loc[[mode for _, mode in MODES]]
    fig, axis = plt.subplots(figsize=(3.8, 2.5))
    width = 0.8 / len(MODES)
    for index, (label, mode) in enumerate(MODES):
        offsets = [group + (index - (len(MODES) - 1) / 2) * width for group in range(len(KINDS))]
        bars = axis.bar(offsets, table.loc[mode], width, label=label, color=f"C{index}")
        axis.bar_label(bars, fmt="%.1f", fontsize=6, padding=1)
    axis.set_xticks(range(len(KINDS)), [kind for kind, _ in KINDS])
    axis.set_ylabel("throughput (committed txn/s)")
    axis.set_ylim(top=axis.get_ylim()[1] * 1.08)
    axis.grid(axis="x", visible=False)
    axis.legend()
    style.print_table("throughput (committed txn/s) by transaction", table.reset_index())
    ratio = (table.loc["gotthard"] / table.loc["read-cache"]).rename("gotthard / read-cache")
    style.print_table("throughput, Gotthard / read cache",
                      ratio.rename_axis("transaction").reset_index())
    save(fig, args, "gotthard-fig13")


if __name__ == "__main__":
    main()
