#!/usr/bin/env bash
# Run 47, call 7 (4 x H200): the multi-GPU tests on four GPUs (run 41's four-GPU run was cut by
# its limit), and kron-26 over four GPUs against one, as run 41 measured it (issue 38).
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=16
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
ctest --test-dir build -R "GPU of the machine|several GPUs|distributed" --timeout 280 \
  >$OUT/ctest-4gpus.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" $OUT/ctest-4gpus.log
build/bench/multi_gpu/tropic_bench_multi_gpu kron:26:16 --source-list 60578593,12041482 \
  --runs 3 --only-all --devices 0,1,2,3 2>&1 | tee $OUT/kron26-4gpus.log
