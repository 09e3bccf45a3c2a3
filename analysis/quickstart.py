#!/usr/bin/python3
"""Quick-start figure: message latency CDF and link utilisation of a run.

usage: /usr/bin/python3 analysis/quickstart.py RUN_DIR [--out STEM]
Needs the "messages" and "links" traces. Writes STEM.png and STEM.pdf
(default RUN_DIR/quickstart) and prints the plotted numbers.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.rundir import RunDir  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir")
    parser.add_argument("--out", help="output path without extension")
    args = parser.parse_args()

    run = RunDir(args.run_dir)
    messages = run.trace("messages")
    links = run.trace("links")
    if messages.empty:
        sys.exit(f"{args.run_dir}: no messages were delivered; nothing to plot")

    style.apply()
    fig, (cdf_ax, util_ax) = plt.subplots(1, 2, figsize=(7, 2.6))

    latency_us = np.sort(messages["latency_ns"].to_numpy() / 1e3)
    fraction = np.arange(1, len(latency_us) + 1) / len(latency_us)
    cdf_ax.plot(latency_us, fraction, color="C0")
    cdf_ax.set_xlabel("message latency (µs)")
    cdf_ax.set_ylabel("CDF")
    cdf_ax.set_ylim(0, 1.01)
    cdf_ax.set_title(f"{len(latency_us)} messages")

    # Links grouped by the layers they join, from the generators' node-name prefixes.
    layer_names = {"h": "host", "e": "edge", "a": "agg", "c": "core", "tor": "ToR",
                   "spine": "spine", "leaf": "leaf", "core": "core", "s": "switch"}

    def layer(name):
        prefix = name.split("-")[-1].rstrip("0123456789_")
        return layer_names.get(prefix, prefix)

    links = links.assign(kind=links["from"].map(layer) + "→" + links["to"].map(layer))
    kinds = sorted(links["kind"].unique())
    data = [links.loc[links["kind"] == k, "utilization"].to_numpy() * 100 for k in kinds]
    util_ax.boxplot(data, labels=kinds, showfliers=True)
    util_ax.set_ylabel("link utilisation (%)")
    util_ax.set_xlabel("link direction (from→to layer)")
    util_ax.tick_params(axis="x", rotation=30)
    util_ax.set_title("per direction")

    scenario = run.scenario
    fig.suptitle(f"{scenario.get('name') or 'run'}: {scenario['protocol']['name']} on "
                 f"{scenario['topology'].get('generator', 'file topology')}", y=1.02)
    stem = args.out or str(Path(args.run_dir) / "quickstart")
    paths = style.save(fig, stem)

    percentiles = [50, 90, 99, 99.9, 100]
    style.print_table("message latency (µs)", pd.DataFrame({
        "percentile": percentiles,
        "latency_us": [np.percentile(latency_us, p) for p in percentiles]}).round(3))
    summary = links.groupby("kind")["utilization"].agg(["count", "mean", "max"]).reset_index()
    summary[["mean", "max"]] = (summary[["mean", "max"]] * 100).round(2)
    style.print_table("link utilisation (%)", summary)
    print("wrote " + ", ".join(paths))


if __name__ == "__main__":
    main()
