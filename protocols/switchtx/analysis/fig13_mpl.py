#!/usr/bin/python3
"""SwitchTx Fig. 13: static admission control, throughput and P50/P99 latency against the MPL
per thread (YCSB-T Zipf 0.99, SwitchTx +Tree-GaS +Reorder on the multi-switch testbed,
8 servers x 24 threads; total concurrency MPL x 24 x 8), and dynamic admission control (Listing
1, 100 us epochs) as a horizontal line at its throughput and latencies.

usage: /usr/bin/python3 protocols/switchtx/analysis/fig13_mpl.py --db results.sqlite --out DIR
Reads the "switchtx-fig13" sweep (scenarios/switchtx/fig13-mpl.json); writes
DIR/switchtx-fig13.png and .pdf and prints the plotted numbers; the paper's best static MPL
is 2, and dynamic beats it by 13.4% in throughput with 4.3% lower latency (S23).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import load_sweep, plot_series, save  # noqa: E402
from switchtx_plots import METRIC, means, print_against_paper  # noqa: E402

MPL = "protocol.params.mpl"
ADMISSION = "protocol.params.admission"
STATIC = [("static MPL", lambda r: r[ADMISSION] == "static")]


def main():
    args, runs = load_sweep(__doc__, "switchtx-fig13",
                            [METRIC(m) for m in ("throughput_txn_per_s", "latency_p50_us",
                                                 "latency_p99_us", "mpl.mean")])
    runs = runs.assign(mops=runs[METRIC("throughput_txn_per_s")] / 1e6)
    dynamic = runs[runs[ADMISSION] == "dynamic"]
    static = STATIC[0][1]
    fig, (throughput, latency) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    plot_series(throughput, runs, MPL, "mops", STATIC, title="(a) ")
    throughput.axhline(dynamic["mops"].mean(), linestyle="--", color="black",
                       label="dynamic (Listing 1)")
    plot_series(latency, runs, MPL, METRIC("latency_p50_us"), [("P50", static)], title="(b) ")
    plot_series(latency, runs, MPL, METRIC("latency_p99_us"), [("P99", static)], title="(b) ")
    latency.axhline(dynamic[METRIC("latency_p50_us")].mean(), linestyle="--", color="black",
                    label="dynamic P50")
    for axis in (throughput, latency):
        axis.set_xlabel("MPL per thread")
        axis.set_xscale("log", base=2)
        axis.set_ylim(bottom=0)
    throughput.set_ylabel("throughput (Mops)")
    latency.set_ylabel("latency (us)")
    throughput.legend()
    latency.legend()
    by_mpl = means(runs[static(runs)], [MPL], "mops")
    best = by_mpl.idxmax()
    best_p50 = means(runs[static(runs)], [MPL], METRIC("latency_p50_us"))[best]
    print_against_paper("Fig. 13 against the paper", [
        ("best static MPL (S23)", float(best), 2.0),
        ("dynamic / best static throughput (S23)", dynamic["mops"].mean() / by_mpl[best], 1.134),
        ("dynamic / best static P50 (S23)",
         dynamic[METRIC("latency_p50_us")].mean() / best_p50, 0.957),
        ("dynamic: mean MPL per thread", dynamic[METRIC("mpl.mean")].mean(), float("nan"))])
    save(fig, args, "switchtx-fig13")


if __name__ == "__main__":
    main()
