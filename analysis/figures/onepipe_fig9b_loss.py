#!/usr/bin/python3
"""1Pipe Fig. 9b: delivery latency of best-effort 1Pipe against the packet loss rate of every
link (1e-8 ... 1e-1), 64 processes broadcasting on the testbed (error bars: 5th and 95th
percentiles).

usage: /usr/bin/python3 analysis/figures/onepipe_fig9b_loss.py --db results.sqlite --out DIR
Reads the "onepipe-fig9b" sweep (scenarios/onepipe/fig9b-loss.json); writes
DIR/onepipe-fig9b.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import load_sweep, plot_series, save  # noqa: E402

LOSS = "links.loss"


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig9b",
                            ["onepipe.latency_mean_us", "onepipe.latency_p5_us",
                             "onepipe.latency_p95_us", "onepipe.delivery_ratio"])
    runs[LOSS] = runs[LOSS].astype(float)
    fig, (latency, delivered) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    everything = [("1Pipe best effort", lambda frame: frame[LOSS] >= 0)]
    plot_series(latency, runs, LOSS, "onepipe.latency_mean_us", everything,
                band=("onepipe.latency_p5_us", "onepipe.latency_p95_us"))
    plot_series(delivered, runs, LOSS, "onepipe.delivery_ratio", everything)
    for axis in (latency, delivered):
        axis.set_xscale("log")
        axis.set_xlabel("packet loss rate per link")
    latency.set_ylabel("delivery latency (µs)")
    latency.set_ylim(bottom=0)
    delivered.set_ylabel("messages delivered / sent")
    save(fig, args, "onepipe-fig9b")


if __name__ == "__main__":
    main()
