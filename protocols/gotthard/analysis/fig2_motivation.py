#!/usr/bin/python3
"""Gotthard Fig. 2: time to complete 1000 transactions as the workload gets more
write-heavy, for forwarding, the read cache and Gotthard, and each one's speedup over
forwarding (the paper: the read cache stops helping above about 15% writes).

usage: /usr/bin/python3 protocols/gotthard/analysis/fig2_motivation.py --db results.sqlite --out DIR
Reads the "gotthard-fig7" sweep (scenarios/gotthard/fig7-writes.json; Fig. 7 plots the same
runs): the time for 1000 transactions is 1000 over the committed throughput. Writes
DIR/gotthard-fig2.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, plot_series, save  # noqa: E402
from gotthard_plots import MODES, THROUGHPUT, mode_ratio, mode_series  # noqa: E402

WRITES = "workload.writes"


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig7", [THROUGHPUT])
    runs["seconds_per_1000_txn"] = 1000 / runs[THROUGHPUT]
    fig, (time, speedup) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    plot_series(time, runs, WRITES, "seconds_per_1000_txn", mode_series(), title="(a) ")
    time.set_ylabel("time for 1000 transactions (s)")
    time.legend()
    speedup.axhline(1, color="black", linewidth=0.8)
    for color, (label, mode) in enumerate(MODES):
        if mode == "forward":
            continue
        ratio = mode_ratio(runs, [WRITES], THROUGHPUT, mode, "forward")
        speedup.plot(ratio[WRITES], ratio[ratio.columns[-1]], marker="o", markersize=3,
                     color=f"C{color}", label=label)
        style.print_table(f"(b) speedup over forwarding, {label}", ratio)
    speedup.set_ylabel("throughput / forwarding's")
    speedup.legend()
    for axis in (time, speedup):
        axis.set_xlabel("share of write transactions")
        axis.set_ylim(bottom=0)
    save(fig, args, "gotthard-fig2")


if __name__ == "__main__":
    main()
