# Call 3: 7f9f1c1's binaries. ctest's odd-numbered tests again (call 1 ran them on 1e7b9c6's),
# then compute-sanitizer memcheck over scripts/gpu-check.sh's list of suites and cases.
set -u
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $OUT/device.txt
cd build
timeout 300 ctest -I 1,,2 -j10 --timeout 280 > $OUT/call3-ctestA.log 2>&1; echo "ctest rc $?" >> $OUT/call3-ctestA.log
cases='*small graph for the sanitizers*,*vertex of degree 100k*,*at or below the floor*,*select, gather*,*host entry point*,*bad input*,*overflow*,*give the same distances*,*pull group per row*(min-plus)*,*vxm_closure*,*mxm_closure*,*a source out of range*,*more arcs than the grid holds tiles*,*more sources than blocks*,*sums beyond*,copy_to_host*'
suites=operators,delta_stepping,adds,rdbs,edge_wise,delta_stepping_batch,near_far_blocks,certify_distributed,host_copy
timeout 230 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 ./test/tropic_tests -ts="$suites" -tc="$cases" > /tmp/mc.log 2>&1; echo "memcheck rc $?" >> /tmp/mc.log
tail -n 8 /tmp/mc.log > $OUT/call3-mc-tail.log
