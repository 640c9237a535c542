#!/usr/bin/env bash
# Configures, builds and runs the whole test suite (doctest cases and CLI checks, via ctest).
# GPU tests skip with a printed reason where no CUDA device exists. .ci/run calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TROPIC_BUILD_DIR:-build}
jobs=${TROPIC_JOBS:-$(nproc)}

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$jobs"
ctest --test-dir "$build" --output-on-failure -j"$jobs"
