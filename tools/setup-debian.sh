#!/usr/bin/env bash
# Installs every Debian 12 package incsim needs. Idempotent; run as root (or with sudo available).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git cpp
  # clang with libFuzzer, ASan and UBSan: the fuzzers (tests/fuzz, docs/fuzzing.md)
  clang libclang-rt-14-dev
  ns3 libns3-dev libgsl-dev
  libboost-graph-dev libfmt-dev libspdlog-dev nlohmann-json3-dev
  catch2 libcli11-dev libsqlite3-dev sqlite3 libbenchmark-dev
  python3 python3-matplotlib python3-pandas python3-numpy
  graphviz
  slurm-wlm slurm-client munge
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
