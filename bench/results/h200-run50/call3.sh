#!/usr/bin/env bash
# Run 50, call 3 (one H200): memcheck and racecheck over gpu-check.sh's cases and the one-part
# distributed cases, one after the other, then the quick benchmark alone on the GPU.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
cases='*small graph for the sanitizers*,*vertex of degree 100k*,*at or below the floor*,*select, gather*,*host entry point*,*bad input*,*overflow*,*give the same distances*,*pull group per row*(min-plus)*,*vxm_closure*,*mxm_closure*,*a source out of range*,*more arcs than the grid holds tiles*,*more sources than blocks*,*sums beyond*,copy_to_host*'
timeout 200 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators,delta_stepping,adds,rdbs,edge_wise,delta_stepping_batch,near_far_blocks,certify_distributed,host_copy,distributed \
  -tc="$cases,*one part*uint32*" > $OUT/call3-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call3-memcheck.log
tail -4 $OUT/call3-memcheck.log
timeout 220 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=rdbs,delta_stepping,adds,operators,distributed -tc="$cases,*one part*uint32*" \
  -tce='*the same graph and source give the same distances*' \
  > $OUT/call3-racecheck.log 2>&1; echo "racecheck rc $?" >> $OUT/call3-racecheck.log
tail -4 $OUT/call3-racecheck.log
timeout 150 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out $OUT/quick \
  > $OUT/call3-quick.log 2>&1; echo "quick rc $?" >> $OUT/call3-quick.log
tail -3 $OUT/call3-quick.log
grep -c "^| .*| \([0-9]*\)/\1 |$" $OUT/quick/summary.md 2>/dev/null
