#!/usr/bin/python3
"""Gotthard Fig. 8a/8b: throughput and mean latency of committed transactions against the
number of clients (1 to 64), for forwarding, the read cache and Gotthard (paper defaults
otherwise: one counter, 20% writes, delta 0.2, RTT 100 ms).

usage: /usr/bin/python3 protocols/gotthard/analysis/fig8_clients.py --db results.sqlite --out DIR
Reads the "gotthard-fig8" sweep (scenarios/gotthard/fig8-clients.json); writes
DIR/gotthard-fig8.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from incsim_analysis.figure import load_sweep, save  # noqa: E402
from gotthard_plots import THROUGHPUT_AND_LATENCY, throughput_and_latency  # noqa: E402


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig8", THROUGHPUT_AND_LATENCY)
    fig, _, _ = throughput_and_latency(runs, "topology.params.clients", "clients")
    save(fig, args, "gotthard-fig8")


if __name__ == "__main__":
    main()
