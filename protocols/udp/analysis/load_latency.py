#!/usr/bin/python3
"""UDP message latency and goodput against offered load, per-flow ECMP against per-packet
spraying (k=4 fat-tree, uniform all-to-all traffic). A simulator check, not a paper figure.

usage: /usr/bin/python3 protocols/udp/analysis/load_latency.py --db results.sqlite --out DIR
Reads the "udp-load" sweep (scenarios/sweeps/udp-load.json); writes DIR/udp-load-latency.png
and .pdf and prints the plotted numbers.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.results import load_runs, summarize  # noqa: E402

LOAD = "workload.load"
ECMP = "routing.ecmp"
SYSTEMS = {"per-flow": "ECMP, per-flow hash", "per-packet": "ECMP, per-packet spraying"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    runs = load_runs(args.db, sweep="udp-load",
                     metrics=["udp.latency_p99_us", "udp.goodput_gbps"])
    if runs.empty:
        sys.exit(f"{args.db}: no finished runs of the udp-load sweep")
    style.apply()
    fig, (latency, goodput) = plt.subplots(1, 2, figsize=(6.6, 2.4))
    for mode, label in SYSTEMS.items():
        subset = runs[runs[ECMP] == mode]
        for axis, metric in ((latency, "udp.latency_p99_us"), (goodput, "udp.goodput_gbps")):
            table = summarize(subset, [LOAD], metric)
            axis.errorbar(table[LOAD] * 100, table["mean"], yerr=table["ci95"], marker="o",
                          markersize=3, capsize=2, label=label)
            style.print_table(f"{metric}, {label} (mean and 95% CI over repetitions)", table)
    latency.set_xlabel("offered load (% of host link rate)")
    latency.set_ylabel("99th percentile latency (µs)")
    goodput.set_xlabel("offered load (% of host link rate)")
    goodput.set_ylabel("goodput (Gbps)")
    latency.legend(loc="upper left")
    fig.tight_layout()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    for path in style.save(fig, str(Path(args.out) / "udp-load-latency")):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
