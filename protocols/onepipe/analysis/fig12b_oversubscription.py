#!/usr/bin/python3
"""1Pipe Fig. 12b: delivery latency of best-effort 1Pipe against the testbed's oversubscription
ratio, without and with 10 background bulk flows per host (error bars: 5th and 95th
percentiles).

usage: /usr/bin/python3 protocols/onepipe/analysis/fig12b_oversubscription.py --db results.sqlite --out DIR
Reads the "onepipe-fig12b" sweep (scenarios/onepipe/fig12b-oversubscription.json); writes
DIR/onepipe-fig12b.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from incsim_analysis.figure import equals, load_sweep, save  # noqa: E402
from onepipe_plots import LATENCY_AND_DELIVERY, latency_and_delivery  # noqa: E402

FLOWS = "background.flows_per_host"
RATIO = "topology.params.oversubscription"


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig12b", LATENCY_AND_DELIVERY)
    runs[RATIO] = runs[RATIO].astype(float)
    runs[FLOWS] = runs[FLOWS].astype(int)
    fig, _, _ = latency_and_delivery(
        runs, RATIO, [("no background", equals(FLOWS, 0)),
                      ("10 background flows/host", equals(FLOWS, 10))],
        "oversubscription (host : uplink bandwidth)")
    save(fig, args, "onepipe-fig12b")


if __name__ == "__main__":
    main()
