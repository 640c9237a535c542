#!/usr/bin/env bash
# Run 47, call 8: compute-sanitizer on 8941ece's binaries: racecheck over gpu-check.sh's cases in
# the suites the automatic rule picks between (delta_stepping, adds), then memcheck over the
# whole list; each bounded so that the call fits the session's remaining device time.
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cases='*small graph for the sanitizers*,*vertex of degree 100k*,*at or below the floor*,*select, gather*,*host entry point*,*bad input*,*overflow*,*give the same distances*,*pull group per row*(min-plus)*,*vxm_closure*,*mxm_closure*,*a source out of range*,*more arcs than the grid holds tiles*,*more sources than blocks*,*sums beyond*,copy_to_host*'
timeout 160 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=delta_stepping,adds -tc="$cases" \
  -tce='*the same graph and source give the same distances*' >$OUT/racecheck.log 2>&1
echo "racecheck rc=$?"; tail -5 $OUT/racecheck.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests \
  -ts=operators,delta_stepping,adds,rdbs,edge_wise,delta_stepping_batch,near_far_blocks,certify_distributed,host_copy \
  -tc="$cases" >$OUT/memcheck.log 2>&1
echo "memcheck rc=$?"; tail -5 $OUT/memcheck.log
