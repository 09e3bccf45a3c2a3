#!/usr/bin/python3
"""SwitchTx Fig. 1a/b (Sec. 2.2): the FaSST microbenchmark, the calibration run of the hosts'
CPU costs. (a) P50 and P99 lock time, with throughput, against the shards (servers) per
transaction (8 servers x 24 threads, replication disabled, 8 read-modify-writes per
transaction, Zipf 0.8); (b) the share of software coordination in commit latency at 10 and
100 Gbps (one thread per server, MPL 1, 8 shards per transaction: the unloaded breakdown).

usage: /usr/bin/python3 protocols/switchtx/analysis/fig1_fasst.py --db results.sqlite --out DIR
Reads the "switchtx-fig1" sweep (scenarios/switchtx/fig1-fasst.json); writes
DIR/switchtx-fig1.png and .pdf and prints the plotted numbers with the paper's (S2-S5).
Coordination share = the client's CPU time counting phase replies and sending the next
phase (cpu_gather) per committed transaction over the mean latency.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import equals, load_sweep, plot_series, save  # noqa: E402
from switchtx_plots import METRIC, means, print_against_paper  # noqa: E402

SHARDS = "workload.partitions_per_txn"
THREADS = "protocol.params.threads"
RATE = "links.rate"
METRICS = [METRIC(m) for m in ("throughput_txn_per_s", "latency_p99_us", "latency_mean_us",
                               "lock_time_p50_us", "lock_time_p99_us", "committed",
                               "cpu_ns_by_function.gather")]


def main():
    args, runs = load_sweep(__doc__, "switchtx-fig1", METRICS)
    loaded = runs[runs[THREADS] == 24].assign(
        mops=lambda r: r[METRIC("throughput_txn_per_s")] / 1e6)
    unloaded = runs[runs[THREADS] == 1].assign(
        share=lambda r: 100 * r[METRIC("cpu_ns_by_function.gather")] / 1e3
        / r[METRIC("committed")] / r[METRIC("latency_mean_us")])
    fig, (lock, throughput, share) = plt.subplots(1, 3, figsize=(8.4, 2.5))
    plot_series(lock, loaded, SHARDS, METRIC("lock_time_p50_us"),
                [("P50", lambda r: r.index == r.index)], title="(a) ")
    plot_series(lock, loaded, SHARDS, METRIC("lock_time_p99_us"),
                [("P99", lambda r: r.index == r.index)], title="(a) ")
    plot_series(throughput, loaded, SHARDS, "mops", [("FaSST", lambda r: r.index == r.index)],
                title="(a) ")
    for axis in (lock, throughput):
        axis.set_xlabel("shards per transaction")
        axis.set_ylim(bottom=0)
    lock.set_ylabel("lock time (us)")
    lock.legend()
    throughput.set_ylabel("throughput (Mops)")
    rates = ["10Gbps", "100Gbps"]
    shares = [unloaded[unloaded[RATE] == rate]["share"].mean() for rate in rates]
    bars = share.bar(rates, shares, color="C0", label="FaSST")
    share.bar_label(bars, fmt="%.1f%%", fontsize=6)
    share.set_ylabel("coordination share of latency (%)")
    share.set_title("(b)")
    share.grid(axis="x", visible=False)
    throughput_by = means(loaded, [SHARDS], "mops")
    p99 = means(loaded, [SHARDS], METRIC("latency_p99_us"))
    lock50 = means(loaded, [SHARDS], METRIC("lock_time_p50_us"))
    lock99 = means(loaded, [SHARDS], METRIC("lock_time_p99_us"))
    print_against_paper("Fig. 1 against the paper (Sec. 2.2)", [
        ("throughput, 2 shards (Mops) S2", throughput_by[2], 7.1),
        ("throughput, 8 shards (Mops) S2", throughput_by[8], 3.1),
        ("P99 latency, 2 shards (us) S3", p99[2], 60.9),
        ("P99 latency, 8 shards (us) S3", p99[8], 126.2),
        ("P50 lock time, 8 / 2 shards S4", lock50[8] / lock50[2], 2.13),
        ("P99 lock time, 8 / 2 shards S4", lock99[8] / lock99[2], 3.97),
        ("coordination share at 10 Gbps (%) S5", shares[0], 15.0),
        ("coordination share at 100 Gbps (%) S5", shares[1], 47.1)])
    save(fig, args, "switchtx-fig1")


if __name__ == "__main__":
    main()
