#!/usr/bin/python3
"""Gotthard Fig. 12: Gotthard's throughput over the read cache's as the share of writes and
contention (Zipf exponent over 10 keys) change; red where Gotthard does better.

usage: /usr/bin/python3 protocols/gotthard/analysis/fig12_heatmap.py --db results.sqlite --out DIR
Reads the "gotthard-fig12" sweep (scenarios/gotthard/fig12-writes-contention.json); writes
DIR/gotthard-fig12.png and .pdf and prints the plotted numbers. The colour scale is
logarithmic and centred on a ratio of 1.
"""

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402

from incsim_analysis import style  # noqa: E402
from incsim_analysis.figure import load_sweep, save  # noqa: E402
from gotthard_plots import THROUGHPUT, mode_ratio  # noqa: E402

WRITES = "workload.writes"
ZIPF = "workload.zipf"


def main():
    args, runs = load_sweep(__doc__, "gotthard-fig12", [THROUGHPUT])
    ratio = mode_ratio(runs, [WRITES, ZIPF], THROUGHPUT)
    grid = ratio.pivot(index=WRITES, columns=ZIPF, values=ratio.columns[-1])
    style.print_table("throughput, Gotthard / read cache (rows: share of writes, columns: "
                      "Zipf exponent)", grid.reset_index())
    span = max(grid.max().max(), 1 / grid.min().min())
    fig, axis = plt.subplots(figsize=(3.8, 3.0))
    image = axis.imshow(grid.to_numpy(), origin="lower", aspect="auto", cmap="RdBu_r",
                        norm=LogNorm(vmin=1 / span, vmax=span))
    for row, writes in enumerate(grid.index):
        for column, zipf in enumerate(grid.columns):
            value = grid.loc[writes, zipf]
            axis.text(column, row, f"{value:.2f}", ha="center", va="center", fontsize=7,
                      color="white" if abs(math.log(value)) > 0.6 * math.log(span) else "black")
    axis.set_xticks(range(len(grid.columns)), [f"{z:g}" for z in grid.columns])
    axis.set_yticks(range(len(grid.index)), [f"{w:g}" for w in grid.index])
    axis.set_xlabel("Zipf exponent (10 keys)")
    axis.set_ylabel("share of write transactions")
    axis.grid(False)
    ticks = [t for t in (0.25, 0.5, 1, 2, 4) if 1 / span <= t <= span]
    bar = fig.colorbar(image, ax=axis, label="Gotthard / read cache throughput")
    bar.set_ticks(ticks, labels=[f"{t:g}" for t in ticks])
    bar.minorticks_off()
    save(fig, args, "gotthard-fig12")


if __name__ == "__main__":
    main()
