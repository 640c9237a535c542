#!/usr/bin/env bash
# Run 59, call 2 (2 x H200): the GPU check of HEAD (5d27a12: for_each_arc; with it 979471a's
# three blocks an SM, never through the whole ctest): the whole ctest in one run (the several-GPU
# cases on both GPUs), and beside it on the second GPU memcheck and racecheck of the cases whose
# kernels changed: delta-stepping's sanitizer and local-round cases, adds' sanitizer case, and
# near_far_blocks' and the mxm batch's suites (the pipelined arc loops).
source build-carry/setup.sh
tar -xJf build-carry/b10.tar.xz
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/call2-ctest.log
ds='*small graph for the sanitizers*,*local rounds and queue size*<unsigned int>,*local rounds: the same distances*'
san() { # tool limit suite cases
  echo "== $1 -ts=$3 -tc=$4"
  timeout $2 compute-sanitizer --tool $1 --error-exitcode 1 --print-limit 20 \
    build/test/tropic_tests -ts="$3" -tc="$4" 2>&1 | tail -4
  echo "$1 rc ${PIPESTATUS[0]}"
}
(export CUDA_VISIBLE_DEVICES=1
 { san memcheck 150 delta_stepping "$ds"
   san memcheck 80 adds '*small graph for the sanitizers*'
   san memcheck 80 near_far_blocks '*every row equals*<unsigned int>,*hubs*<unsigned int>'
   san memcheck 80 delta_stepping_batch '*every row equals*<unsigned int>'; } > $OUT/call2-memcheck.log 2>&1) &
(export CUDA_VISIBLE_DEVICES=1
 { san racecheck 100 delta_stepping '*small graph for the sanitizers*'
   san racecheck 80 adds '*small graph for the sanitizers*'
   san racecheck 80 near_far_blocks '*hubs*<unsigned int>'; } > $OUT/call2-racecheck.log 2>&1) &
(cd build && timeout 540 ctest -j16 --timeout 450 -E package.install_and_use \
  >> $OUT/call2-ctest.log 2>&1; echo "ctest rc $?" >> $OUT/call2-ctest.log)
wait
grep -A16 "tests passed\|tests failed" $OUT/call2-ctest.log | head -30; tail -1 $OUT/call2-ctest.log
grep "rc\|SUMMARY" $OUT/call2-memcheck.log $OUT/call2-racecheck.log
