#!/usr/bin/env bash
# Run 53, call 4 (one H200): the bench's ceilings with double weights, fp32 and fp64 in one run
# (cuSPARSE's SpMV against tropic's min-plus mxv in each), on eight graphs; one delta_stepping
# solve a graph, certified.
source build-carry/setup.sh
tar -xJf build-carry/b4.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 200 build/bench/tropic_bench --graphs data/cnr-2000.el.gz,data/soc-Slashdot0902.txt.gz,data/mdual.mtx.gz,data/USA-road-d.NY.gr.gz,kron:20:16,uniform:4194304:7,grid:2048:2048,kron:22:16 \
  --weights double --algorithms delta_stepping --sources 1 --runs 3 --certify --out /tmp/c4 \
  > $OUT/call4-bench.log 2>&1; echo "bench rc $?" >> $OUT/call4-bench.log
cp /tmp/c4/ceilings.csv $OUT/ceilings.csv; cp /tmp/c4/results.csv $OUT/results.csv
tail -2 $OUT/call4-bench.log; grep -i "spmv" $OUT/ceilings.csv | cut -d, -f1-4
