#!/usr/bin/env bash
# The quick-start figure script runs on a (shortened) quick-start run and writes non-empty
# PNG and PDF files.
set -euo pipefail
incsim="$1"
source_dir="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$incsim" run "$source_dir/scenarios/quickstart.json" --set duration=500us \
    --set faults=[] --out "$work/run" > /dev/null
/usr/bin/python3 "$source_dir/analysis/quickstart.py" "$work/run" --out "$work/fig" > "$work/table.txt"
for f in "$work/fig.png" "$work/fig.pdf"; do
    [ -s "$f" ] || { echo "missing or empty: $f"; exit 1; }
done
# The PNG is a real image of plausible size, not an empty canvas.
size=$(stat -c %s "$work/fig.png")
[ "$size" -gt 20000 ] || { echo "fig.png suspiciously small ($size bytes)"; exit 1; }
grep -q "message latency" "$work/table.txt"
grep -q "edge→agg" "$work/table.txt"
echo "quickstart plot ok ($size bytes)"
