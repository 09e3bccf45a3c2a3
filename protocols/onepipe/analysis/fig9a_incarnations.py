#!/usr/bin/python3
"""1Pipe Fig. 9a: delivery latency on an idle network against process count, for the
programmable chip, switch CPU and host representative incarnations (best effort), reliable
1Pipe on the chip and the host representative, and the unordered baseline (error bars: 5th
and 95th percentiles).

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
SERVICE = "protocol.params.service"
PROCESSES = "onepipe.processes"


def variant(incarnation, service):
    return lambda runs: (runs[INCARNATION] == incarnation) & (runs[SERVICE] == service)


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig9a",
                            [PROCESSES, "onepipe.latency_mean_us", "onepipe.latency_p5_us",
                             "onepipe.latency_p95_us"])
    series = [("Unordered", equals("protocol.params.ordering", "none")),
              ("1Pipe/BE, programmable chip", variant("chip", "best-effort")),
              ("1Pipe/BE, switch CPU", variant("switch-cpu", "best-effort")),
              ("1Pipe/BE, host representative", variant("host-representative", "best-effort")),
              ("1Pipe/R, programmable chip", variant("chip", "reliable")),
              ("1Pipe/R, host representative", variant("host-representative", "reliable"))]
    fig, axis = plt.subplots(figsize=(3.4, 2.8))
    plot_series(axis, runs, PROCESSES, "onepipe.latency_mean_us", series,
                band=("onepipe.latency_p5_us", "onepipe.latency_p95_us"))
    axis.set_xscale("log", base=2)
    axis.set_xlabel("processes")
    axis.set_ylabel("delivery latency (µs)")
    axis.set_ylim(bottom=0)
    axis.legend(loc="upper left", fontsize="x-small")
    save(fig, args, "onepipe-fig9a")


if __name__ == "__main__":
    main()
