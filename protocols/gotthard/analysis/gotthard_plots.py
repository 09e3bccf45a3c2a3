"""Gotthard's plotting helpers: its three switch modes as series, the ratio of two modes, and
the paper's throughput-and-latency figure."""

import matplotlib.pyplot as plt

from incsim_analysis import style
from incsim_analysis.figure import equals, plot_series
from incsim_analysis.results import summarize


MODE = "protocol.params.mode"
MODES = [("Forward", "forward"), ("Read cache", "read-cache"), ("Gotthard", "gotthard")]
THROUGHPUT = "gotthard.throughput_txn_per_s"
LATENCY = "gotthard.latency_mean_us"
THROUGHPUT_AND_LATENCY = [THROUGHPUT, LATENCY]


def mode_series(modes=MODES):
    """The (label, mask) series of Gotthard's switch modes, for plot_series."""
    return [(label, equals(MODE, mode)) for label, mode in modes]


def mode_ratio(runs, by, metric, numerator="gotthard", denominator="read-cache"):
    """At each point of `by`, the mean of `metric` in one switch mode over its mean in another."""
    means = [summarize(runs[runs[MODE] == mode], by, metric).set_index(by)["mean"]
             for mode in (numerator, denominator)]
    return (means[0] / means[1]).rename(f"{numerator} / {denominator}").reset_index()


def throughput_and_latency(runs, x, xlabel):
    """Gotthard's two-panel figure against parameter `x`: (a) committed transactions per second
    and (b) their mean latency, one line per switch mode. Also prints Gotthard's throughput over
    the read cache's."""
    runs = runs.assign(latency_mean_ms=runs[LATENCY] / 1e3)
    fig, (throughput, latency) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    plot_series(throughput, runs, x, THROUGHPUT, mode_series(), title="(a) ")
    plot_series(latency, runs, x, "latency_mean_ms", mode_series(), title="(b) ")
    for axis in (throughput, latency):
        axis.set_xlabel(xlabel)
        axis.set_ylim(bottom=0)
    throughput.set_ylabel("throughput (committed txn/s)")
    latency.set_ylabel("mean latency (ms)")
    throughput.legend()
    style.print_table("throughput, Gotthard / read cache", mode_ratio(runs, [x], THROUGHPUT))
    return fig, throughput, latency
