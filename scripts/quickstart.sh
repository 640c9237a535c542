#!/usr/bin/env bash
# Fresh machine to first answer: installs the dependencies, builds tropic (with CUDA when nvcc
# is found), and runs one verified SSSP: on ../shared/data/USA-road-d.NY.gr.gz when it exists,
# else on a generated 512x512 grid. `--algorithm auto` picks the GPU's delta_stepping when a
# device is present and SuiteSparse:GraphBLAS on the CPU otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TROPIC_BUILD_DIR:-build}
jobs=${TROPIC_JOBS:-$(nproc)}

scripts/install-deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$jobs" --target tropic_cli

graph=grid:512:512
[ -f ../shared/data/USA-road-d.NY.gr.gz ] && graph=../shared/data/USA-road-d.NY.gr.gz
"$build"/tropic info "$graph"
"$build"/tropic sssp "$graph" --source 0 --algorithm auto --verify
