#!/usr/bin/python3
"""1Pipe Fig. 9b: delivery latency against the rate of random message drops in the lib1pipe
receiver (receive_loss, 1e-8 ... 1e-1; every 1Pipe packet a host or a host representative
receives, beacons included), 512 processes on the testbed, idle: best-effort and reliable
1Pipe on the chip, best effort with host representatives (error bars: 5th and 95th
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

LOSS = "protocol.params.receive_loss"
INCARNATION = "protocol.params.incarnation"
SERVICE = "protocol.params.service"


def variant(incarnation, service):
    return lambda runs: (runs[INCARNATION] == incarnation) & (runs[SERVICE] == service)


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig9b", LATENCY_AND_DELIVERY)
    runs[LOSS] = runs[LOSS].astype(float)
    fig, latency, delivered = latency_and_delivery(
        runs, LOSS, [("1Pipe/BE, chip", variant("chip", "best-effort")),
                     ("1Pipe/R, chip", variant("chip", "reliable")),
                     ("1Pipe/BE, host representative",
                      variant("host-representative", "best-effort"))],
        "receiver drop rate")
    latency.set_xscale("log")
    latency.set_yscale("log")
    latency.set_ylim(bottom=1)   # reliable grows about 8x, best effort hardly
    delivered.set_xscale("log")
    save(fig, args, "onepipe-fig9b")


if __name__ == "__main__":
    main()
