#!/usr/bin/python3
"""1Pipe Fig. 15b: TPC-C throughput of 1Pipe, 2PL (Lock) and OCC against the packet loss rate
of every link, 64 processes. Lock and OCC run on the unordered transport's reliable service
(retransmission with ACKs, no ordering; docs/onepipe-apps.md, "Fig. 15").

usage: /usr/bin/python3 protocols/onepipe/analysis/fig15b_tpcc_loss.py --db results.sqlite --out DIR
Reads the "onepipe-fig15b" sweep (scenarios/onepipe/fig15b-tpcc-loss.json); a point's
throughput is the peak over its three windows of the mean over the sweep's seeds. Writes DIR/onepipe-fig15b.png and .pdf,
prints the plotted numbers, and exits non-zero if a trend the doc claims does not hold.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, save  # noqa: E402

LOSS = "links.loss"
WINDOW = "workload.window"
SYSTEM = "protocol.params.system"
THROUGHPUT = "onepipe_tpcc.tpcc.throughput_txns_per_s"
LABELS = {"1pipe": "1Pipe", "lock": "Lock", "occ": "OCC"}


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig15b",
                            [THROUGHPUT, "onepipe_tpcc.prepare_retransmissions"])
    runs[LOSS] = runs[LOSS].astype(float)
    runs[THROUGHPUT] /= 1e6
    mean = runs.groupby([SYSTEM, LOSS, WINDOW])[THROUGHPUT].mean()
    peak = mean.groupby(level=[SYSTEM, LOSS]).max().reset_index()
    table = peak.pivot(index=LOSS, columns=SYSTEM, values=THROUGHPUT)
    style.print_table("peak throughput (M txn/s) by loss rate", table.reset_index())
    fig, axis = plt.subplots(figsize=(3.6, 2.6))
    for system, label in LABELS.items():
        lossy = table[table.index > 0][system]
        line = axis.plot(lossy.index, lossy.values, marker="o", markersize=3, label=label)[0]
        axis.axhline(table.loc[0.0, system], linestyle=":", color=line.get_color(),
                     linewidth=0.8)
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("packet loss rate per link (dotted: no loss)")
    axis.set_ylabel("throughput (M txn/s)")
    axis.legend(fontsize=7)
    save(fig, args, "onepipe-fig15b")

    losses = sorted(table.index)
    checks = [
        (table.loc[1e-5, "1pipe"] > 0.9 * table.loc[0.0, "1pipe"],
         "up to 1e-5 loss, 1Pipe keeps 90% of its lossless throughput (R29)"),
        (all(table.loc[loss, "1pipe"] > max(table.loc[loss, "lock"], table.loc[loss, "occ"])
             for loss in losses),
         "1Pipe above Lock and OCC at every loss rate"),
    ]
    for system in ("lock", "occ"):
        series = [table.loc[loss, system] for loss in losses]
        checks.append((all(b <= 1.02 * a for a, b in zip(series, series[1:])) and
                       series[-1] < 0.9 * series[0],
                       f"{LABELS[system]}'s throughput falls with the loss rate, by 10% or "
                       "more at 1e-2 (R29: its latency rises, its locks are held longer)"))
    for ok, claim in checks:
        print(f"{'holds' if ok else 'FAILS'}: {claim}")
    if not all(ok for ok, _ in checks):
        sys.exit("a trend of Fig. 15b does not hold")


if __name__ == "__main__":
    main()
