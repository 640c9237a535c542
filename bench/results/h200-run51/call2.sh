#!/usr/bin/env bash
# Run 51, call 2 (one H200: the only kind lent): the GPU check of the new code, the whole ctest
# in one run (several-GPU cases skip on one GPU).
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(cd build && timeout 570 ctest -j16 --timeout 300 -E package.install_and_use \
  > $OUT/call2-ctest.log 2>&1; echo "ctest rc $?" >> $OUT/call2-ctest.log)
grep -A12 "tests passed\|tests failed" $OUT/call2-ctest.log | head -24; tail -1 $OUT/call2-ctest.log
