#!/usr/bin/python3
"""SwitchTx Fig. 14a-c: throughput against threads per server, (a) YCSB-T on the multi-switch
testbed and (b) on a single switch (FaSST, Eris with at most 5 threads per server, SwitchTx),
(c) TPC-C on the multi-switch testbed (FaSST, SwitchTx); 8 servers (Sec. 5.4).

usage: /usr/bin/python3 protocols/switchtx/analysis/fig14_threads.py --db results.sqlite --out DIR
Reads the "switchtx-fig14" sweep (scenarios/switchtx/fig14-threads.json: 2, 8, 16, 24 threads
per server; Eris at 2 and 5). SwitchTx is +all (+Tree-GaS, +Reorder and +MPL, dynamic). Writes
DIR/switchtx-fig14.png and .pdf and prints the plotted numbers and SwitchTx over FaSST beside
the paper's claims (S24, S25).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import load_sweep, save  # noqa: E402
from switchtx_plots import ALL, ERIS, FASST, THROUGHPUT, mops, panel, print_ratio  # noqa: E402

THREADS = "protocol.params.threads"
LAYOUT = "topology.params.layout"
KIND = "workload.kind"
PANELS = [("(a) YCSB-T, multi-switch", "multi", "ycsbt", [FASST, ERIS, ALL],
           "FaSST and SwitchTx scale with threads; Eris below SwitchTx even at small scale; "
           "SwitchTx up to 5.18 Mops"),
          ("(b) YCSB-T, single switch", "single", "ycsbt", [FASST, ERIS, ALL],
           "Eris above SwitchTx at its small scale (5 threads per server)"),
          ("(c) TPC-C, multi-switch", "multi", "tpcc", [FASST, ALL],
           "FaSST and SwitchTx scale with threads")]


def main():
    args, runs = load_sweep(__doc__, "switchtx-fig14", [THROUGHPUT])
    runs = mops(runs)
    fig, axes = plt.subplots(1, 3, figsize=(9.9, 2.6))
    for axis, (title, layout, kind, series, claim) in zip(axes, PANELS):
        line = runs[(runs[LAYOUT] == layout) & (runs[KIND] == kind)]
        panel(axis, line, THREADS, "mops", series, title, "threads per server",
              "throughput (Mtxn/s)", claim)
        print_ratio(f"{title}: throughput", line, [THREADS], "mops", ALL, FASST,
                    "S1: up to 2.16x over FaSST")
    save(fig, args, "switchtx-fig14")


if __name__ == "__main__":
    main()
