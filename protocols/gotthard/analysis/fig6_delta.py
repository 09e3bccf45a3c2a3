#!/usr/bin/python3
"""Gotthard Fig. 6a/6b: throughput and mean latency of committed transactions against the
delta ratio (0: the switch at the clients, 1: at the store), for forwarding, the read cache
and Gotthard (paper defaults otherwise: one counter, 8 clients, 20% writes, RTT 100 ms).

usage: /usr/bin/python3 protocols/gotthard/analysis/fig6_delta.py --db results.sqlite --out DIR
Reads the "gotthard-fig6" sweep (scenarios/gotthard/fig6-delta.json); writes
DIR/gotthard-fig6.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from incsim_analysis.figure import load_sweep, save  # noqa: E402
from gotthard_plots import THROUGHPUT_AND_LATENCY, throughput_and_latency  # noqa: E402


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig6", THROUGHPUT_AND_LATENCY)
    fig, _, _ = throughput_and_latency(runs, "topology.params.delta",
                                       "delta ratio (switch-client / client-store delay)")
    save(fig, args, "gotthard-fig6")


if __name__ == "__main__":
    main()
