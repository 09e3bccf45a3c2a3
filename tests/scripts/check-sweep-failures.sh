#!/usr/bin/env bash
# A sweep records a run that fails (with its stderr tail) and a run that times out, goes on
# with the others, and exits with status 4 (runs failed); `incsim results` lists them and
# exports CSV; a bad sweep file is an error naming its JSON path.
set -euo pipefail
incsim="$1"
source_dir="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > sweep.json <<JSON
{
  "name": "failures",
  "scenario": "$source_dir/scenarios/quickstart.json",
  "set": {"outputs.traces": []},
  "vary": [{"list": [
      {"duration": "50us", "faults": []},
      {"duration": "50us", "faults": [{"at": "80us", "action": "link_down", "link": ["a0_0", "c0"]}]},
      {"duration": "200ms", "faults": []}
  ]}],
  "timeout": "1s",
  "metrics": ["udp.messages_delivered"]
}
JSON
status=0
"$incsim" sweep sweep.json --db results.sqlite --out runs -j 2 --progress never > out.txt 2>&1 \
    || status=$?
cat out.txt
[ "$status" -eq 4 ] || { echo "expected exit status 4 (runs failed), got $status"; exit 1; }
grep -q "1 ran ok, 2 failed" out.txt

"$incsim" results results.sqlite --csv > results.csv
/usr/bin/python3 - <<'PY'
import csv, sqlite3
rows = list(csv.DictReader(open("results.csv")))
assert len(rows) == 3, rows
assert sorted(r["status"] for r in rows) == ["failed", "ok", "timeout"], rows
db = sqlite3.connect("results.sqlite")
by = db.execute("SELECT duration, status, error FROM runs ORDER BY status").fetchall()
states = sorted(r[1] for r in by)
assert states == ["failed", "ok", "timeout"], states
failed = [r for r in by if r[1] == "failed"][0]
assert "fault time is not before the end of the run" in failed[2], failed[2]
assert failed[2].startswith("run with "), failed[2]  # the point, before its error
ok = [r for r in by if r[1] == "ok"][0]
assert float(db.execute("SELECT value FROM metrics m JOIN runs r ON r.run_id = m.run_id "
                        "WHERE r.status = 'ok' AND m.name = 'udp.messages_delivered'")
             .fetchone()[0]) > 0
print("failed and timed-out runs recorded")
PY

# `incsim results` shows each failed run's error under the table, with its point.
"$incsim" results results.sqlite > table.txt
grep -q "^  run with .*: error: .*fault time is not before the end of the run" table.txt \
    || { echo "results does not show the failed run's error:"; cat table.txt; exit 1; }

# Failed runs are tried again; the finished one is not.
status=0
"$incsim" sweep sweep.json --db results.sqlite --out runs -j 2 --progress never > again.txt 2>&1 \
    || status=$?
grep -q "1 already in results.sqlite" again.txt
[ "$status" -eq 4 ]

echo '{"name": "bad", "scenario": "x.json", "vary": [{"grid": {"a": 3}}]}' > bad.json
status=0
"$incsim" sweep bad.json 2> bad.txt || status=$?
[ "$status" -eq 2 ] || { echo "expected exit 2 for a bad sweep file, got $status"; exit 1; }
grep -q "^error: bad.json: /vary/0/grid/a: expected a non-empty array of values, got 3" bad.txt
echo "sweep failures ok"
