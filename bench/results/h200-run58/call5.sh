#!/usr/bin/env bash
# Run 58, call 5 (one H200): three blocks an SM for a wide wavefront (4-byte values, local rounds,
# at least 2^23 vertices; "wide") against pp (call 2's build: the pipelined push_row, two blocks
# an SM everywhere). delta_stepping's test suite on the wide build (its new 2900 x 2900 grid runs
# the three-block instance) and memcheck of its sanitizer and local-round cases; then the grids
# either side of 4096^2 and uniform-16M, the builds alternating, two rounds, every row certified.
source build-carry/setup.sh
tar -xJf build-carry/b8.tar.xz
export NCCL_NVLS_ENABLE=0
exec > $OUT/call5.log 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(timeout 200 build/test/tropic_tests -ts=delta_stepping > /tmp/tests.log 2>&1; echo "tests rc $?" >> /tmp/tests.log) &
cases='*small graph for the sanitizers*,*local rounds and queue size*<unsigned int>,*local rounds: the same distances*'
(timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=delta_stepping -tc="$cases" > /tmp/memcheck.log 2>&1; echo "memcheck rc $?" >> /tmp/memcheck.log) &
wait
cp /tmp/tests.log /tmp/memcheck.log $OUT/
tail -4 /tmp/tests.log; tail -3 /tmp/memcheck.log
mkdir -p /tmp/call5
for round in 1 2; do
  for v in pp wide; do
    timeout 100 build/ab/tropic_bench.$v --graphs grid:3000:3000,grid:4096:4096,grid:5792:5792,uniform:16777216:7 \
      --algorithms delta_stepping --certify --no-ceilings --runs 7 \
      --out /tmp/bench-$v-$round > /tmp/bench-$v-$round.log 2>&1; echo "bench $v $round rc $?"
    cp /tmp/bench-$v-$round/results.csv /tmp/call5/bench-$v-$round.csv
  done
  tar -C /tmp -cJf $OUT/call5-bench.tar.xz call5
done
