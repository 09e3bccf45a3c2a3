#!/usr/bin/python3
"""1Pipe Fig. 12b: delivery latency of best-effort and reliable 1Pipe against the testbed's
oversubscription ratio, without and with 10 background DCTCP flows per host (error bars: 5th
and 95th percentiles).

usage: /usr/bin/python3 protocols/onepipe/analysis/fig12b_oversubscription.py --db results.sqlite --out DIR
Reads the "onepipe-fig12b" sweep (scenarios/onepipe/fig12b-oversubscription.json); writes
DIR/onepipe-fig12b.png and .pdf, prints the plotted numbers, and checks that with background
flows latency rises with the ratio in both services.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from incsim_analysis.figure import load_sweep, save  # noqa: E402
from onepipe_plots import LATENCY_AND_DELIVERY, SERVICES, check_rises, latency_and_delivery  # noqa: E402,E501

FLOWS = "background.flows_per_host"
RATIO = "topology.params.oversubscription"
SERVICE = "protocol.params.service"


def selected(service, flows):
    return lambda frame: (frame[SERVICE] == service) & (frame[FLOWS] == flows)


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig12b", LATENCY_AND_DELIVERY)
    runs[RATIO] = runs[RATIO].astype(float)
    runs[FLOWS] = runs[FLOWS].astype(int)
    series = [(f"{label}, {flows and '10 flows/host' or 'idle'}", selected(service, flows))
              for label, service in SERVICES for flows in (0, 10)]
    fig, _, _ = latency_and_delivery(runs, RATIO, series,
                                     "oversubscription (host : uplink bandwidth)")
    save(fig, args, "onepipe-fig12b")
    for label, service in SERVICES:
        check_rises(runs[selected(service, 10)(runs)], RATIO, f"{label} with 10 flows/host",
                    monotone=False)


if __name__ == "__main__":
    main()
