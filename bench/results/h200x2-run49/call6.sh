#!/usr/bin/env bash
# Run 49, call 6 (one H200: the only kind lent): the GPU check of the final binaries (92a839b).
# ctest whole on the one GPU (several-GPU cases skip), beside it memcheck and racecheck over
# gpu-check.sh's cases and the one-part distributed cases, then the quick benchmark (validity:
# it shares the GPU).
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
cases='*small graph for the sanitizers*,*vertex of degree 100k*,*at or below the floor*,*select, gather*,*host entry point*,*bad input*,*overflow*,*give the same distances*,*pull group per row*(min-plus)*,*vxm_closure*,*mxm_closure*,*a source out of range*,*more arcs than the grid holds tiles*,*more sources than blocks*,*sums beyond*,copy_to_host*'
(cd build && timeout 370 ctest -j12 --timeout 300 -E package.install_and_use > $OUT/call6-ctest.log 2>&1; echo "ctest rc $?" >> $OUT/call6-ctest.log) &
(timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators,delta_stepping,adds,rdbs,edge_wise,delta_stepping_batch,near_far_blocks,certify_distributed,host_copy,distributed \
  -tc="$cases,*one part*uint32*" > $OUT/call6-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call6-memcheck.log
 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=rdbs,delta_stepping,adds,operators,distributed -tc="$cases,*one part*uint32*" \
  -tce='*the same graph and source give the same distances*' \
  > $OUT/call6-racecheck.log 2>&1; echo "racecheck rc $?" >> $OUT/call6-racecheck.log
 timeout 120 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out $OUT/quick \
  > $OUT/call6-quick.log 2>&1; echo "quick rc $?" >> $OUT/call6-quick.log) &
wait
grep -A2 "tests passed\|tests failed" $OUT/call6-ctest.log | head -20; tail -1 $OUT/call6-ctest.log
for f in memcheck racecheck quick; do echo "== $f"; tail -3 $OUT/call6-$f.log; done
grep -c "^| .*| \([0-9]*\)/\1 |$" $OUT/quick/summary.md 2>/dev/null
