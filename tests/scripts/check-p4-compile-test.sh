#!/usr/bin/env bash
# `incsim p4 compile` prints or writes the generated C++, the contract and the IR; `incsim p4
# test` passes a good STF script, fails a wrong one with exit 1 and a byte-level diff, and
# refuses a program that is not compiled into incsim, naming the ones that are.
set -euo pipefail
incsim="$1"
source_dir="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$source_dir"

"$incsim" p4 compile p4/forward.p4 > "$work/forward.cc"
grep -q "class GeneratedV1Program final : public p4rt::V1Program" "$work/forward.cc"
"$incsim" p4 compile p4/forward.p4 -o "$work/out" > /dev/null
[ -s "$work/out/forward.h" ] && [ -s "$work/out/forward.cc" ]
grep -q "namespace incsim::p4gen::forward::contract" "$work/out/forward-contract.h"
"$incsim" p4 compile p4/forward.p4 --contract > "$work/forward-contract.h"
cmp "$work/forward-contract.h" "$work/out/forward-contract.h"
status=0
"$incsim" p4 compile tests/p4/bad/backend/meter.p4 2> "$work/meter-err" > /dev/null || status=$?
[ "$status" -eq 2 ] || { echo "p4 compile: expected exit 2 (invalid input), got $status"; exit 1; }
grep -q "meter.p4:[0-9]*:[0-9]*: error: extern 'meter' is outside" "$work/meter-err"
# --dump-ir prints the mid-end's IR (golden in tests/p4/ir/); lowering errors are invalid input.
"$incsim" p4 compile tests/p4/ir/small.p4 --dump-ir > "$work/small.ir"
cmp "$work/small.ir" tests/p4/ir/small.ir
status=0
"$incsim" p4 compile tests/p4/bad/backend/meter.p4 --dump-ir 2> "$work/meter-ir-err" > /dev/null \
    || status=$?
[ "$status" -eq 2 ] || { echo "p4 compile --dump-ir: expected exit 2, got $status"; exit 1; }
grep -q "meter.p4:[0-9]*:[0-9]*: error: extern 'meter' is outside" "$work/meter-ir-err"

"$incsim" p4 test p4/forward.p4 tests/p4/stf/forward/unicast.stf > "$work/pass"
grep -q "unicast.stf: passed" "$work/pass"

# A wrong expectation: the first expected port of unicast.stf, moved to another port.
awk '/^expect / && !done { $2 = $2 + 40; done = 1 } { print }' \
    tests/p4/stf/forward/unicast.stf > "$work/wrong.stf"
status=0
"$incsim" p4 test p4/forward.p4 "$work/wrong.stf" > "$work/fail-out" 2> "$work/fail-err" || status=$?
[ "$status" -eq 1 ] || { echo "p4 test: expected exit 1 for a wrong script, got $status"; exit 1; }
grep -q "wrong.stf: FAILED" "$work/fail-out"
grep -q "wrong.stf:[0-9]*: " "$work/fail-err"

cp p4/forward.p4 "$work/copy.p4"
status=0
"$incsim" p4 test "$work/copy.p4" tests/p4/stf/forward/unicast.stf 2> "$work/missing" || status=$?
[ "$status" -eq 2 ] || { echo "p4 test: expected exit 2 for an unknown program, got $status"; exit 1; }
grep -q "is not compiled into incsim" "$work/missing"
grep -q "p4/forward.p4" "$work/missing"
# A write that fails is an error (exit 5), not a silent success.
status=0
"$incsim" p4 compile p4/forward.p4 > /dev/full 2> "$work/full" || status=$?
[ "$status" -eq 5 ] || { echo "p4 compile > /dev/full: expected exit 5, got $status"; exit 1; }
grep -q "cannot write to standard output" "$work/full"
echo "p4 compile and test ok"
