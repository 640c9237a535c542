#!/usr/bin/env bash
# Run 48, call 2 (4 x H200): grid 8192^2 over four GPUs by delta; where a solve's time goes
# (--profile) on grid 4096^2 over one part and over four.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
B=build/bench/multi_gpu/tropic_bench_multi_gpu
for d in 16017 32000 64000 128000 512000; do
  echo "== delta $d"
  timeout 60 $B grid:8192:8192 --source-list 60578593 --runs 3 --only-all --devices 0,1,2,3 \
    --no-one-gpu --delta $d 2>&1 | grep "source\|rc\|FAIL"
done > $OUT/call2-sweep.log 2>&1
cat $OUT/call2-sweep.log
timeout 60 $B grid:4096:4096 --source-list 10246945 --runs 3 --only-all --devices 0 --no-one-gpu \
  --profile > $OUT/call2-profile-1part.log 2>&1
timeout 60 $B grid:4096:4096 --source-list 10246945 --runs 3 --only-all --devices 0,1,2,3 \
  --no-one-gpu --profile > $OUT/call2-profile-4parts.log 2>&1
grep "profile:" $OUT/call2-profile-*.log
