#!/usr/bin/env bash
# Rewrites the generated blocks of the docs from the code: docs/scenario.md (incsim schema),
# docs/traces.md (incsim traces) and docs/ns3-objects.md (incsim objects). ctest fails while
# they are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
incsim="${1:-build/tools/incsim/incsim}"

regenerate() {
    local doc="$1" subcommand="$2" marker="$3" block
    block="$(mktemp)"
    "$incsim" "$subcommand" > "$block"
    /usr/bin/python3 - "$doc" "$marker" "$block" <<'PY'
import sys
doc, marker, block = sys.argv[1:]
text = open(doc).read()
begin, end = f"<!-- BEGIN GENERATED: {marker} -->\n", f"<!-- END GENERATED: {marker} -->"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(doc, "w").write(head + begin + open(block).read() + end + tail)
PY
    rm -f "$block"
    echo "regenerated $doc"
}

regenerate docs/scenario.md schema schema
regenerate docs/traces.md traces traces
regenerate docs/ns3-objects.md objects objects
