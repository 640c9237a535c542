#!/usr/bin/env bash
# Run 56, call 5 (one H200): the GPU check of babc67e (new56c's kernel), the whole ctest in one
# run (several-GPU cases skip on one GPU; the layer checks need the sources' include graph and run
# in CI).
source build-carry/setup.sh
tar -xJf build-carry/b5.tar.xz
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 > $OUT/call5-ctest.log
(cd build && timeout 570 ctest -j12 --timeout 420 -E package.install_and_use \
  >> $OUT/call5-ctest.log 2>&1; echo "ctest rc $?" >> $OUT/call5-ctest.log)
grep -A14 "tests passed\|tests failed" $OUT/call5-ctest.log | head -28; tail -1 $OUT/call5-ctest.log
