#!/usr/bin/env bash
# Fresh machine to first answer: installs the dependencies, builds tropic (with CUDA when a GPU
# is usable), and runs one verified SSSP: on ../shared/data/USA-road-d.NY.gr.gz when it exists,
# else on a generated 512x512 grid. `--algorithm auto` picks the GPU's delta_stepping when a
# device is present and SuiteSparse:GraphBLAS on the CPU otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TROPIC_BUILD_DIR:-build}
jobs=${TROPIC_JOBS:-$(nproc)}

scripts/install-deps.sh
# Without a usable GPU the CUDA code could not run here: build CPU-only, which is several times
# less compile work (TROPIC_CUDA=AUTO, ON or OFF in the environment overrides this choice).
cuda=${TROPIC_CUDA:-}
if [ -z "$cuda" ]; then
  if nvidia-smi -L >/dev/null 2>&1; then
    cuda=AUTO  # CUDA when nvcc is found
  else
    cuda=OFF
    echo "note: no usable NVIDIA GPU here (nvidia-smi fails): building tropic CPU-only;"
    echo "      algorithms run on the CPU (dijkstra, graphblas_cpu). Set TROPIC_CUDA=ON to"
    echo "      build the CUDA code anyway."
  fi
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTROPIC_CUDA="$cuda"
# tropic_bench too: 'tropic bench', the README's next command, runs it.
cmake --build "$build" -j"$jobs" --target tropic_cli tropic_bench

graph=grid:512:512
[ -f ../shared/data/USA-road-d.NY.gr.gz ] && graph=../shared/data/USA-road-d.NY.gr.gz
"$build"/tropic info "$graph"
"$build"/tropic sssp "$graph" --source 0 --algorithm auto --verify

# The Python module, and the scipy user's three lines with one import swapped.
py=${TROPIC_PYTHON:-$PWD/.venv/bin/python}
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
