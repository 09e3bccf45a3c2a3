#!/usr/bin/env bash
# Quick start, step 1: install the Debian packages, build incsim, run scenarios/quickstart.json,
# print its summary and plot it (runs/quickstart/quickstart.png).
set -euo pipefail
cd "$(dirname "$0")/.."

./tools/setup-debian.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$(nproc)"
./build/tools/incsim/incsim run scenarios/quickstart.json --out runs/quickstart
/usr/bin/python3 analysis/quickstart.py runs/quickstart
