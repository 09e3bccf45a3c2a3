#!/usr/bin/python3
"""1Pipe Fig. 13b: beacon bandwidth overhead per link against the beacon interval (100G
links, k=4 fat-tree, idle network; mean over link directions and the busiest one).

usage: /usr/bin/python3 protocols/onepipe/analysis/fig13b_beacons.py --db results.sqlite --out DIR
Reads the "onepipe-fig13b" sweep (scenarios/onepipe/fig13b-beacon-overhead.json); writes
DIR/onepipe-fig13b.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import load_sweep, plot_series, save  # noqa: E402

INTERVAL = "protocol.params.beacon_interval"


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig13b",
                            ["onepipe.beacon_overhead_mean", "onepipe.beacon_overhead_max"])
    runs["interval_us"] = runs[INTERVAL].str.removesuffix("us").astype(float)
    runs["mean_percent"] = runs["onepipe.beacon_overhead_mean"] * 100
    runs["max_percent"] = runs["onepipe.beacon_overhead_max"] * 100
    fig, axis = plt.subplots(figsize=(3.4, 2.5))
    everything = [("mean over links", lambda frame: frame[INTERVAL].notna())]
    plot_series(axis, runs, "interval_us", "mean_percent", everything)
    plot_series(axis, runs, "interval_us", "max_percent",
                [("busiest link", lambda frame: frame[INTERVAL].notna())])
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("beacon interval (µs)")
    axis.set_ylabel("beacon bandwidth (% of 100G)")
    axis.legend(loc="upper right")
    save(fig, args, "onepipe-fig13b")


if __name__ == "__main__":
    main()
