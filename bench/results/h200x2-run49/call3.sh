#!/usr/bin/env bash
# Run 49, call 3 (2 x H200): the GPU check. ctest's two stripes side by side, one GPU each;
# then memcheck and racecheck of the several-GPU cases over both GPUs (closure rounds with ghosts,
# steps, the hand-over, a cutoff, Δ = 1 and Δ = ∞).
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
(cd build && CUDA_VISIBLE_DEVICES=0 timeout 300 ctest -I 1,,2 -j10 --timeout 280 \
  -E package.install_and_use > $OUT/call3-ctestA.log 2>&1; echo "ctestA rc $?" >> $OUT/call3-ctestA.log) &
(cd build && CUDA_VISIBLE_DEVICES=1 timeout 300 ctest -I 2,,2 -j10 --timeout 280 \
  -E package.install_and_use > $OUT/call3-ctestB.log 2>&1; echo "ctestB rc $?" >> $OUT/call3-ctestB.log) &
wait
for f in ctestA ctestB; do echo "== $f"; grep -A3 "tests passed\|tests failed" $OUT/call3-$f.log | head -12; tail -1 $OUT/call3-$f.log; done
timeout 120 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=distributed -tc='several GPUs: options::devices*,several GPUs: closure rounds*' \
  > $OUT/call3-memcheck-2gpus.log 2>&1; echo "memcheck 2 GPUs rc $?" >> $OUT/call3-memcheck-2gpus.log
tail -4 $OUT/call3-memcheck-2gpus.log
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=distributed -tc='several GPUs: closure rounds*' \
  > $OUT/call3-racecheck-2gpus.log 2>&1; echo "racecheck 2 GPUs rc $?" >> $OUT/call3-racecheck-2gpus.log
tail -4 $OUT/call3-racecheck-2gpus.log
