#!/bin/bash
# Run 44's call 8: delta_stepping's S sized when the heavy phase first runs.
set -u
source build-carry/setup.sh
T=build/test/tropic_tests
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device-8.txt
date -u | tee -a $OUT/device-8.txt
$T -tc="*peak device memory*" > $OUT/call8-peak.log 2>&1; grep -E "MESSAGE|test cases" $OUT/call8-peak.log
OMP_NUM_THREADS=16 build/bench/tropic_bench --graphs uniform:4194304:7,kron:22:16 \
  --algorithms bellman_ford,delta_stepping --sources 2 --runs 5 --no-ceilings --out $OUT/bench8 > $OUT/call8-bench.log 2>&1
sed -n '/^## Results/,/^## [A-Z]/p' $OUT/bench8/summary.md | grep '^|' | grep -v dijkstra
rm -f $OUT/bench8/summary.md
( timeout 100 $T -ts=delta_stepping > $OUT/call8-ds.log 2>&1; echo "ds rc=$?" >> $OUT/call8-ds.log ) &
( timeout 100 $T -tc="*allocation failure*,*bellman*" > $OUT/call8-robust.log 2>&1; echo "robust rc=$?" >> $OUT/call8-robust.log ) &
wait
tail -n 4 $OUT/call8-ds.log $OUT/call8-robust.log
date -u
