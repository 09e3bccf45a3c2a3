#!/usr/bin/env bash
# A world larger than the memory the process may take is refused before it is built, naming
# the estimate: a k=64 fat-tree under a 2 GB address-space limit (ulimit -v), where incsim used
# to die of std::bad_alloc. The limit is the process's, so the outcome does not depend on the
# machine.
set -euo pipefail
incsim="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/k64.json" <<JSON
{"duration": "1ms", "topology": {"generator": "fat-tree", "params": {"k": 64}},
 "protocol": {"name": "udp"}}
JSON
status=0
(ulimit -v 2000000; "$incsim" validate "$work/k64.json") 2> "$work/err" || status=$?
[ "$status" -eq 2 ] || { echo "expected exit 2, got $status"; cat "$work/err"; exit 1; }
expected="^error: $work/k64.json: /topology/params: a world of 65536 hosts, 5120 switches and"
expected+=" 196608 links needs about 19.3 GB of memory \(18.5 GB of it routes: 4 bytes per node"
expected+=" and destination host\), more than the [0-9.]+ [MG]B (left under the address-space"
expected+=" limit \(ulimit -v\)|available on this machine); set /simulator/memory_limit to a"
expected+=" larger size to build it anyway$"
grep -qE "$expected" "$work/err" || { echo "unexpected message:"; cat "$work/err"; exit 1; }
echo "memory limit ok"
