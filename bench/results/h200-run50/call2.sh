#!/usr/bin/env bash
# Run 50, call 2 (one H200: the only kind lent): the GPU check of 92a839b's binaries, ctest's
# second stripe (several-GPU cases skip on one GPU).
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(cd build && timeout 560 ctest -I 2,,2 -j10 --timeout 280 -E package.install_and_use \
  > $OUT/call2-ctestB.log 2>&1; echo "ctestB rc $?" >> $OUT/call2-ctestB.log)
grep -A8 "tests passed\|tests failed" $OUT/call2-ctestB.log | head -16; tail -1 $OUT/call2-ctestB.log
