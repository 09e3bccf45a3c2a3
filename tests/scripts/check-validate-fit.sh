#!/usr/bin/env bash
# `incsim validate` assembles the whole simulation: a topology whose routes are not a DAG is
# rejected (exit 3) when the scenario requires one, naming a cycle; a fitting one passes.
set -euo pipefail
incsim="$1"
source_dir="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/ring.json" <<JSON
{"duration": "1ms", "topology": {"file": "$source_dir/tests/data/ring4.json"},
 "routing": {"require_dag": true}, "protocol": {"name": "udp"}}
JSON
status=0
"$incsim" validate "$work/ring.json" 2> "$work/err" || status=$?
[ "$status" -eq 3 ] || { echo "expected exit 3, got $status"; cat "$work/err"; exit 1; }
grep -q "needs routes that form a DAG.*cycle of directed links: s[0-3]->s[0-3]" "$work/err" \
    || { echo "unexpected message:"; cat "$work/err"; exit 1; }
"$incsim" validate "$work/ring.json" --set routing.require_dag=false > /dev/null
"$incsim" validate "$source_dir/scenarios/examples/onepipe-testbed.json" > /dev/null
echo "validate fit ok"
