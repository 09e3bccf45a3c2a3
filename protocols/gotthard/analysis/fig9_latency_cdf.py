#!/usr/bin/python3
"""Gotthard Fig. 9: CDF of committed transactions' latency at the paper's defaults (one
counter, 8 clients, 20% writes, delta 0.2, RTT 100 ms), for forwarding, the read cache and
Gotthard.

usage: /usr/bin/python3 protocols/gotthard/analysis/fig9_latency_cdf.py --db results.sqlite --out DIR
Reads the "gotthard-fig9" sweep (scenarios/gotthard/fig9-latency-cdf.json; its runs are
Fig. 7's at 20% writes). The CDF is drawn through the runs' latency percentiles (1st to 99th)
and the maximum. Writes DIR/gotthard-fig9.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, save  # noqa: E402
from gotthard_plots import MODE, MODES  # noqa: E402

PERCENTILES = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99]
METRICS = {p: f"gotthard.latency_p{p}_us" for p in PERCENTILES} | {100: "gotthard.latency_max_us"}


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig9", list(METRICS.values()))
    fig, axis = plt.subplots(figsize=(3.4, 2.5))
    for label, mode in MODES:
        means = runs[runs[MODE] == mode][list(METRICS.values())].mean()
        cdf = pd.DataFrame({"fraction": [p / 100 for p in METRICS],
                            "latency_ms": [means[m] / 1e3 for m in METRICS.values()]})
        axis.step(cdf["latency_ms"], cdf["fraction"], where="post", marker="o", markersize=3,
                  label=label)
        style.print_table(f"latency CDF, {label}", cdf[["latency_ms", "fraction"]])
    axis.set_xscale("log")
    axis.set_xlabel("latency (ms)")
    axis.set_ylabel("CDF of committed txns")
    axis.set_ylim(0, 1.02)
    axis.legend(loc="lower right")
    save(fig, args, "gotthard-fig9")


if __name__ == "__main__":
    main()
