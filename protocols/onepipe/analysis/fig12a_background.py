#!/usr/bin/python3
"""1Pipe Fig. 12a: delivery latency of best-effort and reliable 1Pipe against the number of
background DCTCP flows per host, 32 processes broadcasting on the non-blocking testbed (error
bars: 5th and 95th percentiles).

usage: /usr/bin/python3 protocols/onepipe/analysis/fig12a_background.py --db results.sqlite --out DIR
Reads the "onepipe-fig12a" sweep (scenarios/onepipe/fig12a-background.json); writes
DIR/onepipe-fig12a.png and .pdf, prints the plotted numbers and each series' inflation at 10
flows (paper, R10: BE 30 us, R 50 us), and checks that latency rises with the flows in both.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from incsim_analysis.figure import equals, load_sweep, save  # noqa: E402
from onepipe_plots import LATENCY_AND_DELIVERY, SERVICES, check_rises, latency_and_delivery  # noqa: E402,E501

FLOWS = "background.flows_per_host"
SERVICE = "protocol.params.service"


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig12a", LATENCY_AND_DELIVERY)
    runs[FLOWS] = runs[FLOWS].astype(int)
    series = [(label, equals(SERVICE, service)) for label, service in SERVICES]
    fig, _, _ = latency_and_delivery(runs, FLOWS, series, "background flows per host")
    save(fig, args, "onepipe-fig12a")
    for label, mask in series:
        check_rises(runs[mask(runs)], FLOWS, label)


if __name__ == "__main__":
    main()
