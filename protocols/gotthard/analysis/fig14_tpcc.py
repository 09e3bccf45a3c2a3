#!/usr/bin/python3
"""Gotthard Fig. 14: TPC-C Payment and Order-Status transactions, throughput (a-d) and mean
latency (e-h) of committed transactions of each kind against the delta ratio (8 clients) and
the number of clients (delta 0.2), for forwarding, the read cache and Gotthard (paper
defaults otherwise: 1 warehouse, 2 districts, 10 customers per district, Payment :
Order-Status 43 : 4, RTT 100 ms).

usage: /usr/bin/python3 protocols/gotthard/analysis/fig14_tpcc.py --db results.sqlite --out DIR
Reads the "gotthard-fig14" sweep (scenarios/gotthard/fig14-tpcc.json): two lines through the
parameter space that meet at the defaults, delta 0 to 1 at 8 clients and 1 to 24 clients at
delta 0.2. Writes DIR/gotthard-fig14.png and .pdf and prints the plotted numbers, with
Gotthard's throughput over the read cache's.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import equals, load_sweep, plot_series, save  # noqa: E402
from gotthard_plots import mode_ratio, mode_series  # noqa: E402

DELTA = "topology.params.delta"
CLIENTS = "topology.params.clients"
# The four columns: transaction kind, x, the other parameter held at its default.
COLUMNS = [("Payment", "payment", DELTA, "delta ratio", (CLIENTS, 8)),
           ("Payment", "payment", CLIENTS, "clients", (DELTA, 0.2)),
           ("Order-Status", "order_status", DELTA, "delta ratio", (CLIENTS, 8)),
           ("Order-Status", "order_status", CLIENTS, "clients", (DELTA, 0.2))]
ROWS = [("throughput_txn_per_s", "throughput (txn/s)"), ("latency_mean_ms", "mean latency (ms)")]


def metric(kind, name):
    return f"gotthard.kinds.{kind}.{name}"


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig14",
                            [metric(kind, name) for kind in ("payment", "order_status")
                             for name in ("throughput_txn_per_s", "latency_mean_us")])
    for kind in ("payment", "order_status"):
        runs[metric(kind, "latency_mean_ms")] = runs[metric(kind, "latency_mean_us")] / 1e3
    fig, axes = plt.subplots(2, 4, figsize=(13.2, 5.0))
    letters = iter("abcdefgh")
    for row, (name, ylabel) in enumerate(ROWS):
        for column, (label, kind, x, xlabel, (fixed, value)) in enumerate(COLUMNS):
            line = runs[equals(fixed, value)(runs)]
            axis = axes[row, column]
            title = f"({next(letters)}) {label}"
            plot_series(axis, line, x, metric(kind, name), mode_series(), title=f"{title}: ")
            # Forwarding's line is drawn wide: the read cache's, which TPC-C gives nothing to
            # answer (clients keep the records they read), can lie right on it.
            axis.containers[0].lines[0].set(linewidth=4, alpha=0.5)
            if row == 0:
                style.print_table(f"{title}: throughput, Gotthard / read cache",
                                  mode_ratio(line, [x], metric(kind, name)))
            axis.set_title(title)
            axis.set_xlabel(xlabel)
            axis.set_ylabel(f"{label} {ylabel}")
            axis.set_ylim(bottom=0)
    axes[0, 0].legend()
    save(fig, args, "gotthard-fig14")


if __name__ == "__main__":
    main()
