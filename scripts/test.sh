#!/usr/bin/env bash
# Configures, builds and runs the whole test suite (doctest cases, CLI and layer checks, via
# ctest), then installs the Python module and runs its pytest suite. GPU tests skip with a
# printed reason where no CUDA device exists. .ci/run calls this.
# Arguments go to the configure step, e.g. `TROPIC_BUILD_DIR=build-cpu scripts/test.sh
# -DTROPIC_CUDA=OFF` for the CPU-only build.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TROPIC_BUILD_DIR:-build}
jobs=${TROPIC_JOBS:-$(nproc)}

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build" -j"$jobs"
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "note: no usable CUDA device here: the GPU test cases skip, each printing why (see below)"
  # Show one GPU suite's skip messages in the log, so the skip is visible, not silent.
  "$build"/test/tropic_tests -ts=delta_stepping -s 2>&1 | grep -m3 "skipped" || true
fi
ctest --test-dir "$build" --output-on-failure -j"$jobs"

# The Python module: installed with pip from this tree (the configure arguments above passed on,
# e.g. -DTROPIC_CUDA=OFF), then its pytest suite; -rs prints why each skipped test skipped.
py=${TROPIC_PYTHON:-$PWD/.venv/bin/python}
[ -x "$py" ] || py=python3
defines=()
for arg in "$@"; do
  case "$arg" in -D*) defines+=("-Ccmake.define.${arg#-D}") ;; esac
done
"$py" -m pip install -q --no-build-isolation . -Cbuild-dir="$build-python" "${defines[@]}"
(cd python/tests && "$py" -m pytest -q -rs -p no:cacheprovider .)
