#!/usr/bin/env bash
# Run 57, call 4 (2 x H200): the GPU check of the commit that removes carried arcs (queue of 192
# closure_items, __launch_bounds__(256, 2) on the persistent kernels): the whole ctest in one run,
# the several-GPU cases on both GPUs, and beside it, on the second GPU, memcheck and racecheck of
# delta-stepping's sanitizer and local-round cases. (pytest's module did not fit the carry.)
source build-carry/setup.sh
tar -xJf build-carry/b4.tar.xz
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/call4-ctest.log
cases='*small graph for the sanitizers*,*local rounds and queue size*<unsigned int>,*local rounds: the same distances*'
(CUDA_VISIBLE_DEVICES=1 timeout 400 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=delta_stepping -tc="$cases" > $OUT/call4-memcheck.log 2>&1
 echo "memcheck rc $?" >> $OUT/call4-memcheck.log
 CUDA_VISIBLE_DEVICES=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=delta_stepping -tc='*small graph for the sanitizers*' > $OUT/call4-racecheck.log 2>&1
 echo "racecheck rc $?" >> $OUT/call4-racecheck.log) &
(cd build && timeout 520 ctest -j16 --timeout 450 -E package.install_and_use \
  >> $OUT/call4-ctest.log 2>&1; echo "ctest rc $?" >> $OUT/call4-ctest.log)
wait
grep -A16 "tests passed\|tests failed" $OUT/call4-ctest.log | head -30; tail -1 $OUT/call4-ctest.log
tail -3 $OUT/call4-memcheck.log; tail -3 $OUT/call4-racecheck.log
