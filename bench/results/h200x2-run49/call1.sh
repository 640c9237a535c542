#!/usr/bin/env bash
# Run 49, call 1 (2 x H200: the 4-GPU kind was not lent): the thin-border rule and one-meeting rounds. Steps (--devices-loop
# host) against closure rounds (device) and the rule (auto) on two GPUs, against one GPU, on
# the suite's graphs of short rows; grid 8192^2 on two GPUs against one; then the distributed
# suites on both GPUs.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
B=build/bench/multi_gpu/tropic_bench_multi_gpu
timeout 100 $B grid:8192:8192 --source-list 60578593,12041482 --runs 5 --only-all \
  --devices 0,1 > $OUT/call1-grid8192.log 2>&1
echo "grid8192 rc $?"; grep "source\|speedup\|equal" $OUT/call1-grid8192.log
for loop in host device auto; do
  timeout 60 build/bench/tropic_bench --graphs uniform:4194304:7,grid:2048:2048,USA-road-d.NY.gr.gz,mdual.mtx.gz \
    --data data --algorithms delta_stepping --devices 0,1 --devices-loop $loop --sources 2 \
    --c-api-sources 0 --no-ceilings --out $OUT/$loop > $OUT/call1-bench-$loop.log 2>&1
  echo "bench $loop rc $?"; grep "delta_stepping" $OUT/call1-bench-$loop.log | grep "|" | head -12
done
timeout 280 build/test/tropic_tests -ts=distributed,distributed_ranks,certify_distributed,distributed_model \
  --duration=true > $OUT/call1-distributed.log 2>&1; echo "distributed rc $?" >> $OUT/call1-distributed.log
tail -4 $OUT/call1-distributed.log
