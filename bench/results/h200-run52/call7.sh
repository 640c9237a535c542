#!/usr/bin/env bash
# Run 52, call 7 (one H200): f7c3b21 on the full suite's graphs for the ceilings table
# (cuSPARSE's SpMV against tropic's min-plus mxv) and four GPU algorithms, every row checked by
# the certificate (no Dijkstra, no peers, no CPU rows); then racecheck of the merge-path cases.
source build-carry/setup.sh
tar -xJf build-carry/b6.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
timeout 230 build/bench/tropic_bench --suite full --data data --certify \
  --algorithms delta_stepping,bellman_ford,workfront,adds --out $OUT/suite \
  > $OUT/call7-suite.log 2>&1; echo "suite rc $?" >> $OUT/call7-suite.log
tail -3 $OUT/call7-suite.log
grep -i "spmv" $OUT/suite/ceilings.csv
timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 --print-limit 20 build/test/tropic_tests \
  -ts=operators -tc='*merge path*,*at or below the floor*' > $OUT/call7-racecheck.log 2>&1
echo "racecheck rc $?" >> $OUT/call7-racecheck.log
tail -3 $OUT/call7-racecheck.log
