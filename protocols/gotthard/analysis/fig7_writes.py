#!/usr/bin/python3
"""Gotthard Fig. 7a/7b: throughput and mean latency of committed transactions against the
share of writes (0 to 1), for forwarding, the read cache and Gotthard (paper defaults
otherwise: one counter, 8 clients, delta 0.2, RTT 100 ms).

usage: /usr/bin/python3 protocols/gotthard/analysis/fig7_writes.py --db results.sqlite --out DIR
Reads the "gotthard-fig7" sweep (scenarios/gotthard/fig7-writes.json); writes
DIR/gotthard-fig7.png and .pdf and prints the plotted numbers. At 100% writes the baselines'
latency falls back to one RTT: only one client ever commits (the others keep aborting), and
latency counts committed transactions only.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from incsim_analysis.figure import load_sweep, save  # noqa: E402
from gotthard_plots import THROUGHPUT_AND_LATENCY, throughput_and_latency  # noqa: E402


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig7", THROUGHPUT_AND_LATENCY)
    fig, _, _ = throughput_and_latency(runs, "workload.writes", "share of write transactions")
    save(fig, args, "gotthard-fig7")


if __name__ == "__main__":
    main()
