#!/usr/bin/env bash
# Run 49, call 5 (2 x H200): after the result pass moved out of the rank solver
# (distributed_finish.cuh, a move), the distributed suites on both GPUs and memcheck over both.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 280 build/test/tropic_tests -ts=distributed,distributed_ranks,certify_distributed,distributed_model \
  --duration=true > $OUT/call5-distributed.log 2>&1; echo "distributed rc $?" >> $OUT/call5-distributed.log
tail -4 $OUT/call5-distributed.log
timeout 120 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=distributed -tc='several GPUs: options::devices*,several GPUs: closure rounds*' \
  > $OUT/call5-memcheck-2gpus.log 2>&1; echo "memcheck 2 GPUs rc $?" >> $OUT/call5-memcheck-2gpus.log
tail -4 $OUT/call5-memcheck-2gpus.log
