#!/usr/bin/env bash
# Every scenario shipped in scenarios/ validates (schema, topology, fault names).
set -euo pipefail
incsim="$1"
source_dir="$2"
count=0
while IFS= read -r file; do
    "$incsim" validate "$file"
    count=$((count + 1))
done < <(find "$source_dir/scenarios" -name '*.json' | sort)
[ "$count" -gt 0 ] || { echo "no scenarios found"; exit 1; }
echo "$count scenarios valid"
