#!/usr/bin/python3
"""1Pipe Fig. 8: throughput and latency of total-order broadcast against process count, for
best-effort and reliable 1Pipe and the four baselines (sequencer in a switch, sequencer on a
host NIC, token passing, Lamport timestamps with periodic exchange), 64-byte all-to-all
broadcast on the testbed.

usage: /usr/bin/python3 protocols/onepipe/analysis/fig8_scalability.py --db results.sqlite --out DIR
Reads the "onepipe-fig8" sweep (scenarios/onepipe/fig8-scalability.json up to 64 processes, or
fig8-scalability-512.json at 512): throughput from the saturating runs (every process sends
its next broadcast as soon as the previous one has left its host: interval 100 ns,
max_unsent 1), latency from the light ones (every 20 us). Writes DIR/onepipe-fig8.png and
.pdf, prints the plotted numbers, and checks the paper's ranking at the largest process count
saturated (check_ranking).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402

from incsim_analysis.figure import equals, load_sweep, plot_series, save  # noqa: E402

ORDERING = "protocol.params.ordering"
INTERVAL = "workload.interval"
PROCESSES = "onepipe.processes"
SERVICE = "protocol.params.service"
SATURATED = "100ns"
SYSTEMS = [("1Pipe/BE", "total", "best-effort"), ("1Pipe/R", "total", "reliable"),
           ("Switch sequencer", "sequencer-switch", None),
           ("Host NIC sequencer", "sequencer-host", None), ("Token", "token", None),
           ("Lamport", "lamport", None)]


def system(ordering, service):
    if service is None:
        return equals(ORDERING, ordering)
    return lambda frame: (frame[ORDERING] == ordering) & (frame[SERVICE] == service)


def check_ranking(saturated):
    """The paper's claims on the saturated throughput at the largest process count: token is
    below 1Pipe and Lamport (one sender at a time), the host NIC sequencer falls behind 1Pipe (a central
    bottleneck), 1Pipe/R stays below 1Pipe/BE (R3, 2PC overhead); from 512 processes on, 1Pipe
    is first and Lamport, whose exchanges then cost as much as the broadcasts, is above the
    switch sequencer (below 512 every process broadcasts more often than the exchange interval,
    so Lamport needs no exchange and keeps up with 1Pipe)."""
    largest = saturated[PROCESSES].max()
    at = saturated[saturated[PROCESSES] == largest]
    rate = {label: at[system(ordering, service)(at)]["throughput_per_process_M"].max()
            for label, ordering, service in SYSTEMS}
    print(f"ranking at {int(largest)} processes (M msg/s per process): " +
          ", ".join(f"{label} {value:.3g}" for label, value in
                    sorted(rate.items(), key=lambda item: -item[1])))
    assert rate["Token"] < min(rate["1Pipe/BE"], rate["Lamport"]), "token keeps up"
    assert rate["Host NIC sequencer"] < rate["1Pipe/BE"], "the NIC sequencer keeps up with 1Pipe"
    assert rate["1Pipe/R"] < rate["1Pipe/BE"], "1Pipe/R is not below 1Pipe/BE"
    if largest >= 512:
        others = [value for label, value in rate.items() if not label.startswith("1Pipe")]
        assert rate["1Pipe/BE"] > max(others), "1Pipe/BE is not the fastest"
        assert rate["Lamport"] > rate["Switch sequencer"], \
            "Lamport is not above the switch sequencer"


def main():
    args, runs = load_sweep(__doc__, "onepipe-fig8",
                            [PROCESSES, "onepipe.throughput_per_process_msgs_per_s",
                             "onepipe.latency_mean_us", "onepipe.latency_p5_us",
                             "onepipe.latency_p95_us"])
    runs["throughput_per_process_M"] = runs["onepipe.throughput_per_process_msgs_per_s"] / 1e6
    series = [(label, system(ordering, service)) for label, ordering, service in SYSTEMS]
    fig, (throughput, latency) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    saturated = runs[runs[INTERVAL] == SATURATED]
    plot_series(throughput, saturated, PROCESSES, "throughput_per_process_M", series,
                title="(a) saturated: ")
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
    check_ranking(saturated)


if __name__ == "__main__":
    main()
