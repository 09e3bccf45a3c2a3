#!/usr/bin/env bash
# Writes a fuzz target's seed inputs, taken from the repository, into OUT/valid (inputs the
# project ships as correct, which the target must accept) and OUT/other (anything else worth
# starting from: sweeps, programs that must fail, p4c's test programs when present).
#
#   tests/fuzz/seeds.sh TARGET SOURCE_DIR OUT
#
# P4 seeds are preprocessed here with incsim's core.p4 and v1model.p4 stubbed out (the target
# puts the real ones in front), so their own includes and macros are expanded. STF and entries
# seeds get the "# program: NAME" first line that tells the target which program to load.
set -euo pipefail
target="$1"
src="$2"
out="$3"
rm -rf "$out"
mkdir -p "$out/valid" "$out/other"

# A file name for FILE made unique by its path: tests/p4/x.p4 -> tests_p4_x.p4.
seed_name() {
    local name="${1#"$src"/}"
    while [ "${name#../}" != "$name" ]; do
        name="${name#../}"
    done
    echo "${name//\//_}"
}

# Copies FILE into DIR.
put() {
    cp "$1" "$2/$(seed_name "$1")"
}

# Preprocesses a P4 FILE into DIR (nothing if cpp rejects it).
put_p4() {
    local file="$1" seed
    seed="$2/$(seed_name "$1")"
    cpp -undef -nostdinc -x c -isystem "$out/stubs" -idirafter "$(dirname "$file")" \
        -D__INCSIM_P4C__=1 "$file" -o "$seed" 2>/dev/null || { rm -f "$seed"; return; }
    # The v1model version the program declares picks the target's prelude: keep that line.
    if grep -q '^#define V1MODEL_VERSION ' "$file"; then
        { grep -m 1 '^#define V1MODEL_VERSION ' "$file"; cat "$seed"; } > "$seed.tmp"
        mv "$seed.tmp" "$seed"
    fi
}

# Copies an STF or entries FILE into DIR with the line naming PROGRAM first.
put_for_program() {
    { echo "# program: $2"; cat "$1"; } > "$3/$(seed_name "$1")"
}

program_name() {
    local base
    base="$(basename "$1" .p4)"
    echo "${base//-/_}"
}

case "$target" in
scenario)
    while IFS= read -r file; do
        if grep -q '"vary"' "$file" || grep -q '"file"' "$file"; then
            put "$file" "$out/other"
        else
            put "$file" "$out/valid"
        fi
    done < <(find "$src/scenarios" -name '*.json' | sort)
    ;;
topology)
    for file in "$src"/topologies/files/*.json "$src"/tests/data/*.json; do
        put "$file" "$out/valid"
    done
    ;;
p4)
    mkdir -p "$out/stubs"
    touch "$out/stubs/core.p4" "$out/stubs/v1model.p4"
    for file in "$src"/p4/*.p4 "$src"/tests/p4/programs/*.p4; do
        put_p4 "$file" "$out/valid"
    done
    while IFS= read -r file; do
        put_p4 "$file" "$out/other"
    done < <(find "$src/tests/p4/constructs" "$src/tests/p4/bad" -name '*.p4' | sort)
    # p4c's v1model test programs (Apache-2.0), read where they are, never copied into the
    # repository (see ../shared/p4c-corpus/README.md).
    corpus="$src/../shared/p4c-corpus"
    if [ -d "$corpus/samples" ]; then
        for file in "$corpus"/samples/*.p4 "$corpus"/errors/*.p4; do
            [ -f "$file" ] && put_p4 "$file" "$out/other"
        done
    fi
    rm -rf "$out/stubs"
    ;;
stf)
    for file in "$src"/tests/p4/programs/*.p4; do
        put_for_program "${file%.p4}.stf" "$(program_name "$file")" "$out/valid"
    done
    for file in "$src"/p4/*.p4; do
        for script in "$src/tests/p4/stf/$(basename "$file" .p4)"/*.stf; do
            put_for_program "$script" "$(program_name "$file")" "$out/valid"
        done
    done
    ;;
entries)
    for file in "$src"/tests/fuzz/seeds/entries/*.json; do
        [ -f "$file" ] && put "$file" "$out/valid"
    done
    ;;
*)
    echo "seeds.sh: unknown target '$target'" >&2
    exit 2
    ;;
esac
if [ -d "$src/tests/fuzz/seeds/$target" ] && [ "$target" != entries ]; then
    for file in "$src/tests/fuzz/seeds/$target"/*; do
        put "$file" "$out/other"
    done
fi
