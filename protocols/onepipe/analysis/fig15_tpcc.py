#!/usr/bin/python3
"""1Pipe Fig. 15a: TPC-C New-Order and Payment as independent transactions, throughput
against processes for 1Pipe, two-phase locking (Lock), OCC and the non-transactional
baseline (NonTX); 4 warehouse shards with 3 replicas on the testbed.

usage: /usr/bin/python3 protocols/onepipe/analysis/fig15_tpcc.py --db results.sqlite --out DIR
Reads the "onepipe-fig15a" sweep (scenarios/onepipe/fig15a-tpcc.json). Every point runs at
three closed-loop windows; a point's throughput is the peak over them. Writes
DIR/onepipe-fig15a.png and .pdf, prints the plotted numbers, and exits non-zero if a trend of
the paper the doc claims (docs/onepipe-apps.md, "Fig. 15") does not hold.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, save  # noqa: E402

SYSTEM = "protocol.params.system"
PROCESSES = "onepipe_tpcc.processes"
THROUGHPUT = "onepipe_tpcc.tpcc.throughput_txns_per_s"
SYSTEMS = [("1Pipe", "1pipe"), ("Lock (2PL)", "lock"), ("OCC", "occ"), ("NonTX", "nontx")]

failures = []


def expect(condition, claim):
    print(f"{'holds' if condition else 'FAILS'}: {claim}")
    if not condition:
        failures.append(claim)


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig15a",
                            [PROCESSES, THROUGHPUT, "onepipe_tpcc.tpcc.abort_rate"])
    runs[THROUGHPUT] /= 1e6
    peak = runs.groupby([SYSTEM, PROCESSES])[THROUGHPUT].max().reset_index()
    style.print_table("peak throughput (M txn/s) by processes", peak)
    fig, axis = plt.subplots(figsize=(3.6, 2.6))
    for label, system in SYSTEMS:
        line = peak[peak[SYSTEM] == system]
        axis.plot(line[PROCESSES], line[THROUGHPUT], marker="o", markersize=3, label=label)
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    axis.set_xlabel("processes")
    axis.set_ylabel("throughput (M txn/s)")
    axis.legend(fontsize=7)
    save(fig, args, "onepipe-fig15a")

    table = peak.set_index([SYSTEM, PROCESSES])[THROUGHPUT]
    counts = sorted(peak[PROCESSES].unique())
    most = counts[-1]
    for n in counts:
        expect(table["nontx", n] > table["1pipe", n] > 3 * max(table["lock", n], table["occ", n]),
               f"{n:.0f} processes: NonTX above 1Pipe, 1Pipe above 3x Lock and OCC (R28)")
    for system in ("lock", "occ"):
        best = max(counts, key=lambda n: table[system, n])
        expect(table[system, most] < table[system, best],
               f"{system}: throughput peaks below {most:.0f} processes, then falls (R27)")
    expect(table["1pipe", counts[1]] > 1.3 * table["1pipe", counts[0]],
           "1Pipe's throughput grows with processes until its replicas saturate (R28)")
    if failures:
        sys.exit(f"{len(failures)} trend(s) of Fig. 15a do not hold: " + "; ".join(failures))


if __name__ == "__main__":
    main()
