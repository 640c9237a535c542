#!/usr/bin/env bash
# Builds the libFuzzer targets of test/fuzz/ with clang (ASan + UBSan) and runs each for
# SECONDS (default 60), from the checked-in seed corpus and the format's dictionary. Prints the
# executions per target and in total; exits 1 on the first finding (the crashing input is left
# in $TROPIC_FUZZ_DIR/findings). Needs clang++ with libFuzzer (apt-get install clang).
#   scripts/fuzz.sh [SECONDS] [TARGET...]   e.g. scripts/fuzz.sh 30 fuzz_mtx fuzz_snap_gz
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
dir=${TROPIC_FUZZ_DIR:-build-fuzz}
cxx=${TROPIC_FUZZ_CXX:-clang++}
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz.sh: $cxx not found; the fuzz targets need clang with libFuzzer" >&2
  exit 2
fi
cmake -S test/fuzz -B "$dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j"${TROPIC_JOBS:-$(nproc)}" >/dev/null
targets=("$@")
if ((${#targets[@]} == 0)); then
  for f in mtx dimacs snap galois tgr; do targets+=("fuzz_$f" "fuzz_${f}_gz"); done
fi
mkdir -p "$dir/findings"
total=0
for t in "${targets[@]}"; do
  format=${t#fuzz_}
  format=${format%_gz}
  dict=test/fuzz/$format.dict
  [ -f "$dict" ] || dict=test/fuzz/binary.dict
  work=$dir/corpus/$t
  mkdir -p "$work"
  log=$dir/$t.log
  # -rss_limit_mb: the readers honour read_options.memory_limit (16 MiB in the target); more
  # than this would be an unbounded allocation, which is a finding.
  if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$dir/$t" "$work" "test/fuzz/corpus/$format" -dict="$dict" -max_total_time="$seconds" \
    -rss_limit_mb=1024 -timeout=10 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$dir/findings/$t-" >"$log" 2>&1; then
    echo "fuzz.sh: $t found a problem; see $log and $dir/findings/" >&2
    tail -40 "$log" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  echo "$t: ${runs:-0} executions in ${seconds} s, no finding"
  total=$((total + ${runs:-0}))
done
echo "total: $total executions, no finding"
