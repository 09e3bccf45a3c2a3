#!/usr/bin/env bash
# Progress goes to stderr: line by line with --progress always, never without a terminal in
# the default (auto) mode, so CI logs stay quiet.
set -euo pipefail
incsim="$1"
source_dir="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scenario="$source_dir/scenarios/quickstart.json"

"$incsim" run "$scenario" --set duration=200us --set faults=[] --out "$work/a" \
    --progress always > /dev/null 2> "$work/always.err"
grep -q "sim .* / 200us .*wall .*ETA" "$work/always.err" \
    || { echo "no progress line with --progress always:"; cat "$work/always.err"; exit 1; }

"$incsim" run "$scenario" --set duration=200us --set faults=[] --out "$work/b" \
    > /dev/null 2> "$work/auto.err" < /dev/null
[ ! -s "$work/auto.err" ] || { echo "auto mode wrote to a non-terminal stderr:"; cat "$work/auto.err"; exit 1; }
# Paced by wall-clock time, not by simulated time: a run whose every 0.1% of simulated time
# takes minutes still reports within seconds, and says at once that it will take over an hour.
status=0
timeout -s INT 6 "$incsim" run "$scenario" --set duration=3600s --set faults=[] --out "$work/c" \
    --progress always > /dev/null 2> "$work/long.err" || status=$?
[ "$status" -eq 124 ] || [ "$status" -eq 130 ] || { echo "long run: expected to be stopped, got $status"; exit 1; }
grep -q "^sim [1-9][0-9.]*[num]*s / 3600s .*wall [0-9.]*s .*events/s .*ETA" "$work/long.err" \
    || { echo "no progress line within 6 s of wall time:"; cat "$work/long.err"; exit 1; }
grep -q "this run will take about .*h" "$work/long.err" \
    || { echo "no warning that the run takes over an hour:"; cat "$work/long.err"; exit 1; }
echo "progress ok"
