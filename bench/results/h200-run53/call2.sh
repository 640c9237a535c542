#!/usr/bin/env bash
# Run 53, call 2 (one H200): pull_live_rows held to 3 blocks a SM for 4-byte values and 2 for
# 8-byte (cand, the tree) against 4 and 3 (base53b), both with the warps' new register bounds:
# delta_stepping on kron-20, kron-22 and uniform-4M, alternating; then the register sweep on
# the tree's library; then the tree's operator and solver suites and memcheck of the pulls.
source build-carry/setup.sh
tar -xJf build-carry/b2.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
G=kron:20:16,kron:22:16,uniform:4194304:7
ab() {  # variant weights round
  timeout 70 build/ab/tropic_bench.$1 --graphs $G --algorithms delta_stepping --weights $2 \
    --certify --no-ceilings --runs 9 --out /tmp/b-$1-$2-$3 > /tmp/b-$1-$2-$3.log 2>&1
  echo "$1 $2 $3 rc $?"; cp /tmp/b-$1-$2-$3/results.csv $OUT/ab-$1-$2-$3.csv
}
ab base53b uint32 1; ab cand uint32 1; ab cand uint32 2; ab base53b uint32 2
ab base53b double 1; ab cand double 1
timeout 60 build/bench/tune/tune_pull_warp_registers data/cnr-2000.el.gz kron:22:16 \
  > $OUT/registers.log 2>&1; echo "registers rc $?" >> $OUT/registers.log
(timeout 200 build/test/tropic_tests -ts=operators > $OUT/operators.log 2>&1; echo "operators rc $?" >> $OUT/operators.log) &
(timeout 220 build/test/tropic_tests -ts=delta_stepping,bellman_ford,workfront,rdbs,many_sources_gpu \
  > $OUT/solvers.log 2>&1; echo "solvers rc $?" >> $OUT/solvers.log) &
(timeout 220 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*,*live*' > $OUT/memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/memcheck.log) &
wait
cat $OUT/registers.log; tail -3 $OUT/operators.log; tail -4 $OUT/solvers.log; tail -3 $OUT/memcheck.log
