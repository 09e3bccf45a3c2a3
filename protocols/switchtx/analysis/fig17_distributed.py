#!/usr/bin/python3
"""SwitchTx Fig. 17: throughput against the share of distributed transactions, (a) YCSB-T
against partitions per transaction and (b) TPC-C against the share of remote items in
New-Order, FaSST and SwitchTx on the multi-switch testbed, 8 servers x 24 threads (Sec. 5.5.2).

usage: /usr/bin/python3 protocols/switchtx/analysis/fig17_distributed.py --db results.sqlite --out DIR
Reads the "switchtx-fig17" sweep (scenarios/switchtx/fig17-distributed.json: 1, 2, 4, 8
partitions; 0, 25, 50, 100% remote items). SwitchTx is +all (+Tree-GaS, +Reorder and +MPL,
dynamic); SwitchTx (+Tree-GaS, static MPL) is drawn beside it, to tell GaS's gain from the
admission control's. Writes DIR/switchtx-fig17.png and .pdf and prints the plotted numbers and
each SwitchTx over FaSST beside the paper's claims (S31, S32).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import load_sweep, save  # noqa: E402
from switchtx_plots import ALL, FASST, THROUGHPUT, TREE_GAS, mops, panel, print_ratio  # noqa: E402,E501

KIND = "workload.kind"
PANELS = [("(a) YCSB-T", "ycsbt", "workload.partitions_per_txn", "partitions per transaction",
           "S31: SwitchTx / FaSST from 1.17x to 1.81x as partitions grow"),
          ("(b) TPC-C", "tpcc", "workload.remote_items", "share of remote New-Order items",
           "S32: SwitchTx / FaSST from 1.11x to 1.86x as remote items grow")]


def main():
    args, runs = load_sweep(__doc__, "switchtx-fig17", [THROUGHPUT])
    runs = mops(runs)
    fig, axes = plt.subplots(1, 2, figsize=(6.6, 2.6))
    for axis, (title, kind, x, xlabel, claim) in zip(axes, PANELS):
        line = runs[runs[KIND] == kind]
        panel(axis, line, x, "mops", [FASST, TREE_GAS, ALL], title, xlabel,
              "throughput (Mtxn/s)", claim)
        for numerator in (TREE_GAS, ALL):
            print_ratio(f"{title}: throughput, {numerator[0]}", line, [x], "mops", numerator,
                        FASST, claim)
    save(fig, args, "switchtx-fig17")


if __name__ == "__main__":
    main()
