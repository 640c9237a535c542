#!/usr/bin/env bash
# Prepares a run on the GPU machine of binaries built here (the development VM has nvcc but no
# GPU; the GPU machine has no package registry and takes at most 64 MiB of carried files).
#
#   scripts/device-carry.sh [BUILD_DIR]     (default: build, configured with
#                                            -DTROPIC_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90)
#
# writes into the git-ignored folders build-carry/ and data/:
#   build-carry/build.tar.xz  the build's binaries, ctest files and generated headers (no object
#                             files; xz -9 shares the CUDA fat binaries between the executables)
#   build-carry/gb.tar.xz     the SuiteSparse:GraphBLAS runtime library (from .deps, see
#                             scripts/fetch-gpu-deps.sh)
#   build-carry/setup.sh      to `source` there, from the repository root
#   data/                     a copy of ../shared/data (the real graphs of the tests and the suite;
#                             deflated again by zopfli where it is installed)
# Then, with the device tool: carry ["build-carry", "data"] and run e.g.
#   source build-carry/setup.sh && TROPIC_BUILD_DIR=build scripts/gpu-check.sh --prebuilt
# (Commit before building: the benchmark prints the commit the binaries were built from.)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ -x "$build/tropic" ] || { echo "device-carry.sh: no $build/tropic: build first" >&2; exit 1; }
mkdir -p build-carry data

if [ -d ../shared/data ]; then
  cp -u ../shared/data/* data/ && chmod -R u+w data
fi
# The shared graphs deflated again by zopfli where it is installed (pip install zopfli): the same
# bytes inflated, ~30% smaller (16.5 -> 11.7 MB), which leaves a whole build room beside them
# under the carry's 64 MiB. A stamp newer than the file marks one done; a fresh copy is redone.
if python3 -c 'import zopfli' 2>/dev/null; then
  for f in data/*.gz; do
    [ -e "$f" ] || continue
    stamp="data/.zopfli-$(basename "$f")"
    [ "$stamp" -nt "$f" ] && continue
    python3 - "$f" <<'PY'
import gzip, sys, zopfli.gzip
path = sys.argv[1]
raw = gzip.open(path, "rb").read()
packed = zopfli.gzip.compress(raw, numiterations=3)
assert gzip.decompress(packed) == raw
with open(path, "wb") as out:
    out.write(packed)
PY
    touch "$stamp"
  done
fi

if [ ! -f build-carry/gb.tar.xz ]; then
  ls .deps/debs/libgraphblas7_*.deb >/dev/null 2>&1 || scripts/fetch-gpu-deps.sh
  tmp=$(mktemp -d)
  dpkg -x .deps/debs/libgraphblas7_*.deb "$tmp"
  lib=$(dirname "$(find "$tmp" -name 'libgraphblas.so.*' | head -1)")
  XZ_OPT="-9e -T2" tar -cJf build-carry/gb.tar.xz -C "$lib" .  # -9e: 22 -> 18 MB
  rm -rf "$tmp"
fi

# Files only (tar -T takes no empty folders: setup.sh makes the ones tests write into).
find "$build" -type f \( -perm -u+x -o -name '*.cmake' -o -name 'CTestTestfile*' -o -name '*.hpp' \
  -o -name '*.txt' \) ! -path '*/CMakeFiles/*' ! -name '*.o' >build-carry/files.list
XZ_OPT="-9 -T2" tar -cJf build-carry/build.tar.xz -T build-carry/files.list

python=$(sed -n 's/^TROPIC_PYTHON3:FILEPATH=//p' "$build/CMakeCache.txt")
cat >build-carry/setup.sh <<EOF
# Sourced on the GPU machine from the repository root (written by scripts/device-carry.sh).
mkdir -p /tmp/gb && tar -xJf build-carry/gb.tar.xz -C /tmp/gb
export LD_LIBRARY_PATH=/tmp/gb\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
# Always unpacked when carried: a warm machine keeps the build folder of an earlier call (stale
# binaries, or an empty folder from a call that carried no build.tar.xz).
if [ -f build-carry/build.tar.xz ]; then tar -xJf build-carry/build.tar.xz; fi
mkdir -p $build/test/cli  # made at configure time; the CLI tests write into it
# ctest's files name this machine's paths: the tree, /usr/bin/cmake (the CLI tests run
# \`cmake -P\`), the Python that runs bench/results_tables.py and ../shared/data (the CLI tests
# read it).
if [ ! -e "$(pwd -P)" ]; then mkdir -p "$(dirname "$(pwd -P)")" && ln -s "\$(pwd -P)" "$(pwd -P)"; fi
if [ ! -x "$(command -v cmake)" ] && command -v cmake >/dev/null; then ln -sf "\$(command -v cmake)" "$(command -v cmake)"; fi
if [ -n "$python" ] && [ ! -x "$python" ] && command -v python3 >/dev/null; then mkdir -p "$(dirname "$python")" && ln -sf "\$(command -v python3)" "$python"; fi
shared_data="$(cd .. && pwd -P)/shared/data"
if [ ! -d "\$shared_data" ]; then mkdir -p "\$(dirname "\$shared_data")" && ln -sfn "\$(pwd -P)/data" "\$shared_data"; fi
EOF
du -sh build-carry/*.tar.xz data | sed 's/^/device-carry.sh: /'
echo "device-carry.sh: carried with the tracked tree this must stay under 64 MiB in all"
