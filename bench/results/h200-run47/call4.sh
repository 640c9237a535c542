#!/usr/bin/env bash
# Run 47, call 4: the GPU check of 8941ece, ctest's second stripe and the quick benchmark.
source build-carry/setup.sh
export OMP_NUM_THREADS=16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ctest --test-dir build -I 2,,2 -j10 --timeout 300 -E "package.install_and_use" >$OUT/ctest2.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" $OUT/ctest2.log | head -20
build/bench/tropic_bench --suite quick --data data --out $OUT/quick >$OUT/quick.log 2>&1
tail -4 $OUT/quick.log
cp $OUT/quick/summary.md $OUT/quick-summary.md && rm -rf $OUT/quick
