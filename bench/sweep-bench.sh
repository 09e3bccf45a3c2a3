#!/usr/bin/env bash
# The sweep machinery's cost: a sweep of 200 short runs (k=4 fat-tree, 20 us of UDP traffic)
# with --jobs 1 and --jobs 2, side by side, and the overhead per run (process start, database
# write) against the run itself (the run's own wall time from run.json).
# Usage: bench/sweep-bench.sh [INCSIM] [RUNS]
set -euo pipefail
incsim="$(realpath "${1:-build/tools/incsim/incsim}")"
runs="${2:-200}"
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > sweep.json <<JSON
{
  "name": "bench",
  "scenario": "$source_dir/scenarios/quickstart.json",
  "set": {"duration": "20us", "faults": [], "outputs.traces": []},
  "vary": [{"grid": {"workload.load": [0.1, 0.2, 0.3, 0.4, 0.5]}}],
  "repetitions": $((runs / 5))
}
JSON
for jobs in 1 2; do
  start=$(date +%s.%N)
  "$incsim" sweep sweep.json --db "j$jobs.sqlite" --out "runs$jobs" -j "$jobs" --progress never > /dev/null
  end=$(date +%s.%N)
  echo "$jobs $(echo "$end - $start" | bc)" >> times.txt
done
/usr/bin/python3 - "$runs" <<'PY'
import sqlite3, sys
runs = int(sys.argv[1])
times = dict(line.split() for line in open("times.txt"))
t1, t2 = float(times["1"]), float(times["2"])
inside = sqlite3.connect("j1.sqlite").execute("SELECT AVG(wall_seconds) FROM runs").fetchone()[0]
per_run = t1 / runs
print(f"{'jobs':>4} {'runs':>5} {'wall s':>8} {'runs/s':>8} {'speed-up':>9}")
print(f"{1:>4} {runs:>5} {t1:>8.2f} {runs / t1:>8.1f} {1.0:>9.2f}")
print(f"{2:>4} {runs:>5} {t2:>8.2f} {runs / t2:>8.1f} {t1 / t2:>9.2f}")
print(f"per run (--jobs 1): {per_run * 1e3:.1f} ms, of which the simulation {inside * 1e3:.1f} ms; "
      f"overhead {(per_run - inside) * 1e3:.1f} ms (process start, scenario parsing, "
      f"topology and routes, database write)")
PY
