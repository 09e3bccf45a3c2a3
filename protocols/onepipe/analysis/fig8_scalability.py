#!/usr/bin/python3
"""1Pipe Fig. 8: throughput and latency of total-order broadcast against process count, for
1Pipe and the four baselines (sequencer in a switch, sequencer on a host NIC, token passing,
Lamport timestamps with periodic exchange), 64-byte all-to-all broadcast on the testbed.

usage: /usr/bin/python3 protocols/onepipe/analysis/fig8_scalability.py --db results.sqlite --out DIR
Reads the "onepipe-fig8" sweep (scenarios/onepipe/fig8-scalability.json): throughput from the
saturating runs (a broadcast every 2 us per process), latency from the light ones (every
20 us). Writes DIR/onepipe-fig8.png and .pdf and prints the plotted numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import equals, load_sweep, plot_series, save  # noqa: E402

ORDERING = "protocol.params.ordering"
INTERVAL = "workload.interval"
PROCESSES = "onepipe.processes"
SYSTEMS = [("1Pipe", "total"), ("Switch sequencer", "sequencer-switch"),
           ("Host NIC sequencer", "sequencer-host"), ("Token", "token"),
           ("Lamport", "lamport")]


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig8",
                            [PROCESSES, "onepipe.throughput_per_process_msgs_per_s",
                             "onepipe.latency_mean_us", "onepipe.latency_p5_us",
                             "onepipe.latency_p95_us"])
    runs["throughput_per_process_M"] = runs["onepipe.throughput_per_process_msgs_per_s"] / 1e6
    series = [(label, equals(ORDERING, ordering)) for label, ordering in SYSTEMS]
    fig, (throughput, latency) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    plot_series(throughput, runs[runs[INTERVAL] == "2us"], PROCESSES,
                "throughput_per_process_M", series, title="(a) saturated: ")
    plot_series(latency, runs[runs[INTERVAL] == "20us"], PROCESSES, "onepipe.latency_mean_us",
                series, band=("onepipe.latency_p5_us", "onepipe.latency_p95_us"),
                title="(b) light load: ")
    for axis in (throughput, latency):
        axis.set_xscale("log", base=2)
        axis.set_xlabel("processes")
    throughput.set_ylabel("throughput per process (M msg/s)")
    latency.set_ylabel("latency (µs)")
    latency.set_yscale("log")
    throughput.legend(loc="upper right")
    save(fig, args, "onepipe-fig8")


if __name__ == "__main__":
    main()
