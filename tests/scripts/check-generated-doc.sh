#!/usr/bin/env bash
# A doc's generated block must equal what the code prints now, so docs cannot drift.
# usage: check-generated-doc.sh INCSIM DOC.md SUBCOMMAND MARKER
set -euo pipefail
incsim="$1"
doc="$2"
subcommand="$3"
marker="$4"
generated="$(mktemp)"
documented="$(mktemp)"
trap 'rm -f "$generated" "$documented"' EXIT

"$incsim" "$subcommand" > "$generated"
sed -n "/<!-- BEGIN GENERATED: $marker -->/,/<!-- END GENERATED: $marker -->/p" "$doc" \
    | sed '1d;$d' > "$documented"
if ! diff -u "$documented" "$generated"; then
    echo "$doc is out of date: regenerate its '$marker' block with 'incsim $subcommand'"
    exit 1
fi
echo "$doc matches 'incsim $subcommand'"
