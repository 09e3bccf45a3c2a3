#!/usr/bin/env bash
# Runs one libFuzzer binary for a bounded time, starting from the target's seeds
# (tests/fuzz/seeds.sh) and the crashers kept in tests/fuzz/crashers/TARGET. Fails on a finding,
# with the input saved under WORK_DIR/artifacts.
#
#   tests/fuzz/run-fuzzer.sh FUZZER TARGET SOURCE_DIR WORK_DIR SECONDS
set -euo pipefail
fuzzer="$1"
target="$2"
src="$3"
work="$4"
seconds="$5"
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
"$src/tests/fuzz/seeds.sh" "$target" "$src" "$work/seeds"
dirs=("$work/corpus" "$work/seeds/valid" "$work/seeds/other")
if [ -d "$src/tests/fuzz/crashers/$target" ]; then
    dirs+=("$src/tests/fuzz/crashers/$target")
fi
dict=()
if [ -f "$src/tests/fuzz/dicts/$target.dict" ]; then
    dict=(-dict="$src/tests/fuzz/dicts/$target.dict")
fi
status=0
# A fixed seed; the run ends at the time limit. -timeout and -rss_limit_mb make a hang or a
# runaway allocation a finding too. Inputs are mutated up to 32 KiB (a larger seed, such as a
# crasher nesting 100k levels deep, is cut there), which keeps each run fast.
"$fuzzer" -seed=1 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=32768 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 "${dict[@]}" "${dirs[@]}" \
    > "$work/log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    grep -v "^#[0-9]" "$work/log" | tail -n 60
    echo
    echo "fuzz.$target found a problem; the input is in $work/artifacts/:"
    ls -l "$work/artifacts"
    echo "Reproduce: $fuzzer <file>, or incsim_fuzz_replay $target <file> in the g++ build."
    echo "Fix it, and keep the input as tests/fuzz/crashers/$target/<name> (docs/fuzzing.md)."
    exit 1
fi
grep -E "^(INFO: Seed|INFO: .*files found|#[0-9]+.*DONE|stat::)" "$work/log" || tail -n 5 "$work/log"
