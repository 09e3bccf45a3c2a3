#!/usr/bin/env bash
# Builds incsim with ASan and UBSan (the asan-ubsan preset of CMakePresets.json, in
# build-asan/) and runs the whole test suite under them; UBSan stops at its first report.
# Prints how long the build and the tests took. Arguments go to ctest, e.g. -R p4 or -LE fuzz.
#
#   ./tools/sanitize.sh [CTEST ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."

launcher=()
if command -v ccache > /dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
start=$(date +%s)
cmake --preset asan-ubsan "${launcher[@]}" > /dev/null
cmake --build --preset asan-ubsan -j "$(nproc)"
built=$(date +%s)
status=0
ctest --preset asan-ubsan "$@" || status=$?
done=$(date +%s)
echo "sanitize: build $((built - start)) s, tests $((done - built)) s (wall time)"
exit "$status"
