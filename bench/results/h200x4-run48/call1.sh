#!/usr/bin/env bash
# Run 48, call 1 (4 x H200): the distributed suites, then grids on one and four GPUs.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
B=build/bench/multi_gpu/tropic_bench_multi_gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 > $OUT/device.txt
timeout 220 build/test/tropic_tests -ts=distributed,distributed_ranks,certify_distributed \
  > $OUT/call1-tests.log 2>&1; echo "tests rc $?" >> $OUT/call1-tests.log
tail -4 $OUT/call1-tests.log
timeout 100 $B grid:4096:4096 --sources 2 --runs 3 --devices 0,1,2,3 > $OUT/call1-grid4096.log 2>&1
echo "grid4096 rc $?"; tail -12 $OUT/call1-grid4096.log
timeout 150 $B grid:8192:8192 --sources 2 --runs 3 --only-all --devices 0,1,2,3 \
  > $OUT/call1-grid8192.log 2>&1
echo "grid8192 rc $?"; tail -8 $OUT/call1-grid8192.log
