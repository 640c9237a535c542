#!/usr/bin/env bash
# Run 53, call 3 (one H200: the only kind lent): the GPU check of the committed code, the whole
# ctest in one run (several-GPU cases skip on one GPU; the layer checks need the sources'
# include graph and run in CI).
source build-carry/setup.sh
tar -xJf build-carry/b3.tar.xz
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(cd build && timeout 560 ctest -j12 --timeout 420 -E package.install_and_use \
  > $OUT/call3-ctest.log 2>&1; echo "ctest rc $?" >> $OUT/call3-ctest.log)
grep -A14 "tests passed\|tests failed" $OUT/call3-ctest.log | head -28; tail -1 $OUT/call3-ctest.log
