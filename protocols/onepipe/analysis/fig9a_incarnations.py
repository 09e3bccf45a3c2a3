#!/usr/bin/python3
"""1Pipe Fig. 9a: delivery latency on an idle network against process count, for the
programmable chip, switch CPU and host representative incarnations and the unordered
baseline (error bars: 5th and 95th percentiles).

usage: /usr/bin/python3 protocols/onepipe/analysis/fig9a_incarnations.py --db results.sqlite --out DIR
Reads the "onepipe-fig9a" sweep (scenarios/onepipe/fig9a-incarnations.json); writes
DIR/onepipe-fig9a.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import equals, load_sweep, plot_series, save  # noqa: E402

INCARNATION = "protocol.params.incarnation"
PROCESSES = "onepipe.processes"


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig9a",
                            [PROCESSES, "onepipe.latency_mean_us", "onepipe.latency_p5_us",
                             "onepipe.latency_p95_us"])
    series = [("Unordered", equals("protocol.params.ordering", "none")),
              ("1Pipe, programmable chip", equals(INCARNATION, "chip")),
              ("1Pipe, switch CPU", equals(INCARNATION, "switch-cpu")),
              ("1Pipe, host representative", equals(INCARNATION, "host-representative"))]
    fig, axis = plt.subplots(figsize=(3.4, 2.5))
    plot_series(axis, runs, PROCESSES, "onepipe.latency_mean_us", series,
                band=("onepipe.latency_p5_us", "onepipe.latency_p95_us"))
    axis.set_xscale("log", base=2)
    axis.set_xlabel("processes")
    axis.set_ylabel("delivery latency (µs)")
    axis.set_ylim(bottom=0)
    axis.legend(loc="upper left")
    save(fig, args, "onepipe-fig9a")


if __name__ == "__main__":
    main()
