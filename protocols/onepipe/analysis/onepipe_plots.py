"""1Pipe's plotting helpers: the latency-and-delivery figure its paper draws against many
parameters."""

import matplotlib.pyplot as plt

from incsim_analysis.figure import plot_series


def latency_and_delivery(runs, x, series, xlabel):
    """A figure of 1Pipe's mean delivery latency (5th-95th percentile bars) and delivery ratio
    side by side, one line per (label, mask) of `series` against parameter `x`."""
    fig, (latency, delivered) = plt.subplots(1, 2, figsize=(6.6, 2.5))
    plot_series(latency, runs, x, "onepipe.latency_mean_us", series,
                band=("onepipe.latency_p5_us", "onepipe.latency_p95_us"))
    plot_series(delivered, runs, x, "onepipe.delivery_ratio", series)
    for axis in (latency, delivered):
        axis.set_xlabel(xlabel)
        axis.set_ylim(bottom=0)
    latency.set_ylabel("delivery latency (µs)")
    delivered.set_ylabel("messages delivered / sent")
    if len(series) > 1:
        latency.legend()
    return fig, latency, delivered


LATENCY_AND_DELIVERY = ["onepipe.latency_mean_us", "onepipe.latency_p5_us",
                        "onepipe.latency_p95_us", "onepipe.delivery_ratio"]

SERVICES = [("1Pipe/BE", "best-effort"), ("1Pipe/R", "reliable")]


def check_rises(runs, x, label, monotone=True):
    """Prints the series' mean latency against `x` and its inflation over the lowest `x`, and
    asserts that latency rises: at every step (`monotone`, 0.5 us of noise allowed) or from
    the first point to the last."""
    means = runs.groupby(x)["onepipe.latency_mean_us"].mean().sort_index()
    inflation = means.iloc[-1] - means.iloc[0]
    print(f"{label}: inflation {inflation:.1f} us from {x} = {means.index[0]:g} to "
          f"{means.index[-1]:g}")
    assert inflation > 0, f"{label}: latency does not rise with {x}"
    if monotone:
        steps = means.diff().dropna()
        assert (steps > -0.5).all(), f"{label}: latency falls with {x}: {list(means.round(1))}"
