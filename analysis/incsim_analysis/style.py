"""Figure style close to a paper's: small serif fonts, light grid, PNG and PDF output."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def apply():
    plt.rcParams.update({
        "font.family": "serif",
        "font.size": 9,
        "axes.titlesize": 9,
        "axes.labelsize": 9,
        "legend.fontsize": 8,
        "xtick.labelsize": 8,
        "ytick.labelsize": 8,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "figure.dpi": 150,
        "savefig.bbox": "tight",
    })


def save(fig, stem):
    """Writes STEM.png and STEM.pdf and returns their paths."""
    paths = [f"{stem}.png", f"{stem}.pdf"]
    for path in paths:
        fig.savefig(path)
    plt.close(fig)
    return paths


def print_table(title, frame):
    """Prints the plotted numbers, so a figure can be checked without looking at it."""
    print(f"== {title}")
    print(frame.to_string(index=False))
