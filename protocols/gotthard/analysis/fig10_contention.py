#!/usr/bin/python3
"""Gotthard Fig. 10a/10b: throughput and mean latency of committed transactions against
contention, the Zipf exponent of key popularity over 10 keys (0: uniform), for forwarding,
the read cache and Gotthard (paper defaults otherwise: 8 clients, 20% writes, delta 0.2).

usage: /usr/bin/python3 protocols/gotthard/analysis/fig10_contention.py --db results.sqlite --out DIR
Reads the "gotthard-fig10" sweep (scenarios/gotthard/fig10-contention.json); writes
DIR/gotthard-fig10.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from incsim_analysis.figure import load_sweep, save  # noqa: E402
from gotthard_plots import THROUGHPUT_AND_LATENCY, throughput_and_latency  # noqa: E402


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig10", THROUGHPUT_AND_LATENCY)
    fig, _, _ = throughput_and_latency(runs, "workload.zipf", "Zipf exponent (10 keys)")
    save(fig, args, "gotthard-fig10")


if __name__ == "__main__":
    main()
