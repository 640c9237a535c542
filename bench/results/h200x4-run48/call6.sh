#!/usr/bin/env bash
# Run 48, call 6 (4 x H200): 442ced0's closure rounds on the other graphs of short rows that
# the suite holds (a random graph, a grid, a road network, a mesh): four GPUs against one.
source build-carry/setup.sh
export NCCL_NVLS_ENABLE=0
timeout 170 build/bench/tropic_bench --graphs uniform:4194304:7,grid:2048:2048,USA-road-d.NY.gr.gz,mdual.mtx.gz \
  --data data --algorithms delta_stepping --devices 0,1,2,3 --sources 2 --c-api-sources 0 \
  --no-ceilings --out $OUT/b > $OUT/call6-bench.log 2>&1
echo "bench rc $?"; grep "delta_stepping" $OUT/call6-bench.log | grep "|" | head -12
