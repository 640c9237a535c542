#!/usr/bin/env bash
# Run 51, call 3 (one H200): racecheck over the operator suite's merge-path cases (both
# kernels, every split-row case); beside it, ctest's test 61 again, which call 2's sixteen
# tests at once on one GPU held past its 300 s (191 s in run 50's stripe of ten).
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(cd build && timeout 500 ctest -I 61,61 --timeout 480 > $OUT/call3-ctest61.log 2>&1; echo "ctest61 rc $?" >> $OUT/call3-ctest61.log) &
timeout 400 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' \
  > $OUT/call3-racecheck.log 2>&1; echo "racecheck rc $?" >> $OUT/call3-racecheck.log
wait
tail -4 $OUT/call3-racecheck.log
grep "Test *#61\|tests passed\|rc " $OUT/call3-ctest61.log
