#!/usr/bin/env bash
# The Slurm backend end to end, on a real single-node Slurm started on localhost by
# slurm-fixture.sh: a sweep submitted as a job array gives exactly the results the local
# backend gives (failed runs included, with their errors), and submitting it again runs only
# the failed ones.
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
  "set": {"duration": "50us", "outputs.traces": []},
  "vary": [{"grid": {"workload.load": [0.2, 0.6]}},
           {"list": [{"routing.ecmp": "per-flow", "faults": []},
                     {"routing.ecmp": "per-packet", "faults": []},
                     {"routing.ecmp": "per-flow",
                      "faults": [{"at": "80us", "action": "link_down", "link": ["a0_0", "c0"]}]}]}],
  "repetitions": 2,
  "metrics": ["udp.messages_delivered"]
}
JSON
# 12 runs, of which the 4 with a fault after the end of the run fail: exit status 4.
expect_status() {
  local expected="$1"; shift
  local status=0
  "$@" || status=$?
  [ "$status" -eq "$expected" ] || { echo "expected exit status $expected, got $status: $*"; exit 1; }
}
expect_status 4 "$incsim" sweep sweep.json --backend slurm --db slurm.sqlite --out runs-slurm \
    --progress never
expect_status 4 "$incsim" sweep sweep.json --backend local --db local.sqlite --out runs-local \
    --progress never -j 2
expect_status 4 "$incsim" sweep sweep.json --backend slurm --db slurm.sqlite --out runs-slurm \
    --progress never > again.txt
grep -q "8 already in slurm.sqlite, 0 recovered from disk, 0 ran ok, 4 failed" again.txt \
    || { cat again.txt; exit 1; }
[ -s runs-slurm/slurm-check/slurm/batch-0/array.sh ]
/usr/bin/python3 - <<'PY'
import sqlite3
def table(path):
    db = sqlite3.connect(path)
    runs = db.execute("SELECT run_id, status, seed, \"workload.load\", \"routing.ecmp\", "
                      "error FROM runs ORDER BY run_id").fetchall()
    metrics = db.execute("SELECT run_id, name, value FROM metrics ORDER BY run_id, name").fetchall()
    return runs, metrics
slurm, local = table("slurm.sqlite"), table("local.sqlite")
assert len(slurm[0]) == 12, slurm[0]
assert sorted(r[1] for r in slurm[0]).count("failed") == 4, slurm[0]
assert all("fault time is not before the end" in r[5] for r in slurm[0] if r[1] == "failed")
assert slurm == local, "the Slurm and local backends disagree"
print(f"{len(slurm[0])} runs, {len(slurm[1])} metric values: Slurm and local agree")
PY
