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
echo "progress ok"
