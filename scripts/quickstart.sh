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

# The Python module, and the scipy user's three lines with one import swapped.
py=${TROPIC_PYTHON:-.venv/bin/python}
[ -x "$py" ] || py=python3
"$py" -m pip install -q --no-build-isolation . -Cbuild-dir="$build-python"
"$py" - "$graph" <<'EOF'
import sys, numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scipy_csgraph, tropic
from tropic.csgraph import dijkstra
path = sys.argv[1]
A = tropic.read_graph(path) if not path.startswith("grid:") else sp.random_array(
    (100000, 100000), density=4e-5, format="csr", rng=0)
same = np.array_equal(dijkstra(A, indices=0), scipy_csgraph.dijkstra(A, indices=0))
print(f"tropic.csgraph.dijkstra on {A.shape[0]} vertices: identical to scipy's: {same}")
sys.exit(0 if same else 1)
EOF
