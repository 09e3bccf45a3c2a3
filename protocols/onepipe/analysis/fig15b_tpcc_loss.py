#!/usr/bin/python3
"""1Pipe Fig. 15b: TPC-C throughput of 1Pipe against the packet loss rate of every link, 64
processes (Lock and OCC need a lossless network here: docs/onepipe-apps.md, "Fig. 15").

usage: /usr/bin/python3 protocols/onepipe/analysis/fig15b_tpcc_loss.py --db results.sqlite --out DIR
Reads the "onepipe-fig15b" sweep (scenarios/onepipe/fig15b-tpcc-loss.json); a point's
throughput is the peak over its three windows. Writes DIR/onepipe-fig15b.png and .pdf,
prints the plotted numbers, and exits non-zero if a trend the doc claims does not hold.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, save  # noqa: E402

LOSS = "links.loss"
THROUGHPUT = "onepipe_tpcc.tpcc.throughput_txns_per_s"


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig15b",
                            [THROUGHPUT, "onepipe_tpcc.prepare_retransmissions"])
    runs[LOSS] = runs[LOSS].astype(float)
    runs[THROUGHPUT] /= 1e6
    peak = runs.groupby(LOSS)[THROUGHPUT].max().reset_index()
    style.print_table("1Pipe peak throughput (M txn/s) by loss rate", peak)
    fig, axis = plt.subplots(figsize=(3.6, 2.6))
    lossy = peak[peak[LOSS] > 0]
    axis.plot(lossy[LOSS], lossy[THROUGHPUT], marker="o", markersize=3, label="1Pipe")
    axis.axhline(peak[peak[LOSS] == 0][THROUGHPUT].iloc[0], linestyle=":", color="gray",
                 label="1Pipe, no loss")
    axis.set_xscale("log")
    axis.set_xlabel("packet loss rate per link")
    axis.set_ylabel("throughput (M txn/s)")
    axis.legend(fontsize=7)
    save(fig, args, "onepipe-fig15b")

    table = peak.set_index(LOSS)[THROUGHPUT]
    ok = table[1e-5] > 0.9 * table[0.0]
    print(f"{'holds' if ok else 'FAILS'}: up to 1e-5 loss, 1Pipe keeps 90% of its "
          "lossless throughput (R29)")
    if not ok:
        sys.exit("a trend of Fig. 15b does not hold")


if __name__ == "__main__":
    main()
