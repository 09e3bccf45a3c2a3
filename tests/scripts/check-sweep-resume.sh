#!/usr/bin/env bash
# A sweep killed with SIGKILL at a random point and started again loses no run and redoes
# none that had finished; the database then matches the run directories, metric by metric.
# Usage: check-sweep-resume.sh INCSIM SOURCE_DIR [SEED]
set -euo pipefail
incsim="$1"
source_dir="$(cd "$2" && pwd)"
RANDOM="${3:-$$}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > sweep.json <<JSON
{
  "name": "resume",
  "scenario": "$source_dir/scenarios/quickstart.json",
  "set": {"duration": "100us", "faults": [], "outputs.traces": ["messages"]},
  "vary": [{"grid": {"workload.load": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]}},
           {"list": [{"routing.ecmp": "per-flow"}, {"routing.ecmp": "per-packet"}]}],
  "repetitions": 5,
  "metrics": ["udp.messages_delivered", "udp.latency_p99_us"]
}
JSON
total=60

# Kill the sweep somewhere between its start and its end (a whole sweep takes about 1 s).
"$incsim" sweep sweep.json --db results.sqlite --out runs -j 2 --progress never > first.txt 2>&1 &
sweep=$!
delay_ms=$((50 + RANDOM % 600))
sleep "$(printf '0.%03d' "$delay_ms")"
kill -9 "$sweep" 2> /dev/null || true
wait "$sweep" 2> /dev/null || true
sleep 0.2  # workers die with the sweep (PR_SET_PDEATHSIG)
echo "killed after ${delay_ms} ms"

"$incsim" sweep sweep.json --db results.sqlite --out runs -j 2 --progress never > second.txt
cat second.txt
grep -q "resume: $total runs: " second.txt

/usr/bin/python3 - "$total" <<'PY'
import json, os, sqlite3, sys

total = int(sys.argv[1])
db = sqlite3.connect("results.sqlite")
rows = db.execute("SELECT run_id, status, run_dir, \"workload.load\", \"routing.ecmp\", "
                  "repetition FROM runs WHERE sweep = 'resume'").fetchall()
assert len(rows) == total, f"{len(rows)} runs in the database, expected {total}"
assert len({r[0] for r in rows}) == total, "duplicate run ids"
assert all(r[1] == "ok" for r in rows), [r for r in rows if r[1] != "ok"]
points = {(r[3], r[4], r[5]) for r in rows}
assert len(points) == total, "the database lacks some (load, ecmp, repetition) point"

# The event log: no run starts again once it has finished (ended ok or was recovered).
finished = set()
starts = {}
for line in open("runs/resume/sweep.log"):
    event = json.loads(line)
    run = event["run"]
    if event["event"] == "start":
        assert run not in finished, f"{run} ran again after it had finished"
        starts[run] = starts.get(run, 0) + 1
    elif event["event"] in ("end", "recovered") and event.get("status") == "ok":
        finished.add(run)
assert finished == {r[0] for r in rows}
reruns = sum(n - 1 for n in starts.values())
print(f"runs started twice (interrupted mid-run): {reruns}")

# The database holds what the run directories hold.
def flatten(value, prefix=""):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from flatten(inner, f"{prefix}.{key}" if prefix else key)
    elif isinstance(value, bool):
        yield prefix, float(value)
    elif isinstance(value, (int, float)):
        yield prefix, float(value)

for run_id, _, run_dir, load, ecmp, rep in rows:
    metrics = dict(flatten(json.load(open(os.path.join(run_dir, "metrics.json")))))
    stored = dict(db.execute("SELECT name, value FROM metrics WHERE run_id = ?", (run_id,)))
    assert stored == metrics, f"{run_id}: metrics differ from {run_dir}/metrics.json"
    scenario = json.load(open(os.path.join(run_dir, "scenario.resolved.json")))
    assert scenario["workload"]["load"] == load and scenario["routing"]["ecmp"] == ecmp
    run = json.load(open(os.path.join(run_dir, "run.json")))
    wall = db.execute("SELECT wall_seconds FROM runs WHERE run_id = ?", (run_id,)).fetchone()[0]
    assert abs(wall - run["wall_seconds"]) < 1e-9
    traces = dict(db.execute("SELECT name, path FROM traces WHERE run_id = ?", (run_id,)))
    assert set(traces) == {"messages.csv"}, traces
    assert os.path.getsize(traces["messages.csv"]) > 0
print(f"{total} runs: database and run directories agree")
PY
