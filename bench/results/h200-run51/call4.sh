#!/usr/bin/env bash
# Run 51, call 4 (one H200): the full suite's graphs with the new code, for the ceilings table
# (cuSPARSE's SpMV against tropic's min-plus mxv, now the warps' merge path on the whole
# matrix) and four GPU algorithms whose solves take whole-matrix pulls; every row checked by the
# certificate (no Dijkstra: the call's 10 minutes), no peers, no CPU rows.
source build-carry/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 570 build/bench/tropic_bench --suite full --data data --certify \
  --algorithms delta_stepping,bellman_ford,workfront,adds --out $OUT/suite \
  > $OUT/call4-suite.log 2>&1; echo "suite rc $?" >> $OUT/call4-suite.log
tail -3 $OUT/call4-suite.log
cat $OUT/suite/ceilings.csv | grep -i "spmv"
