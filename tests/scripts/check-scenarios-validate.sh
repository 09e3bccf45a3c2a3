#!/usr/bin/env bash
# Every scenario shipped in scenarios/ validates (schema, topology, fault names), and every
# sweep in scenarios/sweeps/ expands into valid scenarios.
set -euo pipefail
incsim="$1"
source_dir="$2"
count=0
while IFS= read -r file; do
    "$incsim" validate "$file"
    count=$((count + 1))
done < <(find "$source_dir/scenarios" -path "$source_dir/scenarios/sweeps" -prune -o \
             -name '*.json' -print | sort)
while IFS= read -r file; do
    "$incsim" sweep --dry-run "$file"
    count=$((count + 1))
done < <(find "$source_dir/scenarios/sweeps" -name '*.json' | sort)
[ "$count" -gt 0 ] || { echo "no scenarios found"; exit 1; }
echo "$count scenarios valid"
