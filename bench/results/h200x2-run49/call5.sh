#!/usr/bin/env bash
# Run 49, call 5 (one H200: the 2-GPU kind was no longer lent): after the result pass moved out
# of the rank solver (distributed_finish.cuh, a move), the distributed suites (their several-GPU
# cases skip on one GPU; the one-part cases run every path but the exchange) and memcheck of
# the one-part cases.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 200 build/test/tropic_tests -ts=distributed,distributed_ranks,certify_distributed,distributed_model \
  --duration=true > $OUT/call5-distributed.log 2>&1; echo "distributed rc $?" >> $OUT/call5-distributed.log
tail -4 $OUT/call5-distributed.log
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=distributed -tc='*one part*uint32*,*one part*float*' \
  > $OUT/call5-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call5-memcheck.log
tail -4 $OUT/call5-memcheck.log
