#!/usr/bin/env bash
# Run 47, call 9: racecheck over gpu-check.sh's cases in the list's other suites (call 8 ran
# delta_stepping and adds), suite by suite, bounded by the session's remaining device time.
source build-carry/setup.sh
cases='*small graph for the sanitizers*,*vertex of degree 100k*,*at or below the floor*,*select, gather*,*host entry point*,*bad input*,*overflow*,*give the same distances*,*pull group per row*(min-plus)*,*vxm_closure*,*mxm_closure*,*a source out of range*,*more arcs than the grid holds tiles*,*more sources than blocks*,*sums beyond*,copy_to_host*'
end=$((SECONDS + 240))
for s in host_copy edge_wise delta_stepping_batch near_far_blocks certify_distributed operators rdbs; do
  left=$((end - SECONDS)); [ $left -gt 5 ] || { echo "$s: not run (time)"; continue; }
  timeout $left compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 \
    build/test/tropic_tests -ts=$s -tc="$cases" >$OUT/rc-$s.log 2>&1
  echo "$s rc=$? $(grep -h 'test cases:' $OUT/rc-$s.log) $(grep -h 'RACECHECK SUMMARY' $OUT/rc-$s.log)"
done
