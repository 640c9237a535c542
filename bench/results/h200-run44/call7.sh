#!/bin/bash
# Run 44's call 7: near_far's far-pile staging in the spare pile (one list fewer).
set -u
source build-carry/setup.sh
T=build/test/tropic_tests
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device-7.txt
date -u | tee -a $OUT/device-7.txt
$T -tc="*peak device memory*" > $OUT/call7-peak.log 2>&1; grep -E "MESSAGE|test cases" $OUT/call7-peak.log
OMP_NUM_THREADS=16 build/bench/tropic_bench --graphs grid:2048:2048,data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,kron:20:16 \
  --algorithms near_far,adds --sources 2 --runs 5 --no-ceilings --out $OUT/bench7 > $OUT/call7-bench.log 2>&1
sed -n '/^## Results/,/^## [A-Z]/p' $OUT/bench7/summary.md | grep '^|' | grep -v dijkstra
rm -f $OUT/bench7/summary.md
date -u
( timeout 150 $T -ts=baselines > $OUT/call7-baselines.log 2>&1; echo "baselines rc=$?" >> $OUT/call7-baselines.log ) &
( timeout 150 $T -tc="*allocation failure*" > $OUT/call7-robust.log 2>&1; echo "robust rc=$?" >> $OUT/call7-robust.log ) &
wait
tail -n 4 $OUT/call7-baselines.log $OUT/call7-robust.log
date -u
