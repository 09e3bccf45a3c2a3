#!/usr/bin/python3
"""SwitchTx Fig. 16: TPC-C throughput (a) and P50 latency (b) against warehouses per server, for FaSST, SwitchTx (+Tree-GaS) and SwitchTx (+all) on the multi-switch
testbed, 8 servers x 24 threads (Sec. 5.5.1).

usage: /usr/bin/python3 protocols/switchtx/analysis/fig16_warehouses.py --db results.sqlite --out DIR
Reads the "switchtx-fig16" sweep (scenarios/switchtx/fig16-warehouses.json: 4, 8, 16, 24 warehouses per server).
+all is +Tree-GaS with +Reorder and +MPL (dynamic admission, Listing 1). Writes
DIR/switchtx-fig16.png and .pdf and prints the plotted numbers and the ratios to FaSST beside the
paper's claims (S27, S28 and the latency trend).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis"))

from switchtx_plots import contention_figure  # noqa: E402

if __name__ == "__main__":
    contention_figure(__doc__, "switchtx-fig16", "workload.warehouses_per_server", "warehouses per server (TPC-C)",
                      "S30: +all's P50 always above +Tree-GaS and FaSST")
