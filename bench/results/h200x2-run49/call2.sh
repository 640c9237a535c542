#!/usr/bin/env bash
# Run 49, call 2 (2 x H200): the hand-over from steps to rounds behind thick borders. Steps
# (--devices-loop host), rounds (device) and the rule (auto) on two GPUs against one, on the
# suite's graphs of short rows; where grid 8192^2's time goes on two GPUs (--profile); then the
# distributed suites on both GPUs.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
for loop in auto host device; do
  timeout 60 build/bench/tropic_bench --graphs uniform:4194304:7,grid:2048:2048,USA-road-d.NY.gr.gz,mdual.mtx.gz \
    --data data --algorithms delta_stepping --devices 0,1 --devices-loop $loop --sources 2 \
    --c-api-sources 0 --no-ceilings --out $OUT/$loop > $OUT/call2-bench-$loop.log 2>&1
  echo "bench $loop rc $?"; grep "delta_stepping" $OUT/call2-bench-$loop.log | grep "^| " | head -12
done
B=build/bench/multi_gpu/tropic_bench_multi_gpu
timeout 80 $B grid:8192:8192 --source-list 60578593 --runs 3 --only-all --no-one-gpu --profile \
  --devices 0,1 > $OUT/call2-profile-grid8192.log 2>&1
echo "profile rc $?"; grep -v "^    " $OUT/call2-profile-grid8192.log | head -30
timeout 280 build/test/tropic_tests -ts=distributed,distributed_ranks,certify_distributed,distributed_model \
  --duration=true > $OUT/call2-distributed.log 2>&1; echo "distributed rc $?" >> $OUT/call2-distributed.log
tail -4 $OUT/call2-distributed.log
