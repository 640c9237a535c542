#!/usr/bin/env bash
# Run 50, call 1 (one H200: the only kind lent): the GPU check of 92a839b's binaries, ctest's
# first stripe (several-GPU cases skip on one GPU).
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(cd build && timeout 560 ctest -I 1,,2 -j10 --timeout 280 -E package.install_and_use \
  > $OUT/call1-ctestA.log 2>&1; echo "ctestA rc $?" >> $OUT/call1-ctestA.log)
grep -A8 "tests passed\|tests failed" $OUT/call1-ctestA.log | head -16; tail -1 $OUT/call1-ctestA.log
