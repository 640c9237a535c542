#!/usr/bin/env bash
# Run 49, call 4 (2 x H200): the distributed suites on both GPUs with the final test binary, the
# quick benchmark beside them (validity only: it shares the GPUs); then kron-24, whose steps are
# unchanged, on two GPUs against one.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(timeout 280 build/test/tropic_tests -ts=distributed,distributed_ranks,certify_distributed,distributed_model \
  --duration=true > $OUT/call4-distributed.log 2>&1; echo "distributed rc $?" >> $OUT/call4-distributed.log) &
(CUDA_VISIBLE_DEVICES=1 timeout 200 build/bench/tropic_bench --suite bench/suites/quick.txt --data data \
  --out $OUT/quick > $OUT/call4-quick.log 2>&1; echo "quick rc $?" >> $OUT/call4-quick.log) &
wait
tail -4 $OUT/call4-distributed.log; tail -2 $OUT/call4-quick.log
grep -c "| [0-9]*/[0-9]* |$" $OUT/quick/summary.md; grep "| 0/\|invalid\|FAIL" $OUT/quick/summary.md | head
timeout 120 build/bench/multi_gpu/tropic_bench_multi_gpu kron:24 --sources 2 --runs 5 --only-all \
  --devices 0,1 > $OUT/call4-kron24.log 2>&1
echo "kron24 rc $?"; grep "source\|speedup\|equal" $OUT/call4-kron24.log
