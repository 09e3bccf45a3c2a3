#!/usr/bin/env bash
# A registered figure reproduces from nothing: `incsim reproduce NAME` runs its sweep into a
# fresh database, the script prints the plotted numbers and writes a non-empty PNG and PDF;
# a second reproduce reuses every run.
#
#   check-figures.sh INCSIM NAME
set -euo pipefail
incsim="$1"
name="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
"$incsim" reproduce --list > list.txt
grep -q "^$name " list.txt || { echo "$name: not in incsim reproduce --list"; cat list.txt; exit 1; }
"$incsim" reproduce "$name" --db results.sqlite --runs runs --out figures > "$name.txt"
cat "$name.txt"
grep -q "^== " "$name.txt" || { echo "$name: no table of plotted numbers"; exit 1; }
for ext in png pdf; do
  [ -s "figures/$name.$ext" ] || { echo "$name: figures/$name.$ext missing or empty"; exit 1; }
done
"$incsim" reproduce "$name" --db results.sqlite --runs runs --out figures > again.txt
grep -q " 0 ran, 0 failed" again.txt || { echo "$name: runs were redone"; cat again.txt; exit 1; }
echo "$name ok"
