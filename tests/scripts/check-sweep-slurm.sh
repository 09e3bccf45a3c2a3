#!/usr/bin/env bash
# The Slurm backend end to end, on a real single-node Slurm started on localhost by
# slurm-fixture.sh: a sweep submitted as a job array gives exactly the results the local
# backend gives, and submitting it again runs nothing.
set -euo pipefail
incsim="$1"
source_dir="$(cd "$2" && pwd)"
fixture="$source_dir/tests/scripts/slurm-fixture.sh"
work="$(mktemp -d)"
state="$work/slurm"
cleanup() { "$fixture" stop "$state" > /dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
eval "$("$fixture" start "$state")"
cd "$work"
cat > sweep.json <<JSON
{
  "name": "slurm-check",
  "scenario": "$source_dir/scenarios/quickstart.json",
  "set": {"duration": "50us", "faults": [], "outputs.traces": []},
  "vary": [{"grid": {"workload.load": [0.2, 0.6]}},
           {"list": [{"routing.ecmp": "per-flow"}, {"routing.ecmp": "per-packet"}]}],
  "repetitions": 2,
  "metrics": ["udp.messages_delivered"]
}
JSON
"$incsim" sweep sweep.json --backend slurm --db slurm.sqlite --out runs-slurm --progress never
"$incsim" sweep sweep.json --backend local --db local.sqlite --out runs-local --progress never -j 2
"$incsim" sweep sweep.json --backend slurm --db slurm.sqlite --out runs-slurm --progress never \
    > again.txt
grep -q "8 already in slurm.sqlite" again.txt || { cat again.txt; exit 1; }
[ -s runs-slurm/slurm-check/slurm/batch-0/array.sh ]
/usr/bin/python3 - <<'PY'
import sqlite3
def table(path):
    db = sqlite3.connect(path)
    runs = db.execute("SELECT run_id, status, seed, \"workload.load\", \"routing.ecmp\" "
                      "FROM runs ORDER BY run_id").fetchall()
    metrics = db.execute("SELECT run_id, name, value FROM metrics ORDER BY run_id, name").fetchall()
    return runs, metrics
slurm, local = table("slurm.sqlite"), table("local.sqlite")
assert len(slurm[0]) == 8 and all(r[1] == "ok" for r in slurm[0]), slurm[0]
assert slurm == local, "the Slurm and local backends disagree"
print(f"{len(slurm[0])} runs, {len(slurm[1])} metric values: Slurm and local agree")
PY
