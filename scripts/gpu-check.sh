#!/usr/bin/env bash
# The whole GPU check on a machine with an NVIDIA GPU (our H100): build for sm_90, run the whole
# test suite, the Python module's pytest suite and its per-call overhead, compute-sanitizer
# memcheck and racecheck on the GPU tests, then the quick benchmark, printing a short table last.
#
# Usage: scripts/gpu-check.sh [--no-sanitizer] [--no-bench] [--only-bench] [--suite quick|full]
#                             [--bench-arg ARG]...   (passed on to tropic_bench)
#                             [--ctest-arg ARG]...   (passed on to ctest, e.g. -R or -E: the
#                                            whole suite can take longer than one device call)
#                             [--only-sanitizer memcheck|racecheck]   (that tool alone)
#                             [--prebuilt]   (use the sm_90 binaries already in the build folder:
#                                            built on another machine from the same tree;
#                                            scripts/device-carry.sh packs them)
# Dependencies: as scripts/install-deps.sh, or Debian packages carried in .deps/debs (the GPU
# machine has no package registry): scripts/fetch-gpu-deps.sh downloads them here, the device
# run carries `.deps` (and `data`, a copy of ../shared/data), and this script unpacks them into
# a private prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=1 bench=1 tests=1 suite=quick bench_args=() ctest_args=() prebuilt=0
tools="memcheck racecheck"
while (($#)); do
  case "$1" in
    --no-sanitizer) sanitize=0 ;;
    --no-bench) bench=0 ;;
    --only-bench) tests=0 sanitize=0 ;;
    --bench-arg) bench_args+=("$2"); shift ;;
    --ctest-arg) ctest_args+=("$2"); shift ;;
    --only-sanitizer) tests=0 bench=0 tools=$2; shift ;;
    --suite) suite=$2; shift ;;
    --prebuilt) prebuilt=1 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
build=${TROPIC_BUILD_DIR:-build-gpu}
# Logs go to $build/gpu-check; on the device tool's machine the few that matter are copied to
# $OUT at the end (it returns at most 8 files).
out=$build/gpu-check
mkdir -p "$out"

