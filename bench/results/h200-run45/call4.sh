# Call 4: 7f9f1c1's binaries. compute-sanitizer racecheck over scripts/gpu-check.sh's list
# (without "the same distances on every run", as that script does).
set -u
source build-carry/setup.sh
cd build
cases='*small graph for the sanitizers*,*vertex of degree 100k*,*at or below the floor*,*select, gather*,*host entry point*,*bad input*,*overflow*,*give the same distances*,*pull group per row*(min-plus)*,*vxm_closure*,*mxm_closure*,*a source out of range*,*more arcs than the grid holds tiles*,*more sources than blocks*,*sums beyond*,copy_to_host*'
suites=operators,delta_stepping,adds,rdbs,edge_wise,delta_stepping_batch,near_far_blocks,certify_distributed,host_copy
timeout 420 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 ./test/tropic_tests -ts="$suites" -tc="$cases" -tce='*the same graph and source give the same distances*' > /tmp/rc.log 2>&1; echo "racecheck rc $?" >> /tmp/rc.log
tail -n 8 /tmp/rc.log > $OUT/call4-rc-tail.log
grep -E "^\[doctest\] (test cases|assertions)|TEST CASE" /tmp/rc.log | tail -n 60 > $OUT/call4-rc-cases.log
