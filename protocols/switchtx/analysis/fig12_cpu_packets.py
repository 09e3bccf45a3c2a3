#!/usr/bin/python3
"""SwitchTx Fig. 12: CPU and packets by function without (FaSST's server-based coordination)
and with in-switch GaS (+Tree-GaS), against the shards per transaction (YCSB-T Zipf 0.8, the
multi-switch testbed, 8 servers x 24 threads, 2-way replication, MPL 2).

usage: /usr/bin/python3 protocols/switchtx/analysis/fig12_cpu_packets.py --db results.sqlite --out DIR
Reads the "switchtx-fig12" sweep (scenarios/switchtx/fig12-cpu-packets.json). (a) each
function's share of the servers' CPU time; (b) the messages a server handles per committed
transaction, by function (a thread's jobs; coordination = gather, the client counting phase
replies and sending the next phase). Writes DIR/switchtx-fig12.png and .pdf and prints the
plotted numbers with the paper's (S21, S22).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, save  # noqa: E402
from switchtx_plots import COORDINATION, METRIC, print_against_paper  # noqa: E402

SHARDS = "workload.partitions_per_txn"
FUNCTIONS = ["execute", "read", "lock", "validate", "commit_backup", "commit_primary", "abort",
             "gather", "reply"]
SYSTEMS = [("fasst", "FaSST"), ("switch", "GaS")]


def main():
    metrics = ([METRIC(f"cpu_ns_by_function.{f}") for f in FUNCTIONS]
               + [METRIC(f"jobs_by_function.{f}") for f in FUNCTIONS]
               + [METRIC("committed"), METRIC("servers")])
    args, runs = load_sweep(__doc__, "switchtx-fig12", metrics)
    runs = runs.groupby([COORDINATION, SHARDS]).mean(numeric_only=True)
    cpu = pd.DataFrame({f: runs[METRIC(f"cpu_ns_by_function.{f}")] for f in FUNCTIONS})
    cpu = 100 * cpu.div(cpu.sum(axis=1), axis=0)
    jobs = pd.DataFrame({f: runs[METRIC(f"jobs_by_function.{f}")] for f in FUNCTIONS})
    jobs = jobs.div(runs[METRIC("committed")] * runs[METRIC("servers")], axis=0)
    fig, axes = plt.subplots(1, 2, figsize=(8, 2.8))
    for axis, table, label in ((axes[0], cpu, "(a) CPU time by function (%)"),
                               (axes[1], jobs, "(b) messages per txn per server")):
        labels, bottoms = [], None
        rows = [(system, shards) for system, _ in SYSTEMS
                for shards in sorted(table.index.get_level_values(SHARDS).unique())]
        labels = [f"{name}\n{shards}" for system, name in SYSTEMS
                  for shards in sorted(table.index.get_level_values(SHARDS).unique())]
        bottoms = [0.0] * len(rows)
        for index, function in enumerate(FUNCTIONS):
            values = [table.loc[row, function] if row in table.index else 0 for row in rows]
            axis.bar(range(len(rows)), values, bottom=bottoms, color=f"C{index}", label=function)
            bottoms = [b + v for b, v in zip(bottoms, values)]
        axis.set_xticks(range(len(rows)), labels, fontsize=6)
        axis.set_xlabel("system and shards per transaction")
        axis.set_ylabel(label)
        axis.grid(axis="x", visible=False)
        style.print_table(label, table.reset_index())
    axes[1].legend(fontsize=5, ncol=2)
    fasst = cpu.loc["fasst"]
    gas_jobs = jobs.loc["switch"]
    print_against_paper("Fig. 12 against the paper", [
        ("FaSST coordination CPU share, fewest shards (%) S21", fasst["gather"].iloc[0], 24.2),
        ("FaSST coordination CPU share, most shards (%) S21", fasst["gather"].iloc[-1], 33.0),
        ("GaS coordination (gather) messages per txn per server S22",
         gas_jobs["gather"].iloc[-1], 1.6)])
    save(fig, args, "switchtx-fig12")


if __name__ == "__main__":
    main()