cmake_prefix=()
if [ -d .deps/debs ] && ! [ -f /usr/include/GraphBLAS.h ]; then
  prefix=/tmp/tropic-deps
  for f in .deps/debs/*.deb; do dpkg -x "$f" "$prefix"; done
  multiarch=$(ls "$prefix/usr/lib" | grep -m1 linux-gnu)
  # zlib1g-dev's libz.so names the runtime package's libz.so.1, which the machine has in its own
  # lib folder: without the link CMake takes the static libz.a, which is not position-independent
  # and cannot link into the Python module.
  zlib=$(ls /lib/"$multiarch"/libz.so.1 /usr/lib/"$multiarch"/libz.so.1 2>/dev/null | head -1)
  [ -e "$prefix/usr/lib/$multiarch/libz.so" ] || [ -z "$zlib" ] ||
    ln -sf "$zlib" "$prefix/usr/lib/$multiarch/libz.so"
  cmake_prefix=(-DCMAKE_PREFIX_PATH="$prefix/usr" -DCMAKE_LIBRARY_PATH="$prefix/usr/lib/$multiarch")
  export LD_LIBRARY_PATH="$prefix/usr/lib/$multiarch${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
if ((prebuilt)); then
  # ctest's files and the tests' data paths name the building machine's tree: the caller links
  # that path to this tree when they differ.
  echo "== prebuilt binaries in $build ($(sed -n 's/.*COMMIT "\(.*\)"/commit \1/p' \
    "$build/bench/build_commit.hpp" 2>/dev/null))"
else
  echo "== build (sm_90)"
  # The Python module builds in the same tree where nanobind is installed (its GPU tests below).
  python=()
  ((tests)) && python3 -m nanobind --cmake_dir >/dev/null 2>&1 && python=(-DTROPIC_BUILD_PYTHON=ON)
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTROPIC_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    "${cmake_prefix[@]}" "${python[@]}" >"$out/configure.log"
  # --only-bench builds the harness alone (a minute less on the device before the suite starts).
  targets=()
  ((tests)) || targets=(--target tropic_bench)
  cmake --build "$build" -j"$(nproc)" "${targets[@]}" >"$out/build.log" 2>&1 ||
    { tail -50 "$out/build.log"; exit 1; }
fi

status=0
if ((tests)); then
echo "== tests"
ctest --test-dir "$build" --output-on-failure -j4 --timeout 300 "${ctest_args[@]}" \
  >"$out/ctest.log" 2>&1 || status=1
grep -E "tests passed|FAILED|\(Failed\)|\(Timeout\)" "$out/ctest.log" || true
fi

if ((tests)); then
  # The pytest suite against the module of this build (its GPU cases run here), then a resident
  # tropic.Graph's per-call overhead over the C++ solve.
  module=$(ls "$build"/python/_tropic*.so 2>/dev/null | head -1)
  if [ -n "$module" ]; then
    echo "== python"
    stage=$PWD/$build/python-stage
    rm -rf "$stage"; mkdir -p "$stage/tropic"
    cp python/tropic/*.py "$module" "$stage/tropic/"
    (cd python/tests && PYTHONPATH=$stage python3 -m pytest -q -rs -p no:cacheprovider .) \
      >"$out/pytest.log" 2>&1 || status=1
    tail -3 "$out/pytest.log"
    PYTHONPATH=$stage python3 bench/python_overhead.py 2>&1 | tee "$out/python-overhead.txt" || status=1
  else
    echo "== python: not built (python3 -m pip install nanobind, or see the README)"
  fi
fi

if ((sanitize)); then
  # The sanitizers slow kernels 10-100x: run the GPU suites on their smaller cases.
  cases='*small graph for the sanitizers*,*vertex of degree 100k*,*at or below the floor*,*select, gather*,*host entry point*,*bad input*,*overflow*,*give the same distances*,*pull group per row*(min-plus)*,*vxm_closure*,*mxm_closure*,*a source out of range*,*more arcs than the grid holds tiles*,*more sources than blocks*,*sums beyond*,copy_to_host*'
  for tool in $tools; do
    echo "== compute-sanitizer $tool"
    # Under racecheck, delta_stepping's 40 solves of a Kronecker graph in "the same distances on
    # every run" took more than 8 minutes (H100): its small graph stands in there.
    exclude=()
    [ "$tool" = racecheck ] && exclude=(-tce='*the same graph and source give the same distances*')
    suites=operators,delta_stepping,adds,rdbs,edge_wise,delta_stepping_batch,near_far_blocks,certify_distributed,host_copy
    compute-sanitizer --tool "$tool" --error-exitcode 1 --print-limit 20 \
      "$build/test/tropic_tests" -ts="$suites" -tc="$cases" "${exclude[@]}" 2>&1 |
      tee "$out/sanitizer-$tool.log" | tail -6 || status=1
  done
fi

if ((bench)); then
  echo "== benchmark ($suite suite)"
  # Under the device tool the harness writes into $OUT itself: its CSV rows come back even when
  # the call's time limit cuts the suite short.
  bench_out=${OUT:+$OUT/bench}
  bench_out=${bench_out:-$out/bench}
  "$build/bench/tropic_bench" --suite "$suite" --out "$bench_out" "${bench_args[@]}" \
    2> >(tee "$bench_out-progress.log" | grep -E '^loading|done in' >&2) || status=1
  # The short table last: the summary's main table.
  sed -n '/^## Results/,/^## [A-Z]/p' "$bench_out/summary.md" | grep '^|' | head -80
fi
if [ -n "${OUT:-}" ]; then
  cp "$out"/ctest.log "$out"/device.txt "$out"/pytest.log "$out"/python-overhead.txt "$OUT"/ 2>/dev/null || true
  cp "$out"/sanitizer-*.log "$OUT"/ 2>/dev/null || true
fi
exit $status
