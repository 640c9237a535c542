#!/usr/bin/env bash
# Run 48, call 4 (4 x H200): the GPU check of 442ced0's binaries, the GPUs side by side:
# ctest's two stripes (GPUs 0 and 1), compute-sanitizer over gpu-check.sh's cases (GPU 2), the
# quick benchmark (GPU 3); then the distributed suites on all four, memcheck of a closure-round
# case over two GPUs, and grid 8192^2 on four GPUs against one.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
cases='*small graph for the sanitizers*,*vertex of degree 100k*,*at or below the floor*,*select, gather*,*host entry point*,*bad input*,*overflow*,*give the same distances*,*pull group per row*(min-plus)*,*vxm_closure*,*mxm_closure*,*a source out of range*,*more arcs than the grid holds tiles*,*more sources than blocks*,*sums beyond*,copy_to_host*'
(cd build && CUDA_VISIBLE_DEVICES=0 timeout 290 ctest -I 1,,2 -j10 --timeout 280 \
  -E package.install_and_use > $OUT/call4-ctestA.log 2>&1; echo "ctestA rc $?" >> $OUT/call4-ctestA.log) &
(cd build && CUDA_VISIBLE_DEVICES=1 timeout 290 ctest -I 2,,2 -j10 --timeout 280 \
  -E package.install_and_use > $OUT/call4-ctestB.log 2>&1; echo "ctestB rc $?" >> $OUT/call4-ctestB.log) &
(export CUDA_VISIBLE_DEVICES=2
 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators,delta_stepping,adds,rdbs,edge_wise,delta_stepping_batch,near_far_blocks,certify_distributed,host_copy,distributed \
  -tc="$cases,*one part*uint32*" > $OUT/call4-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/call4-memcheck.log
 timeout 220 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=rdbs,delta_stepping,adds,operators -tc="$cases" -tce='*the same graph and source give the same distances*' \
  > $OUT/call4-racecheck.log 2>&1; echo "racecheck rc $?" >> $OUT/call4-racecheck.log) &
(export CUDA_VISIBLE_DEVICES=3
 timeout 200 build/bench/tropic_bench --suite bench/suites/quick.txt --data data --out $OUT/quick \
  > $OUT/call4-quick.log 2>&1; echo "quick rc $?" >> $OUT/call4-quick.log) &
wait
for f in ctestA ctestB memcheck racecheck quick; do echo "== $f"; tail -4 $OUT/call4-$f.log; done
B=build/bench/multi_gpu/tropic_bench_multi_gpu
timeout 150 build/test/tropic_tests -ts=distributed,distributed_ranks,certify_distributed,distributed_model \
  > $OUT/call4-distributed.log 2>&1; echo "distributed rc $?" >> $OUT/call4-distributed.log
tail -4 $OUT/call4-distributed.log
CUDA_VISIBLE_DEVICES=2,3 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 \
  build/test/tropic_tests -ts=distributed -tc='several GPUs: options::devices*' \
  > $OUT/call4-memcheck-2gpus.log 2>&1; echo "memcheck 2 GPUs rc $?" >> $OUT/call4-memcheck-2gpus.log
tail -4 $OUT/call4-memcheck-2gpus.log
timeout 100 $B grid:8192:8192 --source-list 60578593,12041482 --runs 5 --only-all \
  --devices 0,1,2,3 > $OUT/call4-grid8192.log 2>&1
echo "grid8192 rc $?"; grep "source\|speedup\|equal" $OUT/call4-grid8192.log
