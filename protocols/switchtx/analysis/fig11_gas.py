#!/usr/bin/python3
"""SwitchTx Fig. 11: P50 and P99 latency of GaS operations against the servers per operation
n (2..8), in-server against in-switch GaS, on the single-switch and the multi-switch testbed
(8 servers x 24 threads, one operation per thread at a time, Sec. 5.3.1).

usage: /usr/bin/python3 protocols/switchtx/analysis/fig11_gas.py --db results.sqlite --out DIR
Reads the "switchtx-fig11" sweep (scenarios/switchtx/fig11-gas.json). Writes
DIR/switchtx-fig11.png and .pdf and prints the plotted numbers, in-switch P99 over in-server,
and the operations completed, beside the paper's claims (S20).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import equals, load_sweep, save  # noqa: E402
from switchtx_plots import COORDINATION, panel, print_ratio  # noqa: E402

N = "workload.servers_per_op"
LAYOUT = "topology.params.layout"
GAS = "switchtx.gas."
SERIES = [(f"{route} GaS, {layout}-switch",
           lambda r, c=coordination, l=layout: (r[COORDINATION] == c) & (r[LAYOUT] == l))
          for layout in ("single", "multi")
          for route, coordination in (("in-server", "in-server"), ("in-switch", "switch"))]
CLAIMS = {"latency_p50_us": "latency grows with n; multi-switch above single-switch",
          "latency_p99_us": "in-switch P99 up to -48.4% (multi), -45.2% (single) vs in-server"}


def main():
    args, runs = load_sweep(__doc__, "switchtx-fig11",
                            [GAS + m for m in ("latency_p50_us", "latency_p99_us",
                                               "operations", "completed")])
    fig, axes = plt.subplots(1, 2, figsize=(6.6, 2.6))
    for axis, (metric, label), letter in zip(
            axes, (("latency_p50_us", "P50"), ("latency_p99_us", "P99")), "ab"):
        panel(axis, runs, N, GAS + metric, SERIES, f"({letter}) {label}",
              "servers per GaS operation (n)", f"{label} GaS latency (us)", CLAIMS[metric])
    for layout in ("single", "multi"):
        line = runs[equals(LAYOUT, layout)(runs)]
        print_ratio(f"in-switch / in-server P99, {layout}-switch", line, [N],
                    GAS + "latency_p99_us", ("in-switch", equals(COORDINATION, "switch")),
                    ("in-server", equals(COORDINATION, "in-server")),
                    "0.516 multi, 0.548 single at best")
    done = runs[[COORDINATION, LAYOUT, N, GAS + "operations", GAS + "completed"]]
    style.print_table("operations begun and completed (latencies are of completed ones)",
                      done.sort_values([LAYOUT, COORDINATION, N]))
    save(fig, args, "switchtx-fig11")


if __name__ == "__main__":
    main()
