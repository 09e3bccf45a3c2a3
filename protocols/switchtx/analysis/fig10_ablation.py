#!/usr/bin/python3
"""SwitchTx Fig. 10a-d: the ablation ladder FaSST -> +GaS (the core switch alone gathers) ->
+Tree-GaS (every switch of the tree) -> +Reorder -> +MPL (dynamic admission control, Listing 1,
100 us epochs), and Eris on YCSB-T: throughput, P50 and P99
latency and average lock time, on the multi-switch testbed (8 servers, 3 racks) for YCSB-T
Zipf 0.8 and 0.99 (MPL 2) and TPC-C with 24 and 4 warehouses per server (MPL 1).

usage: /usr/bin/python3 protocols/switchtx/analysis/fig10_ablation.py --db results.sqlite --out DIR
Reads the "switchtx-fig10" sweep (scenarios/switchtx/fig10-ablation.json): 24 threads per server
(Eris 5, its 40-shard header limit), 1 ms of transactions. Writes DIR/switchtx-fig10.png and .pdf and prints
the plotted numbers with the paper's ratios (S6-S18).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, save  # noqa: E402
from switchtx_plots import (METRIC, SYSTEMS, grouped_bars, means,  # noqa: E402
                            print_against_paper, with_systems)

WORKLOADS = ["YCSB-T 0.8", "YCSB-T 0.99", "TPC-C 24 wh", "TPC-C 4 wh"]
PANELS = [("throughput_txn_per_s", "throughput (Mops)", 1e-6),
          ("latency_p50_us", "P50 latency (us)", 1),
          ("latency_p99_us", "P99 latency (us)", 1),
          ("avg_lock_time_ns", "average lock time (us)", 1e-3)]
# The paper's +GaS over FaSST throughput (S7) per workload.
PAPER_GAS = {"YCSB-T 0.8": 1.63, "YCSB-T 0.99": 1.48, "TPC-C 24 wh": 1.54, "TPC-C 4 wh": 1.35}
# The paper's +MPL over +Reorder throughput (S10) per workload.
MPL_GAIN = {"YCSB-T 0.8": 1.050, "YCSB-T 0.99": 1.134, "TPC-C 24 wh": 1.048, "TPC-C 4 wh": 1.286}


def workload_of(row):
    if row["workload.kind"] == "ycsbt":
        return f"YCSB-T {row['workload.theta']:g}"
    return f"TPC-C {int(row['workload.warehouses_per_server'])} wh"


def main():
    args, runs = load_sweep(__doc__, "switchtx-fig10", [METRIC(m) for m, _, _ in PANELS])
    runs = with_systems(runs)
    runs = runs.assign(workload=runs.apply(workload_of, axis=1))
    fig, axes = plt.subplots(1, len(PANELS), figsize=(11, 2.6))
    tables = {}
    for axis, (metric, label, scale) in zip(axes, PANELS):
        column = f"{metric}_scaled"
        scaled = runs.assign(**{column: runs[METRIC(metric)] * scale})
        table = means(scaled, ["workload", "system"], column)
        tables[metric] = table
        grouped_bars(axis, table.to_dict(), WORKLOADS, SYSTEMS, label)
        axis.tick_params(axis="x", labelsize=6, labelrotation=15)
        style.print_table(label, table.unstack("system").reindex(
            index=WORKLOADS, columns=SYSTEMS).reset_index())
    axes[-1].legend(fontsize=6)  # TPC-C's lock times leave its upper right free
    throughput = tables["throughput_txn_per_s"]
    lock = tables["avg_lock_time_ns"]
    p50 = tables["latency_p50_us"]
    p99 = tables["latency_p99_us"]
    rows = []
    for workload in WORKLOADS:
        fasst = throughput[(workload, "FaSST")]
        rows.append((f"{workload}: +GaS / FaSST throughput (S7)",
                     throughput[(workload, "+GaS")] / fasst, PAPER_GAS[workload]))
        best = max(throughput[(workload, s)] for s in SYSTEMS[1:] if (workload, s) in throughput)
        rows.append((f"{workload}: best step / FaSST throughput (S6)",
                     best / fasst, 1.81 if workload.startswith("YCSB") else 1.87))
        rows.append((f"{workload}: +Tree-GaS / +GaS throughput (S8: 1.021-1.078)",
                     throughput[(workload, "+Tree-GaS")] / throughput[(workload, "+GaS")],
                     1.05))
        rows.append((f"{workload}: +Reorder / +Tree-GaS throughput (S9: up to 1.072)",
                     throughput[(workload, "+Reorder")] / throughput[(workload, "+Tree-GaS")],
                     1.072))
        rows.append((f"{workload}: +Reorder / +Tree-GaS P99 (S13: down to 0.923)",
                     p99[(workload, "+Reorder")] / p99[(workload, "+Tree-GaS")], 0.923))
        rows.append((f"{workload}: +MPL / +Reorder throughput (S10)",
                     throughput[(workload, "+MPL")] / throughput[(workload, "+Reorder")],
                     MPL_GAIN[workload]))
        rows.append((f"{workload}: +Tree-GaS / FaSST P50 (S14: down to 0.596 YCSB-T, 0.784 TPC-C)",
                     p50[(workload, "+Tree-GaS")] / p50[(workload, "FaSST")],
                     0.596 if workload.startswith("YCSB") else 0.784))
    rows.append(("YCSB-T 0.8: +GaS / FaSST lock time (S17)",
                 lock[("YCSB-T 0.8", "+GaS")] / lock[("YCSB-T 0.8", "FaSST")], 0.585))
    rows.append(("YCSB-T 0.8: Eris / FaSST throughput (S11)",
                 throughput[("YCSB-T 0.8", "Eris")] / throughput[("YCSB-T 0.8", "FaSST")], 0.377))
    rows.append(("YCSB-T 0.99: Eris / FaSST throughput (S12)",
                 throughput[("YCSB-T 0.99", "Eris")] / throughput[("YCSB-T 0.99", "FaSST")], 0.55))
    rows.append(("FaSST lock time, YCSB-T 0.99 / 0.8 (S18: below 1)",
                 lock[("YCSB-T 0.99", "FaSST")] / lock[("YCSB-T 0.8", "FaSST")], 1.0))
    print_against_paper("Fig. 10 against the paper", rows)
    save(fig, args, "switchtx-fig10")


if __name__ == "__main__":
    pd.set_option("display.width", 200)
    main()
