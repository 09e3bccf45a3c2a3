#!/usr/bin/python3
"""1Pipe Fig. 9b: delivery latency of best-effort 1Pipe against the packet loss rate of every
link (1e-8 ... 1e-1), 64 processes broadcasting on the testbed (error bars: 5th and 95th
percentiles).

usage: /usr/bin/python3 protocols/onepipe/analysis/fig9b_loss.py --db results.sqlite --out DIR
Reads the "onepipe-fig9b" sweep (scenarios/onepipe/fig9b-loss.json); writes
DIR/onepipe-fig9b.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from incsim_analysis.figure import load_sweep, save  # noqa: E402
from onepipe_plots import LATENCY_AND_DELIVERY, latency_and_delivery  # noqa: E402

LOSS = "links.loss"


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig9b", LATENCY_AND_DELIVERY)
    runs[LOSS] = runs[LOSS].astype(float)
    fig, latency, delivered = latency_and_delivery(
        runs, LOSS, [("1Pipe best effort", lambda frame: frame[LOSS] >= 0)],
        "packet loss rate per link")
    latency.set_xscale("log")
    delivered.set_xscale("log")
    save(fig, args, "onepipe-fig9b")


if __name__ == "__main__":
    main()
