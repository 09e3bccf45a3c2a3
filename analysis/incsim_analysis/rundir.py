"""Loading a run directory: run.json, metrics.json, scenario.resolved.json and CSV traces."""

import json
from pathlib import Path

import pandas as pd


class RunDir:
    """One `incsim run` output directory."""

    def __init__(self, path):
        self.path = Path(path)
        if not (self.path / "run.json").is_file():
            raise FileNotFoundError(f"{self.path}: not an incsim run directory (no run.json)")

    def json(self, name):
        with open(self.path / name) as f:
            return json.load(f)

    @property
    def run(self):
        return self.json("run.json")

    @property
    def metrics(self):
        return self.json("metrics.json")

    @property
    def scenario(self):
        return self.json("scenario.resolved.json")

    def trace(self, name):
        """A trace as a DataFrame; raises a clear error when the trace was not enabled."""
        path = self.path / f"{name}.csv"
        if not path.is_file():
            raise FileNotFoundError(
                f"{path}: trace '{name}' was not written; add it to /outputs/traces")
        return pd.read_csv(path)
