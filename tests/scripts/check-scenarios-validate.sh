#!/usr/bin/env bash
# Every scenario shipped in scenarios/ validates (schema, topology, fault names), and every
# sweep (a file with a "vary" list, in scenarios/sweeps/ or next to its protocol's scenarios)
# expands into valid scenarios.
set -euo pipefail
incsim="$1"
source_dir="$2"
count=0
while IFS= read -r file; do
    if grep -q '"vary"' "$file"; then
        "$incsim" sweep --dry-run "$file"
    else
        "$incsim" validate "$file"
    fi
    count=$((count + 1))
done < <(find "$source_dir/scenarios" -name '*.json' | sort)
[ "$count" -gt 0 ] || { echo "no scenarios found"; exit 1; }
echo "$count scenarios valid"
