#!/usr/bin/python3
"""SwitchTx Fig. 13: static admission control, throughput and P50/P99 latency against the MPL
per thread (YCSB-T Zipf 0.99, SwitchTx +Tree-GaS +Reorder on the multi-switch testbed,
8 servers x 8 threads; total concurrency MPL x 8 x 8). Dynamic MPL (Listing 1) is not drawn:
it does not exist yet.

usage: /usr/bin/python3 protocols/switchtx/analysis/fig13_mpl.py --db results.sqlite --out DIR
Reads the "switchtx-fig13" sweep (scenarios/switchtx/fig13-mpl.json); writes
DIR/switchtx-fig13.png and .pdf and prints the plotted numbers; the paper's best static MPL
is 2 (S23).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import load_sweep, plot_series, save  # noqa: E402
from switchtx_plots import METRIC, means, print_against_paper  # noqa: E402

MPL = "protocol.params.mpl"
ALL = [("static MPL", lambda r: r.index == r.index)]


def main():
    args, runs = load_sweep(__doc__, "switchtx-fig13",
                            [METRIC(m) for m in ("throughput_txn_per_s", "latency_p50_us",
                                                 "latency_p99_us")])
    runs = runs.assign(mops=runs[METRIC("throughput_txn_per_s")] / 1e6)
    fig, (throughput, latency) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    plot_series(throughput, runs, MPL, "mops", ALL, title="(a) ")
    plot_series(latency, runs, MPL, METRIC("latency_p50_us"), [("P50", ALL[0][1])],
                title="(b) ")
    plot_series(latency, runs, MPL, METRIC("latency_p99_us"), [("P99", ALL[0][1])],
                title="(b) ")
    for axis in (throughput, latency):
        axis.set_xlabel("MPL per thread")
        axis.set_xscale("log", base=2)
        axis.set_ylim(bottom=0)
    throughput.set_ylabel("throughput (Mops)")
    latency.set_ylabel("latency (us)")
    throughput.legend()
    latency.legend()
    by_mpl = means(runs, [MPL], "mops")
    print_against_paper("Fig. 13 against the paper", [
        ("best static MPL (S23)", float(by_mpl.idxmax()), 2.0)])
    save(fig, args, "switchtx-fig13")


if __name__ == "__main__":
    main()
