#!/usr/bin/env bash
# Run 48, call 3 (4 x H200): closure rounds at twice one GPU's delta. The distributed suites;
# grids over one, two and four GPUs against one GPU's delta_stepping; kron-24 (steps, unchanged).
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
B=build/bench/multi_gpu/tropic_bench_multi_gpu
timeout 220 build/test/tropic_tests -ts=distributed,distributed_ranks,certify_distributed,distributed_model \
  > $OUT/call3-tests.log 2>&1; echo "tests rc $?" >> $OUT/call3-tests.log
tail -4 $OUT/call3-tests.log
timeout 120 $B grid:8192:8192 --source-list 60578593,12041482 --runs 5 --only-all \
  --devices 0,1,2,3 > $OUT/call3-grid8192.log 2>&1
echo "grid8192 rc $?"; grep "source\|speedup\|equal" $OUT/call3-grid8192.log
timeout 100 $B grid:4096:4096 --source-list 10246945,12041482 --runs 5 --devices 0,1,2,3 \
  > $OUT/call3-grid4096.log 2>&1
echo "grid4096 rc $?"; grep "source\|speedup\|equal" $OUT/call3-grid4096.log
timeout 120 $B kron:24:16 --sources 2 --runs 3 --only-all --devices 0,1,2,3 \
  > $OUT/call3-kron24.log 2>&1
echo "kron24 rc $?"; grep "source\|speedup\|equal" $OUT/call3-kron24.log
timeout 60 $B grid:8192:8192 --source-list 60578593 --runs 1 --only-all --devices 0,1,2,3 \
  --no-one-gpu --profile > $OUT/call3-profile-grid8192.log 2>&1
grep "profile:" $OUT/call3-profile-grid8192.log
