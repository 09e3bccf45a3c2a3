#!/usr/bin/python3
"""Gotthard Fig. 11: throughput against workload locality on the multi-switch topology
(paper Fig. 4: two groups of 8 clients behind edge switches G1 and G2, a middle switch S at
the store), for forwarding, the read cache and Gotthard on the two edge switches ("deployed
close to their respective clients"; the middle switch forwards).

usage: /usr/bin/python3 protocols/gotthard/analysis/fig11_locality.py --db results.sqlite --out DIR
Reads the "gotthard-fig11" sweep (scenarios/gotthard/fig11-locality.json): 10 keys, 5 local
to each group, Zipf exponent 3 within a set; locality is the share of each group's clients
that use their own set, so with 8 clients it moves in steps of 1/8. Writes
DIR/gotthard-fig11.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, plot_series, save  # noqa: E402
from gotthard_plots import THROUGHPUT, mode_ratio, mode_series  # noqa: E402

LOCALITY = "workload.locality"


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig11", [THROUGHPUT])
    fig, axis = plt.subplots(figsize=(3.4, 2.5))
    plot_series(axis, runs, LOCALITY, THROUGHPUT, mode_series())
    for baseline in ("read-cache", "forward"):
        style.print_table(f"throughput, Gotthard / {baseline}",
                          mode_ratio(runs, [LOCALITY], THROUGHPUT, "gotthard", baseline))
    axis.set_xlabel("locality (share of clients on local keys)")
    axis.set_ylabel("throughput (committed txn/s)")
    axis.set_ylim(bottom=0)
    axis.legend(loc="lower right")
    save(fig, args, "gotthard-fig11")


if __name__ == "__main__":
    main()
