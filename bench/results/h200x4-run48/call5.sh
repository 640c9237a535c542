#!/usr/bin/env bash
# Run 48, call 5 (4 x H200): 442ced0's distributed suites on four GPUs with each case's time
# (call 4's bound of 150 s cut them), then memcheck and racecheck of a closure-round case over
# two GPUs, NCCL's own API errors not reported (as run 40).
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
timeout 330 build/test/tropic_tests -ts=distributed,distributed_ranks,certify_distributed \
  --duration=true > $OUT/call5-distributed.log 2>&1; echo "distributed rc $?" >> $OUT/call5-distributed.log
grep -v "^$" $OUT/call5-distributed.log | tail -4
for tool in memcheck racecheck; do
  CUDA_VISIBLE_DEVICES=2,3 timeout 100 compute-sanitizer --tool $tool --report-api-errors no \
    --error-exitcode 1 --print-limit 20 build/test/tropic_tests -ts=distributed \
    -tc='several GPUs: options::devices*' > $OUT/call5-$tool-2gpus.log 2>&1
  echo "$tool 2 GPUs rc $?" >> $OUT/call5-$tool-2gpus.log
  tail -3 $OUT/call5-$tool-2gpus.log
done
