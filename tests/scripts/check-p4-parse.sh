#!/usr/bin/env bash
# `incsim p4 parse` and `incsim p4 check` accept a valid program (parse dumps it), and reject a
# bad one (or an empty file, which has no `main`) with exit 2 and a compiler-style
# file:line:col diagnostic with a caret.
set -euo pipefail
incsim="$1"
source_dir="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$source_dir"
"$incsim" p4 parse tests/p4/constructs/basic.p4 --dump-ast > "$work/dump.p4"
grep -q "control" "$work/dump.p4"
status=0
"$incsim" p4 parse tests/p4/bad/parser/for-loop.p4 2> "$work/err" || status=$?
[ "$status" -eq 2 ] || { echo "expected exit 2 (invalid input), got $status"; exit 1; }
grep -qE "^tests/p4/bad/parser/for-loop.p4:[0-9]+:[0-9]+: error: .*for" "$work/err"
grep -q "\^" "$work/err"
"$incsim" p4 check tests/p4/constructs/basic.p4 > "$work/ok"
grep -q "basic.p4: ok" "$work/ok"
status=0
"$incsim" p4 check tests/p4/bad/checker/argument-type.p4 2> "$work/check-err" || status=$?
[ "$status" -eq 2 ] || { echo "p4 check: expected exit 2 (invalid input), got $status"; exit 1; }
expected="$(head -1 tests/p4/bad/checker/argument-type.p4 | sed 's|^// expect: |tests/p4/bad/checker/|')"
[ "$(head -1 "$work/check-err")" = "$expected" ] \
    || { echo "p4 check: expected '$expected', got:"; cat "$work/check-err"; exit 1; }
# An empty file parses and type-checks, but a program must instantiate `main`.
: > "$work/empty.p4"
status=0
"$incsim" p4 check "$work/empty.p4" 2> "$work/empty-err" || status=$?
[ "$status" -eq 2 ] || { echo "p4 check of an empty file: expected exit 2, got $status"; exit 1; }
grep -q "^$work/empty.p4:1:1: error: the program instantiates no package 'main'" "$work/empty-err" \
    || { echo "p4 check of an empty file: unexpected message:"; cat "$work/empty-err"; exit 1; }
# --library: a file of declarations without `main` (p4/lib/headers.p4) checks clean.
"$incsim" p4 check --library p4/lib/headers.p4 > "$work/library"
grep -q "headers.p4: ok" "$work/library"
echo "p4 parse and check ok"
