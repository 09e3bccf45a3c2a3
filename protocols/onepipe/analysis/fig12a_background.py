#!/usr/bin/python3
"""1Pipe Fig. 12a: delivery latency of best-effort 1Pipe against the number of background bulk
flows per host, 32 processes broadcasting on the non-blocking testbed (error bars: 5th and 95th
percentiles).

usage: /usr/bin/python3 protocols/onepipe/analysis/fig12a_background.py --db results.sqlite --out DIR
Reads the "onepipe-fig12a" sweep (scenarios/onepipe/fig12a-background.json); writes
DIR/onepipe-fig12a.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from incsim_analysis.figure import load_sweep, save  # noqa: E402
from onepipe_plots import LATENCY_AND_DELIVERY, latency_and_delivery  # noqa: E402

FLOWS = "background.flows_per_host"


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig12a", LATENCY_AND_DELIVERY)
    runs[FLOWS] = runs[FLOWS].astype(int)
    fig, _, _ = latency_and_delivery(
        runs, FLOWS, [("1Pipe best effort", lambda frame: frame[FLOWS] >= 0)],
        "background flows per host")
    save(fig, args, "onepipe-fig12a")


if __name__ == "__main__":
    main()
