#!/bin/bash
# Run 44's call 6: delta_stepping's lists released around the GPU-driven loop (1f40853).
set -u
source build-carry/setup.sh
T=build/test/tropic_tests
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device-6.txt
date -u | tee -a $OUT/device-6.txt
$T -tc="*peak device memory*" > $OUT/call6-peak.log 2>&1; grep -E "peak|test cases" $OUT/call6-peak.log
OMP_NUM_THREADS=16 build/bench/tropic_bench --graphs grid:2048:2048,data/USA-road-d.NY.gr.gz,data/mdual.mtx.gz,grid:4096:4096,kron:22:16 \
  --algorithms delta_stepping,bellman_ford,adds,near_far --sources 2 --runs 5 --no-ceilings --out $OUT/bench6 > $OUT/call6-bench.log 2>&1
sed -n '/^## Results/,/^## [A-Z]/p' $OUT/bench6/summary.md | grep '^|' | grep -v dijkstra
date -u
( timeout 200 $T -ts=delta_stepping,edge_wise > $OUT/call6-ds.log 2>&1; echo "ds rc=$?" >> $OUT/call6-ds.log ) &
( timeout 200 $T -ts=many_sources_gpu,certify_gpu > $OUT/call6-ms.log 2>&1; echo "ms rc=$?" >> $OUT/call6-ms.log ) &
( timeout 200 $T -tc="*allocation failure*,*eight host threads*,*bellman*" > $OUT/call6-robust.log 2>&1; echo "robust rc=$?" >> $OUT/call6-robust.log ) &
wait
tail -n 4 $OUT/call6-ds.log $OUT/call6-ms.log $OUT/call6-robust.log
date -u
