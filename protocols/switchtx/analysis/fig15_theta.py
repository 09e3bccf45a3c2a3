#!/usr/bin/python3
"""SwitchTx Fig. 15: YCSB-T throughput (a) and P50 latency (b) against Zipf theta, for FaSST, SwitchTx (+Tree-GaS) and SwitchTx (+all) on the multi-switch
testbed, 8 servers x 24 threads (Sec. 5.5.1).

usage: /usr/bin/python3 protocols/switchtx/analysis/fig15_theta.py --db results.sqlite --out DIR
Reads the "switchtx-fig15" sweep (scenarios/switchtx/fig15-theta.json: theta 0.6, 0.8, 0.9, 0.99).
+all is +Tree-GaS with +Reorder and +MPL (dynamic admission, Listing 1). Writes
DIR/switchtx-fig15.png and .pdf and prints the plotted numbers and the ratios to FaSST beside the
paper's claims (S27, S28 and the latency trend).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from switchtx_plots import contention_figure  # noqa: E402

if __name__ == "__main__":
    contention_figure(__doc__, "switchtx-fig15", "workload.theta", "Zipf theta (YCSB-T)",
                      "S29: +all's P50 falls as theta rises (its MPL shrinks)")
