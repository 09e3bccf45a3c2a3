#!/usr/bin/env bash
# Every fuzz target accepts the valid inputs of the repository (tests/fuzz/seeds.sh), through
# the same entry point the fuzzers use: a target that rejected them would fuzz nothing but its
# error paths. The other seeds must not crash it or escape with a finding either.
#
#   tests/fuzz/check-seeds.sh REPLAY SOURCE_DIR WORK_DIR
set -euo pipefail
replay="$1"
src="$2"
work="$3"
status=0
for target in scenario topology p4 stf entries; do
    "$src/tests/fuzz/seeds.sh" "$target" "$src" "$work/$target"
    if [ -z "$(ls -A "$work/$target/valid")" ]; then
        echo "$target: no valid seeds"
        status=1
    fi
    for kind in valid other; do
        [ -n "$(ls -A "$work/$target/$kind")" ] || continue
        expect=any
        [ "$kind" = valid ] && expect=accepted
        if "$replay" "$target" --expect "$expect" "$work/$target/$kind" > "$work/$target/$kind.log"; then
            echo "$target $kind: $(tail -n 1 "$work/$target/$kind.log")"
        else
            grep -A 20 -E "^(UNEXPECTED|FINDING)" "$work/$target/$kind.log" | head -n 80
            status=1
        fi
    done
done
exit "$status"
